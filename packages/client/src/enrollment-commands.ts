// The admin commands of enrollments: the one-line command that enrolls hosts, made, listed and revoked.
import { Command, Option } from 'commander';
import type { Enrollment, EnrollmentList } from './generated/types.gen.js';
import { admin, adminCommand, printJson, show, type OutputFlags } from './admin-command-base.js';
import { formatTable, formatTime } from './admin-output.js';
import { dateTime, positiveInteger, recordId } from './cli-arguments.js';
import { EXIT } from './cli-exit-codes.js';

const DAY_MS = 86_400_000;

/** A comma-separated list of labels, blanks dropped. */
const labels = (value: string) =>
  value
    .split(',')
    .map((label) => label.trim())
    .filter(Boolean);

/** `audit-client enrollments list`: one line per enrollment. */
export function formatEnrollments(list: EnrollmentList): string {
  if (list.items.length === 0) return 'No enrollments.\n';
  return formatTable<Enrollment>(
    [
      ['ID', (e) => e.id],
      ['KEY', (e) => e.keyLabel ?? e.licenseKeyId],
      ['GROUPS', (e) => e.systemGroups.join(',')],
      ['TAGS', (e) => e.tags.join(',')],
      ['CUSTOMER', (e) => e.customer ?? ''],
      ['HOSTS', (e) => `${e.hostCount}/${e.maxHosts ?? '-'}`],
      ['STATE', (e) => e.state],
      ['EXPIRES', (e) => formatTime(e.expiresAt)],
      ['CREATED BY', (e) => e.createdBy ?? ''],
    ],
    list.items,
  );
}

interface CreateFlags extends OutputFlags {
  key: string;
  groups?: string[];
  tags?: string[];
  customer?: string;
  expires?: string;
  maxHosts?: number;
}

/** `enrollments`: the one-line command that enrolls hosts under a license key. */
export function addEnrollmentCommands(program: Command): void {
  const enrollments = program.command('enrollments').description('the one-line command that enrolls hosts: make, list, revoke (operator role to change)');
  adminCommand(enrollments, 'list', 'list enrollments, newest first').action(
    admin<[OutputFlags]>(async (client, options) => show(options, await client.listEnrollments(), formatEnrollments)),
  );
  adminCommand(enrollments, 'create', 'make an enrollment and print its one-line command, shown this once (it carries a secret)')
    .addOption(new Option('--key <id>', 'the license key enrolled hosts report under').argParser(recordId).makeOptionMandatory())
    .addOption(new Option('--groups <list>', "system groups written into enrolled hosts' profiles, comma-separated").argParser(labels))
    .addOption(new Option('--tags <list>', "tags written into enrolled hosts' profiles, comma-separated").argParser(labels))
    .option('--customer <name>', "the customer written into enrolled hosts' profiles")
    .addOption(new Option('--expires <time>', 'when the command stops working (default: in 7 days; at most 90)').argParser(dateTime))
    .addOption(new Option('--max-hosts <n>', 'most hosts that may enroll with it (default: no maximum)').argParser(positiveInteger))
    .action(
      admin<[CreateFlags]>(async (client, options) => {
        const created = await client.createEnrollment({
          licenseKeyId: options.key,
          ...(options.groups ? { systemGroups: options.groups } : {}),
          ...(options.tags ? { tags: options.tags } : {}),
          ...(options.customer !== undefined ? { customer: options.customer } : {}),
          expiresAt: options.expires ?? new Date(Date.now() + 7 * DAY_MS).toISOString(),
          ...(options.maxHosts !== undefined ? { maxHosts: options.maxHosts } : {}),
        });
        if (options.json) return printJson(created);
        process.stderr.write(
          `Created enrollment ${created.enrollment.id}, working until ${formatTime(created.enrollment.expiresAt)}. Run this command on each host; it carries a secret and is shown only this once:\n`,
        );
        process.stdout.write(`${created.command}\n`);
        return EXIT.ok;
      }),
    );
  adminCommand(enrollments, 'revoke', 'revoke an enrollment: its command stops working; enrolled hosts keep reporting')
    .argument('<id>', 'the enrollment id', recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, id, options) => {
        await client.revokeEnrollment(id);
        if (options.json) return printJson({ id, revoked: true });
        process.stderr.write(`Revoked enrollment ${id}\n`);
        return EXIT.ok;
      }),
    );
}
