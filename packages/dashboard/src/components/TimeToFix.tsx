import uPlot from 'uplot';
import { getTimeToFix, type Client, type FixTimesBy, type TimeToFix, type TrackedFinding } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatDuration } from '../format.js';
import { hrefOf } from '../route.js';
import { useLoad } from '../use-load.js';
import { TRACKED_COLUMNS } from './FindingState.js';
import { Card, ChartData, Panel } from './OverviewParts.js';
import { COLOURS, countRange, Plot } from './Plot.js';
import { Status } from './Status.js';
import { Table, type Column } from './Table.js';

/** Hours as people write a duration (`3 h 5 min`, `8 d 2 h`); a dash when nothing was resolved. */
export const formatHours = (hours: number | null) => (hours === null ? '—' : formatDuration(hours * 3600));

const KIND_NAMES: Record<string, string> = { warning: 'Warnings', suggestion: 'Suggestions' };

/** How long findings take to be fixed, over the server's default window (the last 90 days): loads on its own. */
export function TimeToFixSection({ client, onUnauthorized }: { client: Client; onUnauthorized(): void }) {
  const [loaded] = useLoad(() => data(getTimeToFix({ client })), 'time-to-fix', onUnauthorized);
  return (
    <Panel id="time-to-fix" title="Time to fix, last 90 days">
      <Status loaded={loaded} />
      {loaded.state === 'ready' && <TimeToFixFigures figures={loaded.value} />}
    </Panel>
  );
}

/** The figures: resolutions with their mean and median, last week's changes, median per kind and test id, the oldest open. */
export function TimeToFixFigures({ figures }: { figures: TimeToFix }) {
  const { overall, lastWeek } = figures;
  return (
    <>
      <ul className="cards" aria-label="Time to fix">
        <Card label="Findings resolved" value={overall.resolved.toLocaleString('en')} />
        <Card label="Mean time to fix" value={formatHours(overall.meanHours)} />
        <Card label="Median time to fix" value={formatHours(overall.medianHours)} />
        <Card
          label="Last 7 days"
          value={`${lastWeek.opened.toLocaleString('en')} opened`}
          more={`${lastWeek.resolved.toLocaleString('en')} resolved, ${lastWeek.regressed.toLocaleString('en')} regressed`}
          bad={lastWeek.opened + lastWeek.regressed > lastWeek.resolved}
        />
      </ul>
      <div className="grid-2">
        <section aria-labelledby="fix-by-kind-title">
          <h3 id="fix-by-kind-title">Median time to fix by kind</h3>
          {figures.byKind.length === 0 ? <p>No finding was resolved in the window.</p> : <MedianByKindChart rows={figures.byKind} />}
          <ChartData
            caption="Time to fix by kind"
            headings={['Kind', 'Resolved', 'Mean', 'Median']}
            rows={figures.byKind.map((row) => [KIND_NAMES[row.key] ?? row.key, row.resolved, formatHours(row.meanHours), formatHours(row.medianHours)])}
          />
        </section>
        <section aria-labelledby="fix-by-test-title">
          <h3 id="fix-by-test-title">Tests resolved most often</h3>
          <Table empty={<p>No finding was resolved.</p>} columns={BY_TEST_COLUMNS} rows={figures.byTestId.slice(0, 8)} rowKey={(row) => row.key} />
        </section>
      </div>
      <h3 id="oldest-open-title">Oldest open findings</h3>
      <Table
        scroll
        caption="Open, acknowledged and regressed, first seen longest ago"
        empty={<p>No finding is open.</p>}
        columns={OLDEST_COLUMNS}
        rows={figures.oldestOpen}
        rowKey={(finding) => finding.id}
      />
    </>
  );
}

// Test ids come from hosts: shown in a table, as text, never given to the chart.
const BY_TEST_COLUMNS: Column<FixTimesBy>[] = [
  { header: 'Test', cellClassName: 'mono nowrap', cell: (row) => row.key },
  { header: 'Resolved', className: 'number', cell: (row) => row.resolved },
  { header: 'Median', className: 'number', cellClassName: 'number nowrap', cell: (row) => formatHours(row.medianHours) },
];

const OLDEST_COLUMNS: Column<TrackedFinding>[] = [
  TRACKED_COLUMNS.test,
  {
    header: 'Host',
    cellClassName: 'words',
    cell: (finding) => <a href={hrefOf({ page: 'host', id: finding.hostRecordId })}>{finding.hostname ?? finding.hostRecordId}</a>,
  },
  TRACKED_COLUMNS.kind,
  TRACKED_COLUMNS.state,
  TRACKED_COLUMNS.firstSeen,
];

/** Median hours to fix of each kind (at least one), one bar each: the kinds are the contract's two words, never a host's text. */
function MedianByKindChart({ rows }: { rows: FixTimesBy[] }) {
  const labels = rows.map((row) => KIND_NAMES[row.key] ?? 'Other');
  return (
    <Plot
      label={`Median time to fix by kind: ${rows.map((row, i) => `${labels[i]}: ${formatHours(row.medianHours)}`).join(', ')}`}
      height={180}
      data={[rows.map((_, i) => i), rows.map((row) => row.medianHours)]}
      build={(width, height) => ({
        width,
        height,
        scales: { x: { time: false, range: [-0.5, Math.max(rows.length, 1) - 0.5] }, y: { range: countRange } },
        axes: [
          { splits: () => rows.map((_, i) => i), values: (_u, splits) => splits.map((i) => labels[i] ?? ''), grid: { show: false } },
          { label: 'Median hours' },
        ],
        series: [
          {},
          { label: 'Median hours', fill: COLOURS.accentFill, stroke: COLOURS.accent, paths: uPlot.paths.bars!({ size: [0.5, 80] }), points: { show: false } },
        ],
        legend: { show: false },
        cursor: { show: false },
      })}
    />
  );
}
