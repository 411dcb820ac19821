// `audit-client findings time-to-fix`: how long findings take to be fixed over a window, overall and per kind, test
// id, group and customer; the last week's changes; and the oldest open findings.
import { Command, Option } from 'commander';
import type { FixTimesBy, TimeToFix } from './generated/types.gen.js';
import { admin, adminCommand, show, type OutputFlags } from './admin-command-base.js';
import { formatFields, formatTable, formatTime } from './admin-output.js';
import { dateTime } from './cli-arguments.js';
import { formatTrackedFindings } from './finding-commands.js';

/** Adds `time-to-fix` to `findings`. */
export function addTimeToFixCommand(findings: Command): void {
  adminCommand(findings, 'time-to-fix', 'show how long findings take to be fixed: mean and median per kind, test, group and customer, and the oldest open')
    .addOption(new Option('--from <date>', 'from this date (midnight UTC) or ISO 8601 date and time (default: 90 days before --to)').argParser(dateTime))
    .addOption(new Option('--to <date>', 'until this date or date and time, not included (default: now)').argParser(dateTime))
    .action(
      admin<[OutputFlags & { from?: string; to?: string }]>(async (client, { json, from, to }) =>
        show({ json }, await client.getTimeToFix({ from, to }), formatTimeToFix),
      ),
    );
}

/** Hours with one decimal (`16.3 h`); `-` when nothing was resolved. */
export const formatHours = (hours: number | null): string | null => (hours === null ? null : `${Math.round(hours * 10) / 10} h`);

/** The figures as text: the window and overall figures, a table of the groupings, and the oldest open findings. */
export function formatTimeToFix(figures: TimeToFix): string {
  const { overall, lastWeek } = figures;
  const summary = formatFields([
    ['Window', `${formatTime(figures.from)} to ${formatTime(figures.to)}`],
    ['Resolved', overall.resolved],
    ['Mean time to fix', formatHours(overall.meanHours)],
    ['Median time to fix', formatHours(overall.medianHours)],
    ['Last 7 days', `${lastWeek.opened} opened, ${lastWeek.resolved} resolved, ${lastWeek.regressed} regressed`],
  ]);
  const rows: Array<FixTimesBy & { by: string }> = [
    ...figures.byKind.map((row) => ({ by: 'kind', ...row })),
    ...figures.byTestId.map((row) => ({ by: 'test', ...row })),
    ...figures.byGroup.map((row) => ({ by: 'group', ...row })),
    ...figures.byCustomer.map((row) => ({ by: 'customer', ...row })),
  ];
  const groupings =
    rows.length === 0
      ? ''
      : `\n${formatTable<FixTimesBy & { by: string }>(
          [
            ['BY', (row) => row.by],
            ['KEY', (row) => row.key],
            ['RESOLVED', (row) => row.resolved],
            ['MEAN', (row) => formatHours(row.meanHours)],
            ['MEDIAN', (row) => formatHours(row.medianHours)],
          ],
          rows,
        )}`;
  const oldest = figures.oldestOpen.length === 0 ? '\nNo open findings.\n' : `\nOldest open findings:\n${formatTrackedFindings(figures.oldestOpen)}`;
  return summary + groupings + oldest;
}
