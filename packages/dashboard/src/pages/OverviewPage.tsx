import { getOverview, type Client, type FindingCount, type LabelCount, type Overview } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatTime } from '../format.js';
import { When } from '../components/When.js';
import { hostsRoute, hrefOf, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { DistributionChart, FleetTrendChart, round, UploadsChart } from '../components/FleetCharts.js';
import { Status } from '../components/Status.js';
import { hostsColumn, TEST_COLUMN } from '../components/FindingCounts.js';
import { Table, type Column } from '../components/Table.js';
import { Card, ChartData, Panel } from '../components/OverviewParts.js';
import { TimeToFixSection } from '../components/TimeToFix.js';
import { AsOf } from '../components/AsOf.js';

/**
 * The fleet at a glance: how many hosts report, how hardened they are, what they lack, and who went quiet. A host's
 * staleness is its lifecycle state, from the server's threshold (and its groups' own), so the page asks none.
 */
export function OverviewPage({ client, route, onUnauthorized }: { client: Client; route: Extract<Route, { page: 'overview' }>; onUnauthorized(): void }) {
  const [loaded] = useLoad(() => data(getOverview({ client, query: { at: route.at } })), hrefOf(route), onUnauthorized);
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title" tabIndex={-1}>
        Overview
      </h1>
      <AsOf at={route.at} hrefAt={(at) => hrefOf({ ...route, at })} what="the fleet's figures" />
      <Status loaded={loaded} />
      {loaded.state === 'ready' && (
        <>
          <OverviewBody overview={loaded.value} />
          {/* Time to fix is counted up to now: a past overview leaves it out. */}
          {!route.at && <TimeToFixSection client={client} onUnauthorized={onUnauthorized} />}
        </>
      )}
    </section>
  );
}

function OverviewBody({ overview }: { overview: Overview }) {
  const { hosts, hardeningIndex: index } = overview;
  const refused = overview.uploadsPerDay.reduce((sum, day) => sum + day.refused, 0);
  const accepted = overview.uploadsPerDay.reduce((sum, day) => sum + day.accepted, 0);
  const lastDays = (n: number) => (n === 1 ? 'last day' : `last ${n} days`);
  return (
    <>
      <p className="hint">
        {overview.asOf
          ? `Each host as its latest report received by ${formatTime(overview.asOf)} showed it; findings open and compliance then. Host states are kept now only: none counts as stale then.`
          : `As of ${formatTime(overview.generatedAt)}. Findings, operating systems and Lynis versions are those of each host's latest report.`}
      </p>
      <FleetCards overview={overview} />
      {index.unknown > 0 && (
        <p className="hint">
          {index.unknown === 1 ? 'One host has' : `${index.unknown} hosts have`} no hardening index (the latest report is not a Lynis report, or says none).
        </p>
      )}
      {refused > 0 && (
        <p className="notice" role="status">
          {refused === 1 ? 'One upload was' : `${refused} uploads were`} refused in the {lastDays(overview.uploadsPerDay.length)}: some hosts may be losing
          reports. <a href={hrefOf({ page: 'refused', offset: 0 })}>See the refused uploads</a>
        </p>
      )}
      <div className="grid-2">
        <Panel id="distribution" title="Hardening index of the hosts">
          <DistributionChart buckets={index.distribution} />
          <ChartData
            caption="Hosts by hardening index"
            headings={['Hardening index', 'Hosts']}
            rows={index.distribution.map((bucket) => [`${bucket.from}–${bucket.to}`, bucket.hosts])}
          />
        </Panel>
        <Panel id="trend" title="Fleet hardening index, last 90 days">
          <FleetTrendChart trend={overview.hardeningTrend} until={overview.asOf ?? overview.generatedAt} />
          <ChartData
            caption="Average hardening index of the reports received each day"
            headings={['Day (UTC)', 'Average', 'Reports']}
            rows={overview.hardeningTrend.map((day) => [day.day, day.average === null ? '—' : round(day.average), day.reports])}
          />
        </Panel>
      </div>
      <Panel id="uploads" title={`Uploads per day, ${lastDays(overview.uploadsPerDay.length)}`}>
        <p className="hint">
          {accepted} accepted, {refused} refused.
        </p>
        <UploadsChart days={overview.uploadsPerDay} />
        <ChartData
          caption="Uploads accepted and refused each day"
          headings={['Day (UTC)', 'Accepted', 'Refused']}
          rows={overview.uploadsPerDay.filter((day) => day.accepted > 0 || day.refused > 0).map((day) => [day.day, day.accepted, day.refused])}
        />
      </Panel>
      <div className="grid-2">
        <Panel id="top-warnings" title="Most common warnings">
          <TopFindings findings={overview.topWarnings} kind="warning" />
        </Panel>
        <Panel id="top-suggestions" title="Most common suggestions">
          <TopFindings findings={overview.topSuggestions} kind="suggestion" />
        </Panel>
      </div>
      <div className="grid-2">
        <Panel id="os-mix" title="Operating systems">
          <Mix items={overview.operatingSystems} total={hosts.total} heading="Operating system" link={(name) => hrefOf(hostsRoute({ os: name }))} />
        </Panel>
        <Panel id="lynis-mix" title="Lynis versions">
          <Mix items={overview.lynisVersions} total={hosts.total} heading="Lynis version" />
        </Panel>
      </div>
      <StaleHosts overview={overview} />
    </>
  );
}

/** The fleet's numbers as cards: hosts, how recently they reported, their hardening index and compliance. */
function FleetCards({ overview }: { overview: Overview }) {
  const { hosts, hardeningIndex: index, staleDays } = overview;
  const days = staleDays === 1 ? 'a day' : `${staleDays} days`;
  return (
    <ul className="cards" aria-label="Hosts">
      <Card label="Hosts" value={hosts.total} href={hrefOf(hostsRoute())} />
      <Card label="Seen in the last 24 hours" value={hosts.seenLast24h} />
      <Card label="Seen in the last 7 days" value={hosts.seenLast7d} />
      <Card
        label={`Stale (no report for ${days})`}
        value={hosts.stale}
        href={hosts.stale > 0 ? hrefOf(hostsRoute({ state: 'stale' })) : undefined}
        bad={hosts.stale > 0}
        more={
          hosts.decommissioned > 0 ? (
            <a href={hrefOf(hostsRoute({ state: 'decommissioned' }))}>{hosts.decommissioned.toLocaleString('en')} decommissioned</a>
          ) : (
            'none decommissioned'
          )
        }
      />
      <Card label="Average hardening index" value={index.average === null ? '—' : round(index.average)} />
      <Card label="Median hardening index" value={index.median === null ? '—' : round(index.median)} />
      {overview.compliance.policies > 0 && (
        <Card
          label={`Compliant (of ${overview.compliance.evaluatedHosts} evaluated; ${overview.compliance.hosts.fail} failing, ${overview.compliance.hosts.waived} waived)`}
          value={overview.compliance.rate === null ? '—' : `${Math.round(overview.compliance.rate * 100)}%`}
          href={hrefOf({ page: 'policies' })}
          bad={overview.compliance.hosts.fail > 0}
        />
      )}
    </ul>
  );
}

function TopFindings({ findings, kind }: { findings: FindingCount[]; kind: 'warning' | 'suggestion' }) {
  if (findings.length === 0) return <p>No host's latest report has a {kind}.</p>;
  const columns = [TEST_COLUMN, { header: kind === 'warning' ? 'Warning' : 'Suggestion', cell: (finding: FindingCount) => finding.text }, hostsColumn('Hosts')];
  return (
    <>
      <Table columns={columns} rows={findings} rowKey={(_, index) => index} />
      <p>
        <a href={hrefOf({ page: 'findings', kind, offset: 0 })}>All {kind}s</a>
      </p>
    </>
  );
}

/** The hosts that sent no report for the stale days, seen longest ago first, and a link to all of them. */
function StaleHosts({ overview }: { overview: Overview }) {
  const { hosts, staleDays, staleHosts } = overview;
  const days = staleDays === 1 ? 'a day' : `${staleDays} days`;
  return (
    <Panel id="stale-hosts" title={`Stale hosts: no report for ${days}`}>
      <Table
        scroll
        empty={<p>Every host sent a report in the last {days}.</p>}
        caption={staleHosts.length < hosts.stale ? `The ${staleHosts.length} seen longest ago of ${hosts.stale}` : 'Seen longest ago first'}
        columns={STALE_COLUMNS}
        rows={staleHosts}
        rowKey={(host) => host.id}
      />
      {staleHosts.length > 0 && (
        <p>
          <a href={hrefOf(hostsRoute({ state: 'stale' }))}>All stale hosts ({hosts.stale})</a>
        </p>
      )}
    </Panel>
  );
}

const STALE_COLUMNS: Column<Overview['staleHosts'][number]>[] = [
  { header: 'Host name', cell: (host) => <a href={hrefOf({ page: 'host', id: host.id })}>{host.hostname ?? '(no host name)'}</a> },
  { header: 'Last seen', cellClassName: 'nowrap', cell: (host) => <When time={host.lastSeen} /> },
  { header: 'Hardening index', className: 'number', cell: (host) => host.latestHardeningIndex ?? '—' },
];

/** How many hosts have each name (an OS, a Lynis version), with a bar of their share of the fleet. */
function Mix({ items, total, heading, link }: { items: LabelCount[]; total: number; heading: string; link?: (name: string) => string }) {
  const share = (hosts: number) => `${Math.round((hosts / Math.max(total, 1)) * 100)} % of the hosts`;
  const columns: Column<LabelCount>[] = [
    {
      header: heading,
      cell: (item) =>
        item.name === null ? (
          <span className="muted">(not reported)</span>
        ) : link ? (
          <a className="quiet" href={link(item.name)}>
            {item.name}
          </a>
        ) : (
          item.name
        ),
    },
    { header: 'Hosts', className: 'number', cell: (item) => item.hosts },
    {
      header: <span className="visually-hidden">Share of the hosts</span>,
      cellClassName: 'share',
      cell: (item) => <meter min={0} max={Math.max(total, 1)} value={item.hosts} title={share(item.hosts)} />,
    },
  ];
  return <Table empty={<p>No host yet.</p>} columns={columns} rows={items} rowKey={(_, index) => index} />;
}
