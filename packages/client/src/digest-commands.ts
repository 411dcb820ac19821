// The admin commands of scheduled digests: schedules (list, add, remove), the digests issued (list, show), issuing
// one now and sending one again.
import { Command, Option } from 'commander';
import type { CompliancePoint, Digest, DigestDeliveryStatus, DigestFinding, DigestPage, DigestScheduleList, DigestScope } from './generated/types.gen.js';
import { admin, adminCommand, deleted, pageOptions, show, type OutputFlags } from './admin-command-base.js';
import { formatFields, formatPageLine, formatTable, formatTime, printable } from './admin-output.js';
import { recordId } from './cli-arguments.js';

const STATUSES: DigestDeliveryStatus[] = ['pending', 'sent', 'failed', 'skipped'];

/** `digests`: schedules and the digests they issued. */
export function addDigestCommands(program: Command): void {
  const digests = program.command('digests').description('weekly or monthly digests of the fleet, a group or a customer, by email and as a printable page');
  adminCommand(digests, 'schedules', "list the digest schedules (recipients' addresses are shown to admins only)").action(
    admin<[OutputFlags]>(async (client, options) => show(options, await client.listDigestSchedules(), formatSchedules)),
  );
  adminCommand(digests, 'schedule', 'schedule a digest of a group, a customer or (with neither) the fleet (admin)')
    .addOption(new Option('--group <name>', 'a system group').conflicts('customer'))
    .option('--customer <name>', 'a customer')
    .addOption(
      new Option('--cadence <cadence>', 'weekly (after Monday 00:00 UTC) or monthly (after the 1st)').choices(['weekly', 'monthly']).makeOptionMandatory(),
    )
    .requiredOption('--to <address...>', 'who receives it by email')
    .action(
      admin<[OutputFlags & { group?: string; customer?: string; cadence: 'weekly' | 'monthly'; to: string[] }]>(async (client, options) =>
        show(
          options,
          await client.createDigestSchedule({ scope: { group: options.group, customer: options.customer }, cadence: options.cadence, recipients: options.to }),
          (schedule) => `Scheduled digest ${schedule.id}: ${schedule.cadence}, of ${scopeText(schedule.scope)}, first due ${formatTime(schedule.nextDueAt)}\n`,
        ),
      ),
    );
  adminCommand(digests, 'unschedule', 'stop a scheduled digest; the digests it issued stay (admin)')
    .argument('<schedule-id>', "the schedule's id, from digests schedules", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, scheduleId, options) => {
        await client.deleteDigestSchedule(scheduleId);
        return deleted(options, 'digest schedule', scheduleId);
      }),
    );
  adminCommand(digests, 'list', 'list the digests issued, newest first, with their delivery')
    .addOption(new Option('--status <status>', 'only digests whose delivery has this status').choices(STATUSES))
    .addOption(pageOptions.limit())
    .addOption(pageOptions.offset())
    .action(
      admin<[OutputFlags & { status?: DigestDeliveryStatus; limit?: number; offset?: number }]>(async (client, options) =>
        show(options, await client.listDigests({ status: options.status, limit: options.limit, offset: options.offset }), formatDigestPage),
      ),
    );
  adminCommand(digests, 'show', 'show a digest: its figures as issued and its delivery')
    .argument('<digest-id>', "the digest's id, from digests list", recordId)
    .action(admin<[string, OutputFlags]>(async (client, digestId, options) => show(options, await client.getDigest(digestId), formatDigest)));
  adminCommand(digests, 'issue', "issue a schedule's digest now, over the period ending now, and send it (operator)")
    .argument('<schedule-id>', "the schedule's id, from digests schedules", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, scheduleId, options) =>
        show(options, await client.issueDigest(scheduleId), (digest) => `Issued digest ${digest.id} (${digest.delivery.status}): ${digest.link}\n`),
      ),
    );
  adminCommand(digests, 'resend', "send a digest's email again, a new round of attempts (operator)")
    .argument('<digest-id>', "the digest's id, from digests list", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, digestId, options) =>
        show(options, await client.resendDigest(digestId), (digest) => `Queued digest ${digest.id} to be sent again\n`),
      ),
    );
}

/** `group webservers`, `customer acme` or `the fleet`. */
function scopeText(scope: DigestScope): string {
  if (scope.group) return `group ${scope.group}`;
  if (scope.customer) return `customer ${scope.customer}`;
  return 'the fleet';
}

function formatSchedules(list: DigestScheduleList): string {
  if (list.items.length === 0) return 'No digest schedules.\n';
  return formatTable(
    [
      ['ID', (s) => s.id],
      ['SCOPE', (s) => scopeText(s.scope)],
      ['CADENCE', (s) => s.cadence],
      ['RECIPIENTS', (s) => s.recipients.join(',')],
      ['LAST ISSUED', (s) => formatTime(s.lastIssuedAt)],
      ['NEXT DUE', (s) => formatTime(s.nextDueAt)],
    ],
    list.items,
  );
}

/** A delivery's status with what went wrong, when it did: `failed (5 attempts): 550 mailbox unavailable`. */
function deliveryText(digest: Digest): string {
  const { status, attempts, lastError } = digest.delivery;
  return lastError && status !== 'sent' ? `${status} (${attempts} attempt${attempts === 1 ? '' : 's'}): ${lastError}` : status;
}

function formatDigestPage(page: DigestPage): string {
  const table = formatTable(
    [
      ['ID', (d) => d.id],
      ['SCOPE', (d) => scopeText(d.scope)],
      ['CADENCE', (d) => d.cadence],
      ['PERIOD', (d) => `${d.periodStart.slice(0, 10)} to ${d.periodEnd.slice(0, 10)}`],
      ['DELIVERY', deliveryText],
      ['ISSUED', (d) => formatTime(d.createdAt)],
    ],
    page.items,
  );
  return (page.items.length > 0 ? table : '') + formatPageLine(page, 'digests');
}

const percent = (point: CompliancePoint | null | undefined) =>
  !point
    ? '-'
    : point.compliancePercent === null
      ? 'n/a'
      : `${point.compliancePercent.toFixed(1)}% (${point.hosts.compliant} compliant, ${point.hosts.noncompliant} non-compliant)`;

const findingTable = (title: string, findings: DigestFinding[]) =>
  `\n${title}:\n` +
  (findings.length === 0
    ? 'none\n'
    : formatTable(
        [
          ['DATE', (f) => f.at.slice(0, 10)],
          ['HOST', (f) => f.hostname ?? f.hostRecordId],
          ['KIND', (f) => f.kind],
          ['TEST', (f) => f.testId],
          ['TEXT', (f) => f.text],
        ],
        findings,
      ));

/** `digests show`: the digest, its delivery and its figures. */
function formatDigest(digest: Digest): string {
  const content = digest.content;
  const change = content?.compliance.changePoints;
  const fields = formatFields([
    ['Digest', digest.id],
    ['Scope', scopeText(digest.scope)],
    ['Cadence', digest.cadence],
    ['Period', `${formatTime(digest.periodStart)} to ${formatTime(digest.periodEnd)}`],
    ['Issued', formatTime(digest.createdAt)],
    ['Delivery', deliveryText(digest)],
    ['Next attempt', formatTime(digest.delivery.nextAttemptAt)],
    ['Sent', formatTime(digest.delivery.sentAt)],
    ['Page', digest.link],
    ['Compliance now', percent(content?.compliance.now)],
    ['At the start', percent(content?.compliance.before)],
    ['Change', change === null || change === undefined ? null : `${change > 0 ? '+' : ''}${change.toFixed(1)} points`],
  ]);
  if (!content) return fields;
  const waivers =
    '\nWaivers expiring within 14 days:\n' +
    (content.expiringWaivers.length === 0
      ? 'none\n'
      : formatTable(
          [
            ['EXPIRES', (w) => w.expiresAt.slice(0, 10)],
            ['POLICY', (w) => w.policyName],
            ['RULE', (w) => w.ruleId],
            ['FOR', (w) => printable(w.target)],
          ],
          content.expiringWaivers,
        ));
  return (
    fields +
    findingTable('Top regressions', content.topRegressions) +
    findingTable('Oldest open findings', content.oldestOpen) +
    findingTable('Accepted risks expiring within 14 days', content.expiringAcceptances) +
    waivers
  );
}
