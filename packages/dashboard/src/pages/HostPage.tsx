import { getHost, getReport, type Client, type Finding } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatBytes, formatTime } from '../format.js';
import { hrefOf } from '../route.js';
import { useLoad } from '../use-load.js';
import { Status } from '../components/Status.js';
import { TrendChart } from '../components/TrendChart.js';

/** One host: its hardening trend, what its newest report says, and its reports. Report text is shown as text only. */
export function HostPage({ client, id, onUnauthorized }: { client: Client; id: string; onUnauthorized(): void }) {
  const [loaded] = useLoad(
    async () => {
      const host = await data(getHost({ client, path: { hostRecordId: id }, query: { historyLimit: 100 } }));
      const latest = host.latestReportId ? await data(getReport({ client, path: { reportId: host.latestReportId } })) : undefined;
      return { host, latest };
    },
    id,
    onUnauthorized,
  );
  if (loaded.state !== 'ready') return <Status loaded={loaded} />;
  const { host, latest } = loaded.value;
  const trend = host.hardeningHistory
    .filter((entry) => entry.hardeningIndex !== null)
    .map((entry) => ({ at: entry.receivedAt, value: entry.hardeningIndex! }))
    .reverse();
  const summary = latest?.summary;
  return (
    <article aria-labelledby="host-title">
      <p><a href={hrefOf({ page: 'hosts', offset: 0 })}>← All hosts</a></p>
      <h1 id="host-title">{host.hostname ?? '(no host name)'}</h1>
      <dl className="facts">
        <dt>Host id</dt><dd className="mono">{host.hostId}</dd>
        <dt>Operating system</dt><dd>{host.os ?? '—'}</dd>
        <dt>Lynis</dt><dd>{host.lynisVersion ?? '—'}</dd>
        <dt>Hardening index</dt><dd>{host.latestHardeningIndex ?? '—'}</dd>
        <dt>Reports</dt><dd>{host.reportCount}</dd>
        <dt>First and last seen</dt><dd>{formatTime(host.firstSeen)} – {formatTime(host.lastSeen)}</dd>
      </dl>
      <section aria-labelledby="trend-title">
        <h2 id="trend-title">Hardening index over time</h2>
        {trend.length > 0 ? <TrendChart points={trend} label="Hardening index" /> : <p>No report with a hardening index yet.</p>}
      </section>
      {summary && (
        <>
          <Findings title="Warnings" findings={summary.warnings} />
          <Findings title="Suggestions" findings={summary.suggestions} />
        </>
      )}
      {latest && !summary && <p>The newest report is not a Lynis report, so it has no findings to show.</p>}
      <section aria-labelledby="reports-title">
        <h2 id="reports-title">Reports</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col" className="number">Hardening index</th>
              <th scope="col">Report</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {host.hardeningHistory.map((entry) => (
              <tr key={entry.reportId}>
                <td>{formatTime(entry.receivedAt)}</td>
                <td className="number">{entry.hardeningIndex ?? '—'}</td>
                <td><a href={hrefOf({ page: 'raw-report', id: entry.reportId })}>Raw report</a></td>
                <td><a href={hrefOf({ page: 'report-diff', id: entry.reportId })}>Changes since the report before</a></td>
              </tr>
            ))}
          </tbody>
        </table>
        {latest && <p className="hint">Newest report: {formatBytes(latest.size)}, SHA-256 <span className="mono">{latest.sha256.slice(0, 16)}…</span></p>}
      </section>
    </article>
  );
}

function Findings({ title, findings }: { title: string; findings: Finding[] }) {
  const id = `${title.toLowerCase()}-title`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title} ({findings.length})</h2>
      {findings.length === 0 ? (
        <p>None in the newest report.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Finding</th>
              <th scope="col">Details</th>
              <th scope="col">Solution</th>
            </tr>
          </thead>
          <tbody>
            {findings.map((finding, index) => (
              <tr key={`${finding.testId}-${index}`}>
                <td className="mono nowrap">{finding.testId}</td>
                <td>{finding.text}</td>
                <td>{finding.details ?? '—'}</td>
                <td>{finding.solution ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
