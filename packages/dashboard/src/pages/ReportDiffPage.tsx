import { getHost, getReport, getReportDiff, type Client, type Finding, type ReportChanges } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatTime } from '../format.js';
import { hrefOf, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { Status } from '../components/Status.js';
import { Table, type Column } from '../components/Table.js';

/** What changed between two reports of a host: by default the report and the one before it; any other on request. */
export function ReportDiffPage({ client, route, onUnauthorized }: { client: Client; route: Extract<Route, { page: 'report-diff' }>; onUnauthorized(): void }) {
  const [loaded] = useLoad(
    async () => {
      const report = await data(getReport({ client, path: { reportId: route.id } }));
      const [diff, host] = await Promise.all([
        data(getReportDiff({ client, path: { reportId: route.id }, query: route.against ? { against: route.against } : {} })),
        data(getHost({ client, path: { hostRecordId: report.hostRecordId }, query: { historyLimit: 1000 } })),
      ]);
      return { report, diff, host };
    },
    hrefOf(route),
    onUnauthorized,
  );
  if (loaded.state !== 'ready') return <Status loaded={loaded} />;
  const { report, diff, host } = loaded.value;
  const receivedAt = new Map(host.hardeningHistory.map((entry) => [entry.reportId, entry.receivedAt]));
  const others = host.hardeningHistory.filter((entry) => entry.reportId !== report.id);
  return (
    <article aria-labelledby="diff-title">
      <p>
        <a href={hrefOf({ page: 'host', id: host.id })}>← {host.hostname ?? 'The host'}</a>
      </p>
      <h1 id="diff-title" tabIndex={-1}>
        Changes between two reports of {host.hostname ?? 'a host'}
      </h1>
      <dl className="facts">
        <dt>Before</dt>
        <dd>{diff.beforeReportId ? formatTime(receivedAt.get(diff.beforeReportId)) : "none: the host's first report"}</dd>
        <dt>After</dt>
        <dd>{formatTime(receivedAt.get(diff.afterReportId))}</dd>
      </dl>
      <form className="filters">
        <label htmlFor="against">Compare with</label>
        <select
          id="against"
          value={route.against ?? ''}
          onChange={(event) => (window.location.hash = hrefOf({ ...route, against: event.target.value || undefined }))}
        >
          <option value="">the report before it</option>
          {others.map((entry) => (
            <option key={entry.reportId} value={entry.reportId}>
              {formatTime(entry.receivedAt)} (index {entry.hardeningIndex ?? '—'})
            </option>
          ))}
        </select>
      </form>
      {diff.changes ? (
        <Changes changes={diff.changes} />
      ) : (
        <p>{diff.beforeReportId ? 'One of the two is not a Lynis report: nothing to compare.' : 'The host sent no report before this one.'}</p>
      )}
    </article>
  );
}

function Changes({ changes }: { changes: ReportChanges }) {
  const { before, after } = changes.hardeningIndex;
  const findings = [
    ...changes.warnings.added.map((finding) => ['Warning added', finding] as const),
    ...changes.warnings.resolved.map((finding) => ['Warning resolved', finding] as const),
    ...changes.suggestions.added.map((finding) => ['Suggestion added', finding] as const),
    ...changes.suggestions.resolved.map((finding) => ['Suggestion resolved', finding] as const),
  ];
  const packages = [
    ...changes.vulnerablePackages.added.map((name) => ['Vulnerable', name, '—'] as const),
    ...changes.vulnerablePackages.resolved.map((name) => ['No longer vulnerable', name, '—'] as const),
    ...changes.packages.added.map((p) => ['Installed', p.name, p.version] as const),
    ...changes.packages.removed.map((p) => ['Removed', p.name, p.version] as const),
    ...changes.packages.changed.map((p) => ['Upgraded or downgraded', p.name, `${p.before} → ${p.after}`] as const),
  ];
  const values = [
    ...changes.values.added.map((v) => ['Added', v.key, '—', v.value] as const),
    ...changes.values.removed.map((v) => ['Removed', v.key, v.value, '—'] as const),
    ...changes.values.changed.map((v) => ['Changed', v.key, v.before, v.after] as const),
  ];
  return (
    <>
      <h2>Hardening index</h2>
      <p className={after !== null && before !== null && after < before ? 'error' : undefined}>
        {before ?? '—'} → {after ?? '—'}
        {before !== null && after !== null && before !== after && ` (${after > before ? '+' : ''}${after - before})`}
      </p>
      <h2>Findings ({findings.length})</h2>
      <Table empty={<p>No finding added or resolved.</p>} columns={FINDING_COLUMNS} rows={findings} rowKey={(_, index) => index} />
      <h2>Packages ({packages.length})</h2>
      <Table empty={<p>No package changed.</p>} columns={changeColumns(['Package', 'Version'])} rows={packages} rowKey={(_, index) => index} />
      <h2>Other values ({values.length})</h2>
      <Table empty={<p>No other value changed.</p>} columns={changeColumns(['Key', 'Before', 'After'], ['mono'])} rows={values} rowKey={(_, index) => index} />
    </>
  );
}

const FINDING_COLUMNS: Column<readonly [string, Finding]>[] = [
  { header: 'Change', cell: ([change]) => change },
  { header: 'Test', cellClassName: 'mono nowrap', cell: ([, finding]) => finding.testId },
  { header: 'Finding', cell: ([, finding]) => finding.text },
  { header: 'Details', cell: ([, finding]) => finding.details ?? '—' },
];

/** Columns of rows of text: the change, then one column per heading (`classes`: the cells' class, by position). */
function changeColumns(headings: string[], classes: string[] = []): Column<readonly string[]>[] {
  return [
    { header: 'Change', cell: (row) => row[0] },
    ...headings.map((header, i) => ({ header, cellClassName: classes[i], cell: (row: readonly string[]) => row[i + 1] })),
  ];
}
