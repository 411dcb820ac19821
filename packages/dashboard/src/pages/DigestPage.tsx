import { getDigest, type CompliancePoint, type DigestContent, type DigestFinding } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { changeText, percentText, periodText, scopeText } from '../digest-text.js';
import { formatTime } from '../format.js';
import { hrefOf, type PageProps } from '../route.js';
import { useLoad } from '../use-load.js';
import { Status } from '../components/Status.js';
import { Table, type Column } from '../components/Table.js';

/**
 * One digest as issued, made to be printed (the print stylesheet drops the navigation and the buttons): compliance
 * now, at the period's start and the change, the period's top regressions, the oldest open findings, and the accepted
 * risks and waivers expiring within 14 days. Its figures are those frozen when it was issued; what hosts wrote is
 * shown as text.
 */
export function DigestPage({ client, route: { id }, onUnauthorized }: PageProps<'digest'>) {
  const [loaded] = useLoad(() => data(getDigest({ client, path: { digestId: id } })), id, onUnauthorized);
  if (loaded.state !== 'ready') return <Status loaded={loaded} />;
  const digest = loaded.value;
  const content = digest.content;
  return (
    <article className="host-report digest" aria-labelledby="digest-title">
      <p className="actions screen-only">
        <a href={hrefOf({ page: 'digests', offset: 0 })}>← All digests</a>
        <button type="button" onClick={() => window.print()}>
          Print digest
        </button>
      </p>
      <h1 id="digest-title" tabIndex={-1}>
        {digest.cadence === 'weekly' ? 'Weekly' : 'Monthly'} digest of {scopeText(digest.scope)}
      </h1>
      <dl className="facts">
        <dt>Period</dt>
        <dd>{periodText(digest)} (UTC)</dd>
        <dt>Issued</dt>
        <dd>{formatTime(digest.createdAt)}</dd>
        <dt>Email</dt>
        <dd className={digest.delivery.status === 'failed' ? 'status-fail' : undefined}>
          {digest.delivery.status}
          {digest.delivery.lastError && digest.delivery.status !== 'sent' && `: ${digest.delivery.lastError}`}
        </dd>
      </dl>
      {content ? <Figures content={content} /> : <p>This digest has no figures.</p>}
    </article>
  );
}

function Figures({ content }: { content: DigestContent }) {
  const { now, before, changePoints } = content.compliance;
  return (
    <>
      <section className="keep-together" aria-labelledby="compliance-title">
        <h2 id="compliance-title">
          Compliance: {percentText(now.compliancePercent)}
          {changePoints !== null && (
            <>
              {' '}
              <span className={changePoints < 0 ? 'status-fail' : undefined}>({changeText(changePoints)} points)</span>
            </>
          )}
        </h2>
        <Table
          className="digest-compliance"
          caption="Hosts by compliance, and open findings"
          columns={POINT_COLUMNS}
          rows={[{ label: `Now (${now.date})`, point: now }, ...(before ? [{ label: `At the period's start (${before.date})`, point: before }] : [])]}
          rowKey={(row) => row.label}
        />
        {!before && <p className="hint">No figures reach back to the period&apos;s start.</p>}
      </section>
      <FindingList
        title="Top regressions"
        id="regressions"
        when="Seen again"
        findings={content.topRegressions}
        none="No finding came back during the period."
      />
      <FindingList title="Oldest open findings" id="oldest" when="First seen" findings={content.oldestOpen} none="No open finding." />
      <FindingList
        title="Accepted risks expiring within 14 days"
        id="acceptances"
        when="Expires"
        findings={content.expiringAcceptances}
        none="No accepted risk expires within 14 days."
      />
      <section className="keep-together" aria-labelledby="waivers-title">
        <h2 id="waivers-title">Waivers expiring within 14 days</h2>
        <Table
          className="digest-waivers"
          columns={WAIVER_COLUMNS}
          rows={content.expiringWaivers}
          rowKey={(waiver) => waiver.waiverId}
          empty={<p>No waiver expires within 14 days.</p>}
        />
      </section>
    </>
  );
}

const POINT_COLUMNS: Column<{ label: string; point: CompliancePoint }>[] = [
  { header: 'When', cellClassName: 'nowrap', cell: (row) => row.label },
  { header: 'Compliant', className: 'number', cell: (row) => percentText(row.point.compliancePercent) },
  { header: 'Compliant hosts', className: 'number', cell: (row) => row.point.hosts.compliant },
  { header: 'Non-compliant', className: 'number', cell: (row) => row.point.hosts.noncompliant },
  { header: 'Accepted', className: 'number', cell: (row) => row.point.hosts.accepted },
  { header: 'Unknown', className: 'number', cell: (row) => row.point.hosts.unknown },
  { header: 'Open warnings', className: 'number', cell: (row) => row.point.openFindings.warning },
  { header: 'Open suggestions', className: 'number', cell: (row) => row.point.openFindings.suggestion },
];

function FindingList({ title, id, when, findings, none }: { title: string; id: string; when: string; findings: DigestFinding[]; none: string }) {
  const columns: Column<DigestFinding>[] = [
    { header: when, cellClassName: 'nowrap', cell: (finding) => finding.at.slice(0, 10) },
    { header: 'Host', cell: (finding) => <a href={hrefOf({ page: 'host', id: finding.hostRecordId })}>{finding.hostname ?? '(no host name)'}</a> },
    // A kind and a test id read as one word each: the host name and the finding's text wrap instead.
    { header: 'Kind', cellClassName: 'nowrap', cell: (finding) => finding.kind },
    { header: 'Test', cellClassName: 'mono nowrap', cell: (finding) => finding.testId },
    { header: 'Finding', cell: (finding) => finding.text },
  ];
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <Table className={`digest-${id}`} columns={columns} rows={findings} rowKey={(finding) => finding.findingId} empty={<p>{none}</p>} />
    </section>
  );
}

const WAIVER_COLUMNS: Column<DigestContent['expiringWaivers'][number]>[] = [
  { header: 'Expires', cellClassName: 'nowrap', cell: (waiver) => waiver.expiresAt.slice(0, 10) },
  { header: 'Policy', cell: (waiver) => waiver.policyName },
  { header: 'Rule', cellClassName: 'mono', cell: (waiver) => waiver.ruleId ?? 'every rule' },
  { header: 'For', cell: (waiver) => waiver.target },
];
