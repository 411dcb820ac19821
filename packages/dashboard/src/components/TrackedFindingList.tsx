import { useContext, useId, type FormEvent, type ReactNode } from 'react';
import { listTrackedFindings, type Client, type FindingState, type TrackedFinding } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { FINDING_STATE_TEXT, FINDING_STATES, filtered, trackedQuery, type TrackedFilters } from '../finding-lifecycle.js';
import { pageCaption } from '../format.js';
import { personLabel } from '../person-label.js';
import { SignedInContext } from '../permissions.js';
import { hrefOf, type FindingKind, type RouteOf } from '../route.js';
import { useLoad } from '../use-load.js';
import { usePeople } from '../use-people.js';
import { useStateFrom } from '../use-state-from.js';
import { TRACKED_COLUMNS } from './FindingState.js';
import { Status } from './Status.js';
import { Table, type Column } from './Table.js';

const PAGE_SIZE = 50;

type FindingsRoute = RouteOf<'findings'>;

/** The route's tracked findings filters. */
const filtersOf = ({ states, owner, group, kind, testId, minAgeDays }: FindingsRoute): TrackedFilters => ({ states, owner, group, kind, testId, minAgeDays });

/**
 * Each host's findings with their lifecycle, oldest first, filtered by state, owner, group, kind, test id and age,
 * every filter in the URL; each row links to its host. Host names and finding text are shown as text only.
 */
export function TrackedFindingList({ client, route, onUnauthorized }: { client: Client; route: FindingsRoute; onUnauthorized(): void }) {
  const filters = filtersOf(route);
  const [loaded] = useLoad(
    () => data(listTrackedFindings({ client, query: trackedQuery(filters, { limit: PAGE_SIZE, offset: route.offset }) })),
    hrefOf(route),
    onUnauthorized,
  );
  const { test, kind, text, state, owner, firstSeen } = TRACKED_COLUMNS;
  return (
    <>
      <TrackedFilterForm client={client} route={route} />
      <Status loaded={loaded} />
      {loaded.state === 'ready' && (
        <Table
          scroll
          className="tracked-findings"
          caption={pageCaption('Findings', loaded.value, filtered(filters) ? 'No finding matches these filters.' : 'No finding is tracked yet.')}
          columns={[HOST_COLUMN, test, kind, text, state, owner, firstSeen]}
          rows={loaded.value.items}
          rowKey={(finding) => finding.id}
          paging={{ route, pageSize: PAGE_SIZE, total: loaded.value.total, label: 'Pages of tracked findings' }}
        />
      )}
    </>
  );
}

/** The host of a finding, as a link to its page (its name as text, or its id when it has none). */
const HOST_COLUMN: Column<TrackedFinding> = {
  header: 'Host',
  cellClassName: 'words',
  cell: (finding) => <a href={hrefOf({ page: 'host', id: finding.hostRecordId })}>{finding.hostname ?? finding.hostRecordId}</a>,
};

/** Opens a route, as following its link does. */
function openRoute(route: FindingsRoute): void {
  window.location.hash = hrefOf(route);
}

/** The tracked findings' filters: changed in the form, applied to the URL on Search (the state boxes at once). */
function TrackedFilterForm({ client, route }: { client: Client; route: FindingsRoute }) {
  const id = useId();
  const people = usePeople(client);
  const source = hrefOf(route);
  const [owner, setOwner] = useStateFrom(source, () => route.owner ?? '');
  const [group, setGroup] = useStateFrom(source, () => route.group ?? '');
  const [testId, setTestId] = useStateFrom(source, () => route.testId ?? '');
  const [age, setAge] = useStateFrom(source, () => (route.minAgeDays === undefined ? '' : String(route.minAgeDays)));
  const go = (changes: Partial<FindingsRoute>) => openRoute({ ...route, ...changes, offset: 0 });
  const search = (event: FormEvent) => {
    event.preventDefault();
    const days = /^\d+$/.test(age.trim()) ? Number(age.trim()) : undefined;
    go({ owner: owner.trim() || undefined, group: group.trim() || undefined, testId: testId.trim() || undefined, minAgeDays: days });
  };
  const toggleState = (state: FindingState, on: boolean) => {
    const states = FINDING_STATES.filter((known) => (known === state ? on : route.states?.includes(known)));
    go({ states: states.length > 0 ? states : undefined });
  };
  return (
    <form className="filters tracked-filters" role="search" aria-label="Filter tracked findings" onSubmit={search}>
      <fieldset className="state-choices">
        <legend>State</legend>
        {FINDING_STATES.map((state) => (
          <label key={state}>
            <input type="checkbox" checked={route.states?.includes(state) ?? false} onChange={(event) => toggleState(state, event.target.checked)} />{' '}
            {FINDING_STATE_TEXT[state]}
          </label>
        ))}
      </fieldset>
      <Pair id={`${id}-owner`} label="Owner">
        {people ? (
          <select id={`${id}-owner`} value={owner} onChange={(event) => go({ owner: event.target.value || undefined })}>
            <option value="">Anyone</option>
            <option value="me">Me</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {personLabel(person)}
              </option>
            ))}
          </select>
        ) : (
          <input id={`${id}-owner`} className="mono" size={12} value={owner} onChange={(event) => setOwner(event.target.value)} placeholder="me or an id" />
        )}
      </Pair>
      <Pair id={`${id}-group`} label="Group">
        <input id={`${id}-group`} size={10} value={group} onChange={(event) => setGroup(event.target.value)} />
      </Pair>
      <Pair id={`${id}-kind`} label="Kind">
        <select id={`${id}-kind`} value={route.kind ?? ''} onChange={(event) => go({ kind: (event.target.value || undefined) as FindingKind | undefined })}>
          <option value="">Any</option>
          <option value="warning">Warnings</option>
          <option value="suggestion">Suggestions</option>
        </select>
      </Pair>
      <Pair id={`${id}-test`} label="Test id">
        <input id={`${id}-test`} className="mono" size={10} value={testId} onChange={(event) => setTestId(event.target.value)} placeholder="e.g. SSH-7408" />
      </Pair>
      <Pair id={`${id}-age`} label="Older than (days)">
        <input id={`${id}-age`} type="number" min={0} max={3650} value={age} onChange={(event) => setAge(event.target.value)} className="days" />
      </Pair>
      <button type="submit">Search</button>
    </form>
  );
}

/** A filter's label with its control, kept on one line as the form wraps. */
function Pair({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <span className="filter-pair">
      <label htmlFor={id}>{label}</label>
      {children}
    </span>
  );
}

/** The signed-in person's own findings, in every state: a shortcut shown to people (a token owns no finding). */
export function MyFindingsLink({ current }: { current: boolean }) {
  const signedIn = useContext(SignedInContext);
  if (signedIn?.kind !== 'user') return null;
  return (
    <a href={hrefOf({ page: 'findings', view: 'tracked', owner: 'me', offset: 0 })} aria-current={current ? 'page' : undefined}>
      My findings
    </a>
  );
}
