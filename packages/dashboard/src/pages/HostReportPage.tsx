import { useState } from 'react';
import { getHost, listLicenseKeys, type HostDetail } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatTime } from '../format.js';
import { When } from '../components/When.js';
import { loadNewestReport } from '../newest-report.js';
import { hrefOf, type PageProps } from '../route.js';
import { useLoad } from '../use-load.js';
import { Findings } from '../components/Findings.js';
import { HostCompliance } from '../components/HostCompliance.js';
import { Labels } from '../components/Labels.js';
import { Status } from '../components/Status.js';
import { Table, type Column } from '../components/Table.js';
import { TrendChart } from '../components/TrendChart.js';
import { VulnerablePackages } from '../components/VulnerablePackages.js';

/** Reports the trend chart covers. */
const TREND_REPORTS = 100;
/** Reports the trend table lists (the newest), so that it fits a printed page. */
const TREND_ROWS = 12;

/**
 * One host's report for an auditor, made to be printed (or saved as PDF by the browser's print): who the host is,
 * when the report was printed, its hardening index and trend, its compliance per rule, the warnings and suggestions
 * and vulnerable packages of its newest report. The print stylesheet drops the navigation and the buttons; the key is
 * shown by its label only, and everything the host wrote as text.
 */
export function HostReportPage({ client, route: { id }, onUnauthorized }: PageProps<'host-report'>) {
  const [printedAt] = useState(() => new Date().toISOString());
  const [loaded] = useLoad(
    async () => {
      const host = await data(getHost({ client, path: { hostRecordId: id }, query: { historyLimit: TREND_REPORTS } }));
      const [{ latest, vulnerable }, keys] = await Promise.all([loadNewestReport(client, host), data(listLicenseKeys({ client }))]);
      return { host, latest, vulnerable, key: keys.items.find((key) => key.id === host.keyId) };
    },
    id,
    onUnauthorized,
  );
  if (loaded.state !== 'ready') return <Status loaded={loaded} />;
  const { host, latest, vulnerable, key } = loaded.value;
  const summary = latest?.summary;
  return (
    <article className="host-report" aria-labelledby="report-title">
      <p className="actions screen-only">
        <a href={hrefOf({ page: 'host', id: host.id })}>← Back to the host</a>
        <button type="button" onClick={() => window.print()}>
          Print report
        </button>
      </p>
      <h1 id="report-title" tabIndex={-1}>
        Host report: {host.hostname ?? '(no host name)'}
      </h1>
      <HostFacts host={host} keyName={key ? `${key.label ?? '(no label)'} (${key.state})` : '(unknown key)'} printedAt={printedAt} />
      <HardeningTrend host={host} />
      <HostCompliance client={client} hostRecordId={host.id} onUnauthorized={onUnauthorized} />
      {summary ? (
        <>
          <Findings title="Warnings" kind="warning" findings={summary.warnings} />
          <Findings title="Suggestions" kind="suggestion" findings={summary.suggestions} />
          {vulnerable && <VulnerablePackages names={vulnerable} />}
        </>
      ) : (
        <p>{latest ? 'The newest report is not a Lynis report, so it has no findings to show.' : 'The host has no report yet.'}</p>
      )}
    </article>
  );
}

/** Who the host is, its key (by label only), its reports, and when this was printed. */
function HostFacts({ host, keyName, printedAt }: { host: HostDetail; keyName: string; printedAt: string }) {
  return (
    <dl className="facts">
      <dt>Host name</dt>
      <dd>
        {host.hostname ?? '—'}
        {host.hostnameAlias && ` (alias ${host.hostnameAlias})`}
      </dd>
      {host.customerName && (
        <>
          <dt>Customer</dt>
          <dd>{host.customerName}</dd>
        </>
      )}
      <dt>Host id</dt>
      <dd className="mono">{host.hostId}</dd>
      <dt>Operating system</dt>
      <dd>{host.os ?? '—'}</dd>
      <dt>Lynis version</dt>
      <dd>{host.lynisVersion ?? '—'}</dd>
      <dt>Groups and tags</dt>
      <dd>
        <Labels host={host} />
      </dd>
      <dt>License key</dt>
      <dd>{keyName}</dd>
      <dt>Reports</dt>
      <dd>
        {host.reportCount}, from {formatTime(host.firstSeen)} to {formatTime(host.lastSeen)}
      </dd>
      <dt>Printed</dt>
      <dd>{formatTime(printedAt)}</dd>
    </dl>
  );
}

/** The host's hardening index: the chart of its reports with one, and a table of the newest. */
function HardeningTrend({ host }: { host: HostDetail }) {
  const indexed = host.hardeningHistory.filter((entry) => entry.hardeningIndex !== null);
  const trend = indexed.map((entry) => ({ at: entry.receivedAt, value: entry.hardeningIndex! })).reverse();
  return (
    <section className="keep-together" aria-labelledby="trend-title">
      <h2 id="trend-title">Hardening index: {host.latestHardeningIndex ?? '—'}</h2>
      {trend.length === 0 ? (
        <p>No report with a hardening index yet.</p>
      ) : (
        <>
          <TrendChart points={trend} label="Hardening index" />
          <Table
            className="trend-table"
            caption={`${indexed.length > TREND_ROWS ? `The newest ${TREND_ROWS} of ${indexed.length} reports with an index` : 'Every report with an index'}, newest first`}
            columns={TREND_COLUMNS}
            rows={indexed.slice(0, TREND_ROWS)}
            rowKey={(entry) => entry.reportId}
          />
        </>
      )}
    </section>
  );
}

const TREND_COLUMNS: Column<HostDetail['hardeningHistory'][number]>[] = [
  { header: 'Received', cell: (entry) => <When time={entry.receivedAt} /> },
  { header: 'Hardening index', className: 'number', cell: (entry) => entry.hardeningIndex },
];
