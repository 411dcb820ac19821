import { useEffect, useRef, useState, type FormEvent } from 'react';
import { createWaiver, getHost, getHostCompliance, listPolicyResults, type Client, type Policy, type PolicyResult } from '@org/audit-client/sdk';
import { useCan } from '../permissions.js';
import { ApiError, data } from '../api.js';
import { formatTime, pageCaption } from '../format.js';
import {
  DEFAULT_POLICY_RESULT_PAGE_SIZE,
  POLICY_RESULT_PAGE_SIZES,
  hostsRoute,
  hrefOf,
  type PolicyResultSort,
  type PolicyResultStatus,
  type RouteOf,
} from '../route.js';
import { useLoad } from '../use-load.js';
import { useStateFrom } from '../use-state-from.js';
import { useWaiverMaxDays } from '../use-waiver-max-days.js';
import { waiverInputOf, type WaiverFormValues } from '../waiver-form.js';
import { RuleValue } from './HostCompliance.js';
import { Status } from './Status.js';
import { Table, type Column } from './Table.js';
import { WaiverForm } from './WaiverForm.js';
import { AsOf } from './AsOf.js';
import { When } from './When.js';

type PolicyRoute = RouteOf<'policy'>;

const STATUS_CHOICES: Record<PolicyResultStatus, string> = {
  fail: 'failing',
  error: 'in error',
  waived: 'waived',
  pass: 'passing',
  any: 'any status',
};

const resultKey = (result: PolicyResult) => `${result.hostRecordId} ${result.ruleId}`;

export interface FailureQueueProps {
  client: Client;
  policy: Policy;
  route: PolicyRoute;
  onUnauthorized(): void;
}

/**
 * A policy's results to work through, failures unless another status is chosen: searched by host name, sorted,
 * paged with their total, every choice in the URL. A failing result is accepted in place with the waiver form; its
 * row is then read again and shows it waived, while the rest of the page stays where it is.
 */
export function FailureQueue({ client, policy, route, onUnauthorized }: FailureQueueProps) {
  const size = route.size ?? DEFAULT_POLICY_RESULT_PAGE_SIZE;
  const view = hrefOf(route);
  const [page, reload] = useLoad(
    () => data(listPolicyResults({ client, path: { policyId: policy.id }, query: resultsQuery(route, size) })),
    `${policy.id} ${view}`,
    onUnauthorized,
  );
  const [reloaded, setReloaded] = useStateFrom(view, () => new Map<string, PolicyResult>());
  const [accepting, setAccepting] = useStateFrom<string | undefined>(view, () => undefined);
  const [announcement, setAnnouncement] = useState<string>();
  // A waiver covers results from now on: a past view offers none.
  const mayAccept = useCan('createWaiver') && !route.at;
  const accepted = async (result: PolicyResult, values: WaiverFormValues) => {
    setAccepting(undefined);
    setAnnouncement(`Accepted ${result.ruleId} on ${result.hostname ?? result.hostId} until ${formatTime(values.expiresAt)}.`);
    // A group's or the fleet's waiver covers other rows too: the page is read again. One host's: only its row.
    if (values.scope !== 'host') return reload();
    // The waiver is saved: should reading its row fail, the whole page is read again instead.
    const compliance = await data(getHostCompliance({ client, path: { hostRecordId: result.hostRecordId } })).catch(() => undefined);
    const fresh = compliance?.results.find((row) => row.policyId === result.policyId && row.ruleId === result.ruleId);
    if (fresh) setReloaded(new Map(reloaded).set(resultKey(result), fresh));
    else reload();
  };
  const rows = page.state === 'ready' ? page.value.items.map((result) => reloaded.get(resultKey(result)) ?? result) : [];
  return (
    <section aria-labelledby="queue-title">
      <h2 id="queue-title">Hosts to look at</h2>
      <AsOf at={route.at} hrefAt={(at) => hrefOf({ ...route, at, offset: 0 })} what="the results" />
      <QueueFilters policy={policy} route={route} />
      <p>
        <a href={hrefOf(hostsRoute({ failingPolicy: policy.id, failingRule: route.rule }))}>Show these hosts in the hosts list</a>{' '}
        <span className="sub">(the hosts failing {route.rule ? `the rule ${route.rule}` : 'a rule of this policy'}, without a waiver)</span>
      </p>
      <Announcement text={announcement} />
      <Status loaded={page} />
      {page.state === 'ready' && (
        <Table
          className="policy-results"
          scroll
          caption={pageCaption('Results', page.value, emptyText(route))}
          columns={resultColumns(route, accepting, mayAccept, (result) => setAccepting(accepting === resultKey(result) ? undefined : resultKey(result)))}
          rows={rows}
          rowKey={resultKey}
          below={(result) =>
            accepting === resultKey(result) && (
              <AcceptResult
                client={client}
                policy={policy}
                result={result}
                onUnauthorized={onUnauthorized}
                onCancel={() => setAccepting(undefined)}
                onAccepted={(values) => accepted(result, values)}
              />
            )
          }
          paging={{
            route,
            pageSize: size,
            total: page.value.total,
            label: 'Pages of results',
            sizes: {
              choices: POLICY_RESULT_PAGE_SIZES,
              hrefOf: (choice) => hrefOf({ ...route, size: choice, offset: Math.floor(route.offset / choice) * choice }),
            },
          }}
        />
      )}
    </section>
  );
}

/** The API's query of the route's view of the results. */
function resultsQuery(route: PolicyRoute, size: number) {
  const status = route.status ?? 'fail';
  return {
    status: status === 'any' ? undefined : status,
    ruleId: route.rule,
    hostname: route.hostname,
    sort: route.sort,
    order: route.order,
    at: route.at,
    limit: size,
    offset: route.offset,
  };
}

function emptyText(route: PolicyRoute): string {
  if (route.hostname) return 'No result of a host with such a name.';
  return (route.status ?? 'fail') === 'fail' ? 'No host fails this policy.' : 'No result with this status.';
}

/** What was just accepted; it takes focus, since the row's Accept button is gone once the row is waived. */
function Announcement({ text }: { text?: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (text) ref.current?.focus();
  }, [text]);
  return (
    <p className="status" role="status" tabIndex={-1} ref={ref}>
      {text}
    </p>
  );
}

/** The status and rule chosen at once; the host name searched when submitted. Each moves to the first page. */
function QueueFilters({ policy, route }: { policy: Policy; route: PolicyRoute }) {
  const [search, setSearch] = useStateFrom(hrefOf(route), () => route.hostname ?? '');
  const go = (change: Partial<PolicyRoute>) => (window.location.hash = hrefOf({ ...route, ...change, offset: 0 }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ hostname: search.trim() || undefined });
  };
  return (
    <form className="filter-grid" role="search" aria-label="Filter the results" onSubmit={submit}>
      <div className="field">
        <label htmlFor="queue-status">Status</label>
        <select id="queue-status" value={route.status ?? 'fail'} onChange={(event) => go({ status: event.target.value as PolicyResultStatus })}>
          {Object.entries(STATUS_CHOICES).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="queue-rule">Rule</label>
        <select id="queue-rule" value={route.rule ?? ''} onChange={(event) => go({ rule: event.target.value || undefined })}>
          <option value="">every rule</option>
          {route.rule && !policy.rules.some((rule) => rule.id === route.rule) && <option value={route.rule}>{route.rule}</option>}
          {policy.rules.map((rule) => (
            <option key={rule.id} value={rule.id}>
              {rule.id}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="queue-hostname">Host name contains</label>
        <input id="queue-hostname" value={search} onChange={(event) => setSearch(event.target.value)} maxLength={255} />
      </div>
      <div className="field actions">
        <button type="submit">Search</button>
        {route.hostname && <a href={hrefOf({ ...route, hostname: undefined, offset: 0 })}>Clear the search</a>}
      </div>
    </form>
  );
}

/** The sort link of a column; the sorted column again reverses the order. Without a sort, failures first (the server's order). */
function sortOf(route: PolicyRoute, sort: PolicyResultSort): Column<PolicyResult>['sort'] {
  const current = route.sort ?? 'status';
  const order = route.order ?? 'asc';
  const sorted = current === sort;
  const next = sorted && order === 'asc' ? 'desc' : 'asc';
  return { href: hrefOf({ ...route, sort, order: next === 'asc' ? undefined : next, offset: 0 }), current: sorted ? order : undefined };
}

/**
 * The columns of the queue; three sort it. A failing result has the button that opens the waiver form under it, when
 * the signed-in role may accept (`mayAccept`).
 */
function resultColumns(route: PolicyRoute, accepting: string | undefined, mayAccept: boolean, toggle: (result: PolicyResult) => void): Column<PolicyResult>[] {
  return [
    {
      header: 'Host',
      sort: sortOf(route, 'hostname'),
      cell: (result) => <a href={hrefOf({ page: 'host', id: result.hostRecordId })}>{result.hostname ?? result.hostId}</a>,
    },
    { header: 'Rule', sort: sortOf(route, 'rule'), cell: (result) => <code>{result.ruleId}</code> },
    { header: 'Status', cellClassName: (result) => `status-${result.status}`, cell: (result) => result.status },
    {
      header: 'Value seen',
      cellClassName: 'mono words',
      cell: (result) => (result.status === 'error' ? result.message : result.value === null ? '—' : <RuleValue value={result.value} />),
    },
    { header: (route.status ?? 'fail') === 'fail' ? 'Failing since' : 'Since', sort: sortOf(route, 'since'), cell: (result) => <When time={result.since} /> },
    {
      header: 'Actions',
      cellClassName: 'nowrap',
      cell: (result) =>
        mayAccept &&
        result.status === 'fail' && (
          <button type="button" onClick={() => toggle(result)} aria-expanded={accepting === resultKey(result)}>
            Accept…
          </button>
        ),
    },
  ];
}

/**
 * The waiver form for one result: for this host, a group it names (read from the host when the form opens) or every
 * host of the policy, within the server's longest waiver.
 */
function AcceptResult({
  client,
  policy,
  result,
  onUnauthorized,
  onCancel,
  onAccepted,
}: {
  client: Client;
  policy: Policy;
  result: PolicyResult;
  onUnauthorized(): void;
  onCancel(): void;
  onAccepted(values: WaiverFormValues): Promise<void>;
}) {
  const maxDays = useWaiverMaxDays(client, onUnauthorized);
  const [host] = useLoad(
    () => data(getHost({ client, path: { hostRecordId: result.hostRecordId }, query: { historyLimit: 1 } })),
    result.hostRecordId,
    onUnauthorized,
  );
  if (maxDays === undefined || host.state === 'loading') return <Status loaded={{ state: 'loading' }} />;
  const groups = host.state === 'ready' ? host.value.groups : [];
  const hostLabel = result.hostname ?? result.hostId;
  const save = async (values: WaiverFormValues) => {
    try {
      await data(createWaiver({ client, body: waiverInputOf(values, { policyId: policy.id, ruleId: result.ruleId, hostRecordId: result.hostRecordId }) }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return onUnauthorized();
      throw error;
    }
    await onAccepted(values);
  };
  return (
    <WaiverForm
      subject={`${policy.name} / ${result.ruleId} on ${hostLabel}`}
      scopes={groups.length > 0 ? ['host', 'group', 'fleet'] : ['host', 'fleet']}
      hostLabel={hostLabel}
      groups={groups}
      maxDays={maxDays}
      onSubmit={save}
      onCancel={onCancel}
    />
  );
}
