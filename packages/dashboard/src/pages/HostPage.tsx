import type { ReactNode } from 'react';
import {
  acceptHostIdentity,
  exportHostHistory,
  getHost,
  listLicenseKeys,
  listRejections,
  listReports,
  type Client,
  type Host,
  type LicenseKeyInfo,
  type RejectionPage,
  type ReportDetail,
  type ReportPage,
} from '@org/audit-client/sdk';
import { useCan } from '../permissions.js';
import { data } from '../api.js';
import { formatBytes, formatTime } from '../format.js';
import { loadNewestReport } from '../newest-report.js';
import { hostsRoute, hrefOf, type PageProps } from '../route.js';
import { useChange } from '../use-change.js';
import { useLoad } from '../use-load.js';
import { ExportButtons } from '../components/ExportButtons.js';
import { Findings } from '../components/Findings.js';
import { HostLifecycle, type HostLifecycleProps } from '../components/HostLifecycle.js';
import { DecommissionedNotice, HostStateSummary } from '../components/HostState.js';
import { HostCompliance } from '../components/HostCompliance.js';
import { Labels } from '../components/Labels.js';
import { keyColumn, REFUSAL_COLUMNS, refusalKey } from '../components/RefusalColumns.js';
import { Status } from '../components/Status.js';
import { Table, type Column } from '../components/Table.js';
import { When } from '../components/When.js';
import { useDocumentTitle } from '../page-title.js';
import { TrendChart } from '../components/TrendChart.js';
import { TrackedFindings } from '../components/TrackedFindings.js';
import { VulnerablePackages } from '../components/VulnerablePackages.js';

/** Reports listed under a host (the newest); the hardening chart covers as many. */
const REPORTS_SHOWN = 100;
/** Refusals of the host's id listed on its page; the Refused uploads page has them all. */
const REFUSALS_SHOWN = 20;

/**
 * One host, in parts that the "On this page" links at the top reach: its summary (who it is, its hardening trend),
 * its compliance, its findings with their lifecycle (or, before any is tracked, every warning and suggestion of its
 * newest report) and its vulnerable packages, its reports with what changed between them, the uploads of its host id
 * the server refused, and its newest report's raw text. Report text is shown as text only.
 */
export function HostPage({ client, route, onUnauthorized }: PageProps<'host'>) {
  const { id } = route;
  const [loaded, reload] = useLoad(
    async () => {
      const host = await data(getHost({ client, path: { hostRecordId: id }, query: { historyLimit: REPORTS_SHOWN } }));
      const [{ latest, vulnerable }, reports, refusals, keys] = await Promise.all([
        loadNewestReport(client, host),
        data(listReports({ client, query: { hostRecordId: host.id, limit: REPORTS_SHOWN } })),
        data(listRejections({ client, query: { hostId: host.hostId, limit: REFUSALS_SHOWN } })),
        data(listLicenseKeys({ client })),
      ]);
      return { host, latest, vulnerable, reports, refusals, keys: new Map(keys.items.map((key) => [key.id, key])) };
    },
    id,
    onUnauthorized,
  );
  const { problem, change } = useChange(reload, onUnauthorized);
  const mayAcceptIdentity = useCan('acceptHostIdentity');
  useDocumentTitle(route, loaded.state === 'ready' ? (loaded.value.host.hostname ?? undefined) : undefined);
  if (loaded.state !== 'ready') return <Status loaded={loaded} />;
  const { host, latest, vulnerable, reports, refusals, keys } = loaded.value;
  const trend = host.hardeningHistory
    .filter((entry) => entry.hardeningIndex !== null)
    .map((entry) => ({ at: entry.receivedAt, value: entry.hardeningIndex! }))
    .reverse();
  const summary = latest?.summary;
  return (
    <article aria-labelledby="host-title">
      <p>
        <a href={hrefOf(hostsRoute())}>← All hosts</a>
      </p>
      <HostHeading client={client} host={host} reload={reload} onUnauthorized={onUnauthorized} />
      <OnThisPage />
      <PageSection part="summary">
        {host.identityChange && (
          <IdentityChange
            change={host.identityChange}
            problem={problem}
            onAccept={
              mayAcceptIdentity
                ? (hostId2) => void change(async () => void (await data(acceptHostIdentity({ client, path: { hostRecordId: host.id }, body: { hostId2 } }))))
                : undefined
            }
          />
        )}
        <HostFacts host={host} keys={keys} />
        <h3>Hardening index over time</h3>
        {trend.length > 0 ? <TrendChart points={trend} label="Hardening index" /> : <p>No report with a hardening index yet.</p>}
      </PageSection>
      {/* The compliance panel is a named section with its own heading already: this one only gives the link its target. */}
      <section id={sectionId('compliance')} tabIndex={-1}>
        <HostCompliance client={client} hostRecordId={host.id} onUnauthorized={onUnauthorized} />
      </section>
      <PageSection part="findings">
        <HostFindings client={client} host={host} latest={latest} onUnauthorized={onUnauthorized} />
        {vulnerable && summary && <VulnerablePackages names={vulnerable} level={3} />}
      </PageSection>
      <PageSection part="reports">
        <HostReports client={client} host={host} reports={reports} onUnauthorized={onUnauthorized} />
      </PageSection>
      <PageSection part="refused">
        <HostRefusals host={host} refusals={refusals} keys={keys} />
      </PageSection>
      <PageSection part="raw">
        <RawReport host={host} latest={latest} />
      </PageSection>
    </article>
  );
}

/**
 * A host's findings with their lifecycle; before any is tracked, every warning and suggestion of its newest report
 * (or why it has none).
 */
function HostFindings({ client, host, latest, onUnauthorized }: { client: Client; host: Host; latest: ReportDetail | undefined; onUnauthorized(): void }) {
  const summary = latest?.summary;
  return (
    <TrackedFindings
      client={client}
      hostRecordId={host.id}
      summary={summary}
      onUnauthorized={onUnauthorized}
      untracked={
        <>
          {summary && (
            <>
              <Findings title="Warnings" kind="warning" findings={summary.warnings} level={3} />
              <Findings title="Suggestions" kind="suggestion" findings={summary.suggestions} level={3} />
            </>
          )}
          {latest && !summary && <p>The newest report is not a Lynis report, so it has no findings to show.</p>}
          {!latest && <p>No report yet.</p>}
        </>
      }
    />
  );
}

/** The host's name and lifecycle state, what being decommissioned means when it is, and what may be done with its life. */
function HostHeading(props: HostLifecycleProps) {
  const { host } = props;
  return (
    <>
      <div className="title-row host-title-row">
        <h1 id="host-title" tabIndex={-1}>
          {host.hostname ?? '(no host name)'}
        </h1>
        <HostStateSummary host={host} />
      </div>
      {host.state === 'decommissioned' && <DecommissionedNotice />}
      <HostLifecycle {...props} />
    </>
  );
}

/** The parts of a host's page, in page order, with their headings: the "On this page" links go to them. */
const PAGE_PARTS = {
  summary: 'Summary',
  compliance: 'Compliance',
  findings: 'Findings',
  reports: 'Reports and changes',
  refused: 'Refused uploads',
  raw: 'Raw text',
} as const;
type PagePart = keyof typeof PAGE_PARTS;

const sectionId = (part: PagePart) => `host-${part}`;

/**
 * Links to the page's parts, so that its reports are a click away however many findings come before them. The
 * fragment is the route: a link moves focus (and the view) to its part rather than going to its `#id`.
 */
function OnThisPage() {
  return (
    <nav className="on-this-page" aria-label="On this page">
      <span className="muted">On this page:</span>
      <ul>
        {(Object.keys(PAGE_PARTS) as PagePart[]).map((part) => (
          <li key={part}>
            <a
              href={`#${sectionId(part)}`}
              onClick={(event) => {
                event.preventDefault();
                showPart(sectionId(part));
              }}
            >
              {PAGE_PARTS[part]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Scrolls a part's start to the top of the window (focus alone leaves a tall part half in view) and moves focus to it. */
function showPart(id: string): void {
  const part = document.getElementById(id);
  part?.scrollIntoView({ block: 'start' });
  part?.focus({ preventScroll: true });
}

/** One part of the page: a section with its id and heading, focusable so that the links above can move to it. */
function PageSection({ part, children }: { part: PagePart; children: ReactNode }) {
  return (
    <section id={sectionId(part)} aria-labelledby={`${sectionId(part)}-title`} tabIndex={-1}>
      <h2 id={`${sectionId(part)}-title`}>{PAGE_PARTS[part]}</h2>
      {children}
    </section>
  );
}

/** The newest report's raw text and size, and the printable report of the host. */
function RawReport({ host, latest }: { host: Host; latest: ReportDetail | undefined }) {
  if (!latest) return <p>No report yet.</p>;
  return (
    <>
      <p className="actions">
        <a href={hrefOf({ page: 'raw-report', id: latest.id })}>Raw text of the newest report</a>
        <a href={hrefOf({ page: 'host-report', id: host.id })}>Printable report</a>
      </p>
      <p className="hint">
        Newest report: received {formatTime(latest.receivedAt)}, {formatBytes(latest.size)}, SHA-256 <span className="mono">{latest.sha256.slice(0, 16)}…</span>
      </p>
    </>
  );
}

/** A host's identity, operating system, key, and counts of its newest report. */
function HostFacts({ host, keys }: { host: Host; keys: Map<string, LicenseKeyInfo> }) {
  const key = keys.get(host.keyId);
  return (
    <dl className="facts">
      {host.hostnameAlias && (
        <>
          <dt>Alias</dt>
          <dd>{host.hostnameAlias}</dd>
        </>
      )}
      {host.customerName && (
        <>
          <dt>Customer</dt>
          <dd>{host.customerName}</dd>
        </>
      )}
      <dt>Groups and tags</dt>
      <dd>
        <Labels host={host} />
      </dd>
      <dt>Host id</dt>
      <dd className="mono">{host.hostId}</dd>
      <dt>Host id 2</dt>
      <dd className="mono">{host.hostId2 ?? '—'}</dd>
      <dt>Operating system</dt>
      <dd>
        {host.os ? (
          <a className="quiet" href={hrefOf(hostsRoute({ os: host.os }))}>
            {host.os}
          </a>
        ) : (
          '—'
        )}
      </dd>
      <dt>Lynis</dt>
      <dd>{host.lynisVersion ?? '—'}</dd>
      <dt>License key</dt>
      <dd>{key ? `${key.label ?? '(no label)'} · ${key.prefix}… (${key.state})` : host.keyId}</dd>
      <dt>Hardening index</dt>
      <dd>{host.latestHardeningIndex ?? '—'}</dd>
      <dt>Newest report</dt>
      <dd>
        {host.latestWarningCount === null
          ? 'not a Lynis report'
          : `${plural(host.latestWarningCount, 'warning')}, ${plural(host.latestSuggestionCount ?? 0, 'suggestion')}`}
      </dd>
      <dt>Reports</dt>
      <dd>{host.reportCount}</dd>
      <dt>First and last seen</dt>
      <dd>
        {formatTime(host.firstSeen)} – {formatTime(host.lastSeen)}
      </dd>
    </dl>
  );
}

/** A host's reports, newest first, each with a link to its raw text and to what changed since the one before. */
function HostReports({ client, host, reports, onUnauthorized }: { client: Client; host: Host; reports: ReportPage; onUnauthorized(): void }) {
  return (
    <>
      <ExportButtons
        label="Every report's hardening index and findings counts"
        name={`host-${host.id}-history`}
        request={(format) => exportHostHistory({ client, path: { hostRecordId: host.id }, query: { format }, parseAs: 'stream' })}
        onUnauthorized={onUnauthorized}
      />
      <Table
        scroll
        caption={`${reports.total > reports.items.length ? `The newest ${reports.items.length} of ${reports.total}` : plural(reports.total, 'report')}; each compared with the one before it, or with any other of the host's`}
        columns={REPORT_COLUMNS}
        rows={reports.items}
        rowKey={(report) => report.id}
      />
    </>
  );
}

const REPORT_COLUMNS: Column<ReportPage['items'][number]>[] = [
  { header: 'Received', cell: (report) => <When time={report.receivedAt} /> },
  { header: 'Hardening index', className: 'number', cell: (report) => report.hardeningIndex ?? '—' },
  { header: 'Warnings', className: 'number', cell: (report) => report.warningCount ?? '—' },
  { header: 'Suggestions', className: 'number', cell: (report) => report.suggestionCount ?? '—' },
  { header: 'Size', className: 'number optional', cellClassName: 'number nowrap optional', cell: (report) => formatBytes(report.size) },
  { header: 'Report', cell: (report) => <a href={hrefOf({ page: 'raw-report', id: report.id })}>Raw report</a> },
  { header: 'Changes', cell: (report) => <a href={hrefOf({ page: 'report-diff', id: report.id })}>Changes since the report before</a> },
];

/** The uploads and license checks the server refused for a host's id, newest first, and a link to all of them. */
function HostRefusals({ host, refusals, keys }: { host: Host; refusals: RejectionPage; keys: Map<string, LicenseKeyInfo> }) {
  const { day, request, reason, count, lastAt, addresses } = REFUSAL_COLUMNS;
  return (
    <>
      <p className="hint">Uploads and license checks the server refused for this host id (under any key): while they go on, the host is losing reports.</p>
      <Table
        scroll
        empty={<p>None refused.</p>}
        caption={`${refusals.total > refusals.items.length ? `The newest ${refusals.items.length} of ${refusals.total}` : plural(refusals.total, 'refusal')}, per day (UTC)`}
        columns={[day, request, reason, count, lastAt, keyColumn(keys, 'words'), addresses]}
        rows={refusals.items}
        rowKey={refusalKey}
      />
      {refusals.total > 0 && (
        <p>
          <a href={hrefOf({ page: 'refused', hostId: host.hostId, offset: 0 })}>Every refusal of this host id</a>
        </p>
      )}
    </>
  );
}

/**
 * A host's flagged identity change: the two hostid2 values, when, and the one click that accepts the new one (a
 * reinstalled host; offered only with `onAccept`, to a role that may); until then, on a strict server, its reports
 * with the new one are refused.
 */
function IdentityChange({
  change,
  problem,
  onAccept,
}: {
  change: NonNullable<Host['identityChange']>;
  problem?: string;
  onAccept?: (hostId2: string | null) => void;
}) {
  return (
    <section className="identity-change" aria-labelledby="identity-title">
      <h3 id="identity-title">Identity changed</h3>
      <p>
        A report for this host id carried another hostid2 on {formatTime(change.at)}: <span className="mono">{change.previousHostId2 ?? '(none)'}</span> →{' '}
        <span className="mono">{change.hostId2 ?? '(none)'}</span>.{' '}
        {change.refused ? 'The server refuses its reports until you accept the new identity.' : 'Its reports were stored.'}
      </p>
      <p className="hint">
        Anyone holding the license key can report as any host under it. Accept only if the host was reinstalled or its SSH host key changed; otherwise another
        machine may be reporting as this one.
      </p>
      {onAccept && (
        <button type="button" onClick={() => onAccept(change.hostId2)}>
          Accept new identity
        </button>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
