// The admin commands of the audit trail: its entries, newest first, and their export for a SIEM or an auditor.
import { writeFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import type { AuditEvent, AuditEventPage, AuditOutcome } from './generated/types.gen.js';
import type { AuditExportQuery } from './admin-client.js';
import { admin, adminCommand, pageOptions, show, type OutputFlags } from './admin-command-base.js';
import { formatTable, formatTime } from './admin-output.js';
import { dateTime, positiveInteger } from './cli-arguments.js';
import { EXIT } from './cli-exit-codes.js';

const OUTCOMES: AuditOutcome[] = ['success', 'failure', 'denied'];

/** The filters `list` and `export` both take. */
interface AuditFilterFlags {
  actor?: string;
  operation?: string;
  outcome?: AuditOutcome;
  since?: string;
  until?: string;
}

/** Adds the filters' options, fresh for each command (commander keeps per-command state in them). */
const withFilterOptions = (command: Command) =>
  command
    .option('--actor <name>', "only entries by this actor: a person's email, or a token's id, service account or label")
    .option('--operation <id>', 'only entries of this operation, e.g. createWaiver or signIn')
    .addOption(new Option('--outcome <outcome>', 'only entries with this outcome').choices(OUTCOMES))
    .addOption(new Option('--since <time>', 'only entries at or after this date or time').argParser(dateTime))
    .addOption(new Option('--until <time>', 'only entries before this date or time').argParser(dateTime));

/** The filters as the API names them; absent flags stay absent. */
const filtersOf = ({ actor, operation, outcome, since, until }: AuditFilterFlags) =>
  Object.fromEntries(Object.entries({ actor, operation, outcome, since, until }).filter(([, value]) => value !== undefined)) as AuditFilterFlags;

/** An entry's target as one cell: `license-key 0f8f…`. */
const targetText = (event: AuditEvent) => (event.target ? `${event.target.type} ${event.target.id ?? ''}`.trimEnd() : '');

/** `audit-client audit-events list`: one page, newest first, and how to ask for the next. */
export function formatAuditEventPage(page: AuditEventPage): string {
  if (page.items.length === 0) return 'No audit entries.\n';
  const table = formatTable<AuditEvent>(
    [
      ['SEQ', (e) => e.sequence],
      ['WHEN', (e) => formatTime(e.at)],
      ['ACTOR', (e) => e.actor.name ?? e.actor.id ?? e.actor.kind],
      ['ROLE', (e) => e.actor.role ?? ''],
      ['OPERATION', (e) => e.operation],
      ['TARGET', targetText],
      ['OUTCOME', (e) => `${e.outcome} (${e.status})`],
      ['ADDRESS', (e) => e.sourceAddress],
    ],
    page.items,
  );
  return table + (page.nextBefore === null ? '' : `More: --before ${page.nextBefore}\n`);
}

/** `audit-events`: the audit trail (admins only). */
export function addAuditEventCommands(program: Command): void {
  const auditEvents = program.command('audit-events').description('the audit trail: who changed, exported or signed in, and how it ended (admin role)');
  withFilterOptions(adminCommand(auditEvents, 'list', 'list audit entries, newest first'))
    .addOption(pageOptions.limit())
    .addOption(new Option('--before <sequence>', 'only entries older than this sequence, for the next page').argParser(positiveInteger))
    .action(
      admin<[OutputFlags & AuditFilterFlags & { limit?: number; before?: number }]>(async (client, options) =>
        show(options, await client.listAuditEvents({ ...filtersOf(options), limit: options.limit, before: options.before }), formatAuditEventPage),
      ),
    );
  withFilterOptions(auditEvents.command('export').description('export audit entries, oldest first, with their hashes, as CSV or JSON Lines'))
    .addOption(new Option('--format <format>', 'csv (default) or jsonl').choices(['csv', 'jsonl']).default('csv'))
    .option('--output <file>', 'write to this file instead of stdout')
    .action(
      admin<[AuditFilterFlags & { format: AuditExportQuery['format']; output?: string }]>(async (client, options) => {
        const text = await client.exportAuditEvents({ ...filtersOf(options), format: options.format });
        if (options.output) await writeFile(options.output, text);
        else process.stdout.write(text);
        return EXIT.ok;
      }),
    );
}
