// `audit-client compliance history` and `audit-client export compliance-history`: the fleet's (or one policy's,
// group's or customer's) compliance and open findings per day or week, as a table, or as CSV or JSON Lines.
import { Command, Option } from 'commander';
import type { AdminClient, ComplianceHistoryQuery } from './admin-client.js';
import { admin, adminCommand, show, type OutputFlags } from './admin-command-base.js';
import { formatFields, formatTable } from './admin-output.js';
import { day, recordId } from './cli-arguments.js';
import { UsageError } from './cli-settings.js';
import type { ExportFlags } from './finding-export-command.js';
import type { ComplianceHistory, CompliancePoint, PolicyHistory } from './generated/types.gen.js';

/** What `export` names with `compliance-history`. */
export const COMPLIANCE_HISTORY_EXPORT = 'compliance-history';

/** The history's flags, as commander gives them. */
export interface HistoryFlags {
  from?: string;
  to?: string;
  interval?: 'day' | 'week';
  policy?: string;
  group?: string;
  customer?: string;
}

/** The flags only the history takes (`--group` is also a host filter of `export`). */
const HISTORY_ONLY_FLAGS = ['from', 'to', 'interval', 'policy', 'customer'] as const;

/**
 * Adds the history's flags to `command`. On `export`, which has `--group` among the host filters already, `forExport`
 * leaves it out and says which export the others are for.
 */
export function addHistoryOptions(command: Command, { forExport = false } = {}): Command {
  const of = forExport ? 'compliance-history: ' : '';
  command
    .addOption(new Option('--from <day>', `${of}the first day (UTC, YYYY-MM-DD; default 30 days before --to)`).argParser(day))
    .addOption(new Option('--to <day>', `${of}the last day (UTC, YYYY-MM-DD; default today)`).argParser(day))
    .addOption(new Option('--interval <interval>', `${of}a point per day (default) or per week (weeks start on Monday)`).choices(['day', 'week']))
    .addOption(new Option('--policy <id>', `${of}only this policy's compliance (its id, from policies list)`).argParser(recordId))
    .option('--customer <name>', `${of}only the hosts of this customer (system-customer-name=; case-insensitive)`);
  if (forExport) return command;
  return command.option('--group <name>', 'only the hosts of this system group (as their latest report then listed it; case-insensitive)');
}

/** The history's query of the flags. */
export const historyQuery = ({ from, to, interval, policy, group, customer }: HistoryFlags): ComplianceHistoryQuery => ({
  from,
  to,
  interval,
  policyId: policy,
  group,
  customer,
});

/** Refuses the history's own flags on the other exports, which would ignore them. */
export function refuseHistoryFlags(flags: HistoryFlags): void {
  const given = HISTORY_ONLY_FLAGS.filter((name) => flags[name] !== undefined);
  if (given.length > 0) throw new UsageError(`${given.map((name) => `--${name}`).join(', ')} filter export compliance-history only`);
}

/** Adds `history` to `compliance`. */
export function addComplianceHistoryCommand(compliance: Command): void {
  addHistoryOptions(
    adminCommand(
      compliance,
      'history',
      "show the fleet's compliance and open findings per day or week: hosts compliant, non-compliant, accepted and unknown, and open warnings and suggestions",
    ),
  ).action(
    admin<[OutputFlags & HistoryFlags]>(async (client, options) =>
      show(options, await client.getComplianceHistory(historyQuery(options)), formatComplianceHistory),
    ),
  );
}

/** `export compliance-history`: the history's flags (`--group` among them), none of the host or finding filters; csv or jsonl. */
export async function complianceHistoryExport(client: AdminClient, hostId: string | undefined, flags: ExportFlags & HistoryFlags): Promise<string> {
  const { from, to, interval, policy, group, customer, format, output: _output, ...otherFlags } = flags;
  if (hostId !== undefined) throw new UsageError('export compliance-history takes no host id');
  if (Object.values(otherFlags).some((value) => value !== undefined))
    throw new UsageError('export compliance-history takes --from, --to, --interval, --policy, --group and --customer, not the host or finding filters');
  if (format === 'json') throw new UsageError('export compliance-history writes csv or jsonl');
  return client.exportComplianceHistory({ ...historyQuery({ from, to, interval, policy, group, customer }), format });
}

/** The window and what it covers, a row per point, and each policy's latest point. */
export function formatComplianceHistory(history: ComplianceHistory): string {
  const scope = [
    history.policyId && `policy ${history.policies.find((policy) => policy.policyId === history.policyId)?.name ?? history.policyId}`,
    history.group && `group ${history.group}`,
    history.customer && `customer ${history.customer}`,
  ].filter(Boolean);
  const summary = formatFields([
    ['Window', `${history.from} to ${history.to}, per ${history.interval}`],
    ['Hosts', scope.length > 0 ? scope.join(', ') : 'the fleet, every policy'],
  ]);
  if (history.points.length === 0) return `${summary}\nNo history in the window.\n`;
  const points = formatTable<CompliancePoint>(
    [
      ['DATE', (point) => (point.final ? point.date : `${point.date} (so far)`)],
      ['COMPLIANT', (point) => point.hosts.compliant],
      ['NONCOMPLIANT', (point) => point.hosts.noncompliant],
      ['ACCEPTED', (point) => point.hosts.accepted],
      ['UNKNOWN', (point) => point.hosts.unknown],
      ['%', (point) => formatPercent(point.compliancePercent)],
      ['WARNINGS', (point) => point.openFindings.warning],
      ['SUGGESTIONS', (point) => point.openFindings.suggestion],
    ],
    history.points,
  );
  const latest = history.policies.flatMap((policy) => (policy.points.length > 0 ? [{ policy, point: policy.points.at(-1)! }] : []));
  const policies =
    latest.length === 0
      ? ''
      : `\nPer policy, on ${latest[0]!.point.date}:\n${formatTable<{ policy: PolicyHistory; point: PolicyHistory['points'][number] }>(
          [
            ['POLICY', ({ policy }) => policy.name],
            ['COMPLIANT', ({ point }) => point.hosts.compliant],
            ['NONCOMPLIANT', ({ point }) => point.hosts.noncompliant],
            ['ACCEPTED', ({ point }) => point.hosts.accepted],
            ['UNKNOWN', ({ point }) => point.hosts.unknown],
            ['%', ({ point }) => formatPercent(point.compliancePercent)],
          ],
          latest,
        )}`;
  return `${summary}\n${points}${policies}`;
}

/** A percentage with one decimal at most (`95.8 %`); a dash when no host's status was known. */
const formatPercent = (percent: number | null): string | null => (percent === null ? null : `${Math.round(percent * 10) / 10} %`);
