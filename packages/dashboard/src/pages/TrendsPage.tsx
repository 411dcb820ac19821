import type { FormEvent, ReactNode } from 'react';
import { exportComplianceHistory, getComplianceHistory, getTimeToFix, type Client, type ComplianceHistory, type TimeToFix } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { hrefOf, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { useStateFrom } from '../use-state-from.js';
import {
  DEFAULT_TREND_WINDOW,
  fixTimesOf,
  fixWeeks,
  formatPercent,
  historyQuery,
  inBatches,
  intervalOf,
  isEmptyHistory,
  TREND_INTERVALS,
  TREND_WINDOWS,
  type TrendFilters,
} from '../trends.js';
import { ExportButtons } from '../components/ExportButtons.js';
import { Card, ChartData, Panel } from '../components/OverviewParts.js';
import { Status } from '../components/Status.js';
import { SuggestInput } from '../components/SuggestInput.js';
import { formatHours } from '../components/TimeToFix.js';
import { FixTimeChart, intervalAxisLabel, OpenFindingsChart, PolicyComplianceChart, type FixWeek } from '../components/TrendCharts.js';

type TrendsRoute = Extract<Route, { page: 'trends' }>;
type TrendsProps = { client: Client; route: TrendsRoute; onUnauthorized(): void };

/**
 * How the fleet moved over the last 30, 90 or 365 days: open findings, compliance per policy, and how long findings
 * take to be fixed each week. The window, interval, group and customer live in the URL.
 */
export function TrendsPage(props: TrendsProps) {
  const { client, route, onUnauthorized } = props;
  const [loaded] = useLoad(() => data(getComplianceHistory({ client, query: historyQuery(route, new Date()) })), hrefOf(route), onUnauthorized);
  return (
    <section aria-labelledby="trends-title">
      <h1 id="trends-title" tabIndex={-1}>
        Trends
      </h1>
      <p className="hint">
        The fleet's open findings and compliance at the end of each day or week (UTC), and how long findings take to be fixed. Past days are kept as they were;
        today's point moves until the day is over.
      </p>
      <TrendFilterForm {...props} />
      <ExportButtons
        label="This history, one row per day or week and policy"
        name="compliance-history"
        formats={['csv', 'jsonl'] as const}
        request={(format) => exportComplianceHistory({ client, query: { ...historyQuery(route, new Date()), format }, parseAs: 'stream' })}
        onUnauthorized={onUnauthorized}
      />
      <Status loaded={loaded} />
      {loaded.state === 'ready' && <HistoryPanels history={loaded.value} filtered={Boolean(route.group || route.customer)} />}
      <FixTimePanel {...props} />
    </section>
  );
}

/** The window and interval, chosen at once; the group and customer, typed (with the fleet's values suggested) and applied. */
function TrendFilterForm({ client, route, onUnauthorized }: TrendsProps) {
  const [text, setText] = useStateFrom(hrefOf(route), () => ({ group: route.group ?? '', customer: route.customer ?? '' }));
  const go = (filters: TrendFilters) => (window.location.hash = hrefOf({ page: 'trends', ...filters }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    go({ ...route, group: text.group.trim() || undefined, customer: text.customer.trim() || undefined });
  };
  const suggest = { client, onUnauthorized };
  return (
    <form className="filters" role="search" aria-label="Filter the trends" onSubmit={apply}>
      <label htmlFor="trend-window">Window</label>
      <select
        id="trend-window"
        value={route.days ?? DEFAULT_TREND_WINDOW}
        onChange={(event) => go({ ...route, days: TREND_WINDOWS.find((days) => days === Number(event.target.value)) })}
      >
        {TREND_WINDOWS.map((days) => (
          <option key={days} value={days}>
            Last {days} days
          </option>
        ))}
      </select>
      <label htmlFor="trend-interval">A point per</label>
      <select
        id="trend-interval"
        value={intervalOf(route)}
        onChange={(event) => go({ ...route, interval: TREND_INTERVALS.find((i) => i === event.target.value) })}
      >
        <option value="day">day</option>
        <option value="week">week</option>
      </select>
      <label htmlFor="trend-group">Group</label>
      <SuggestInput
        id="trend-group"
        field="group"
        value={text.group}
        onChange={(group) => setText({ ...text, group })}
        placeholder="every group"
        {...suggest}
      />
      <label htmlFor="trend-customer">Customer</label>
      <SuggestInput
        id="trend-customer"
        field="customer"
        value={text.customer}
        onChange={(customer) => setText({ ...text, customer })}
        placeholder="every customer"
        {...suggest}
      />
      <button type="submit">Apply</button>
      {(route.group || route.customer) && <a href={hrefOf({ ...route, group: undefined, customer: undefined })}>Every host</a>}
    </form>
  );
}

/** The open findings and the compliance per policy, or what to do when there is no history yet. */
export function HistoryPanels({ history, filtered }: { history: ComplianceHistory; filtered: boolean }) {
  if (isEmptyHistory(history))
    return (
      <Panel id="no-history" title="No history yet">
        {filtered ? (
          <p>No host of this group or customer was counted in the window: check the name (the suggestions list the fleet's), or show every host.</p>
        ) : (
          <NoHistoryYet />
        )}
      </Panel>
    );
  const { points, policies } = history;
  const first = points[0]!;
  const last = points.at(-1)!;
  const when = intervalAxisLabel(history.interval);
  return (
    <>
      <Panel id="open-findings-trend" title="Open findings">
        <p>
          On {last.date}: <strong>{last.openFindings.warning}</strong> warnings, <strong>{last.openFindings.suggestion}</strong> suggestions and{' '}
          <strong>{last.openFindings.accepted}</strong> accepted open (on {first.date}: {first.openFindings.warning}, {first.openFindings.suggestion} and{' '}
          {first.openFindings.accepted}).
        </p>
        <OpenFindingsChart history={history} />
        <ChartData
          caption="Findings open (open, acknowledged or regressed) and accepted at the end of each interval"
          headings={[when, 'Warnings', 'Suggestions', 'Accepted']}
          rows={points.map((point) => [dateText(point), point.openFindings.warning, point.openFindings.suggestion, point.openFindings.accepted])}
        />
      </Panel>
      <Panel id="compliance-trend" title="Compliance per policy">
        <p>
          On {last.date}: <strong>{formatPercent(last.compliancePercent)}</strong> of the hosts with a known status compliant ({last.hosts.compliant} compliant,{' '}
          {last.hosts.accepted} accepted, {last.hosts.noncompliant} non-compliant, {last.hosts.unknown} unknown); on {first.date}:{' '}
          {formatPercent(first.compliancePercent)}.
        </p>
        {policies.length === 0 ? (
          <p>
            No policy applied in the window. <a href={hrefOf({ page: 'policies' })}>Create a policy or enable the baseline</a> to follow compliance over time.
          </p>
        ) : (
          <PolicyComplianceChart history={history} />
        )}
        <ChartData
          caption="Compliant and accepted hosts out of those with a known status, in percent, at the end of each interval"
          headings={[when, 'Compliant', 'Accepted', 'Non-compliant', 'Unknown', 'Fleet', ...policies.map((policy) => policy.name)]}
          rows={points.map((point) => [
            dateText(point),
            point.hosts.compliant,
            point.hosts.accepted,
            point.hosts.noncompliant,
            point.hosts.unknown,
            formatPercent(point.compliancePercent),
            ...policies.map((policy) => formatPercent(policy.points.find((p) => p.date === point.date)?.compliancePercent ?? null)),
          ])}
        />
      </Panel>
    </>
  );
}

/** A point's date, marked while it is today's and still moving. */
const dateText = (point: ComplianceHistory['points'][number]) => (point.final ? point.date : `${point.date} (so far)`);

function NoHistoryYet() {
  return (
    <p>
      The history builds from the hosts' reports, one day at a time: <a href={hrefOf({ page: 'addHosts' })}>add hosts</a> and let them report, and{' '}
      <a href={hrefOf({ page: 'policies' })}>enable a policy</a> to follow compliance. Each day is kept once it is over; the charts fill in from then on.
    </p>
  );
}

/**
 * The mean and median time to fix of each week of the window, and this week's changes. Per week rather than per
 * kind: the page is about change over time, and a line per week shows whether fixing gets faster, which two bars
 * for the whole window (the overview's) cannot. The API has no group or customer filter for it: a group's or
 * customer's figures are read from its per-group and per-customer figures; this week's changes are the fleet's.
 */
function FixTimePanel({ client, route, onUnauthorized }: TrendsProps) {
  const days = route.days ?? DEFAULT_TREND_WINDOW;
  const [loaded] = useLoad(
    () => inBatches(fixWeeks(days, new Date()), ({ from, to }) => data(getTimeToFix({ client, query: { from, to } }))),
    `fix-weeks ${days}`,
    onUnauthorized,
  );
  const scope = route.group ? `group ${route.group}` : route.customer ? `customer ${route.customer}` : undefined;
  return (
    <Panel id="fix-time-trend" title="Time to fix per week">
      <Status loaded={loaded} />
      {loaded.state === 'ready' && <FixTimeFigures weeks={loaded.value} filters={route} scope={scope} />}
    </Panel>
  );
}

export function FixTimeFigures({ weeks, filters, scope }: { weeks: TimeToFix[]; filters: TrendFilters; scope?: string }) {
  const rows = weeks.map((week) => ({ week, times: fixTimesOf(week, filters) }));
  const chart: FixWeek[] = rows.map(({ week, times }) => ({ end: week.to.slice(0, 10), meanHours: times.meanHours, medianHours: times.medianHours }));
  const thisWeek = weeks.at(-1)?.lastWeek ?? { opened: 0, resolved: 0, regressed: 0 };
  const resolved = rows.reduce((sum, { times }) => sum + times.resolved, 0);
  let body: ReactNode;
  if (resolved === 0)
    body = (
      <p>
        No finding {scope ? `of the ${scope} ` : ''}was resolved in the window. A finding is resolved when a later report of its host no longer has it: the
        chart fills in as hosts report after their findings are fixed.
      </p>
    );
  else body = <FixTimeChart weeks={chart} />;
  return (
    <>
      <ul className="cards" aria-label="This week">
        <Card label="Opened in the last 7 days" value={thisWeek.opened.toLocaleString('en')} bad={thisWeek.opened > thisWeek.resolved} />
        <Card label="Resolved in the last 7 days" value={thisWeek.resolved.toLocaleString('en')} />
        <Card label="Regressed in the last 7 days" value={thisWeek.regressed.toLocaleString('en')} bad={thisWeek.regressed > 0} />
      </ul>
      <p className="hint">
        Each week is the 7 days up to its last day; hours from a finding's first sighting (or its regression) to its resolution.
        {scope ? ` Times to fix of the ${scope}; the changes above are the whole fleet's.` : ''}
      </p>
      {body}
      <ChartData
        caption="Findings resolved each week, their mean and median time to fix, and the week's changes (the fleet's)"
        headings={['Week ending (UTC)', 'Resolved', 'Mean', 'Median', 'Opened', 'Regressed']}
        rows={rows.map(({ week, times }) => [
          week.to.slice(0, 10),
          times.resolved,
          formatHours(times.meanHours),
          formatHours(times.medianHours),
          week.lastWeek.opened,
          week.lastWeek.regressed,
        ])}
      />
    </>
  );
}
