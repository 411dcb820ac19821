import type { FormEvent } from 'react';
import { exportFindings, exportFindingStates, listFindings, type Client, type FindingCount } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { pageCaption } from '../format.js';
import { hrefOf, type FindingKind, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { useStateFrom } from '../use-state-from.js';
import { ExportButtons } from '../components/ExportButtons.js';
import { Status } from '../components/Status.js';
import { hostsColumn, TEST_COLUMN } from '../components/FindingCounts.js';
import { Table, type Column } from '../components/Table.js';
import { MyFindingsLink, TrackedFindingList } from '../components/TrackedFindingList.js';

const PAGE_SIZE = 50;

type FindingsRoute = Extract<Route, { page: 'findings' }>;
type FindingsProps = { client: Client; route: FindingsRoute; onUnauthorized(): void };

/**
 * Findings, two ways: the warnings and suggestions of every host's latest report, most hosts affected first (a test
 * id lists its hosts); or each host's findings with their lifecycle (`view=tracked`), with the signed-in person's own
 * a click away.
 */
export function FindingsPage(props: FindingsProps) {
  const { route } = props;
  const tracked = route.view === 'tracked';
  return (
    <section aria-labelledby="findings-title">
      <h1 id="findings-title" tabIndex={-1}>
        Findings
      </h1>
      <nav className="view-switch" aria-label="Findings views">
        <a href={hrefOf({ page: 'findings', kind: route.kind, testId: route.testId, offset: 0 })} aria-current={tracked ? undefined : 'page'}>
          By test, across hosts
        </a>
        <a
          href={hrefOf({ page: 'findings', view: 'tracked', kind: route.kind, testId: route.testId, offset: 0 })}
          aria-current={tracked && route.owner !== 'me' ? 'page' : undefined}
        >
          Each host's, with state and owner
        </a>
        <MyFindingsLink current={tracked && route.owner === 'me'} />
      </nav>
      {tracked ? (
        <>
          <p className="hint">
            Each host's findings with their state, owner and due date, the oldest first. A row's host opens its page, where an operator acts on them.
          </p>
          <TrackedFindingExport {...props} />
          <TrackedFindingList {...props} />
        </>
      ) : (
        <GroupedFindings {...props} />
      )}
    </section>
  );
}

/** The tracked findings as CSV or JSON Lines, with the filters the export takes (state, group, kind, test id). */
function TrackedFindingExport({ client, route, onUnauthorized }: FindingsProps) {
  const { states, group, kind, testId } = route;
  return (
    <ExportButtons
      label="These findings by state, group, kind and test id (not by owner or age), all pages, oldest first"
      name="finding-states"
      formats={['csv', 'jsonl'] as const}
      request={(format) =>
        exportFindingStates({ client, query: { format, state: states?.length ? states : undefined, group, kind, testId }, parseAs: 'stream' })
      }
      onUnauthorized={onUnauthorized}
    />
  );
}

/** The warnings and suggestions of every host's latest report, most hosts affected first; a test id lists its hosts. */
function GroupedFindings({ client, route, onUnauthorized }: FindingsProps) {
  const [loaded] = useLoad(
    () => data(listFindings({ client, query: { limit: PAGE_SIZE, offset: route.offset, kind: route.kind, testId: route.testId } })),
    hrefOf(route),
    onUnauthorized,
  );
  const [testId, setTestId] = useStateFrom(route.testId, () => route.testId ?? '');
  const search = (event: FormEvent) => {
    event.preventDefault();
    window.location.hash = hrefOf({ ...route, testId: testId.trim() || undefined, offset: 0 });
  };
  const kind = (value: string) => (window.location.hash = hrefOf({ ...route, kind: (value || undefined) as FindingKind | undefined, offset: 0 }));
  return (
    <>
      <p className="hint">
        The warnings and suggestions of every host's latest report, the ones on the most hosts first. A test id lists the hosts that have it.
      </p>
      <ExportButtons
        label="Every finding of every host's latest report, one row per host and finding"
        name="findings"
        request={(format) => exportFindings({ client, query: { format }, parseAs: 'stream' })}
        onUnauthorized={onUnauthorized}
      />
      <form className="filters" role="search" aria-label="Filter findings" onSubmit={search}>
        <label htmlFor="finding-kind">Kind</label>
        <select id="finding-kind" value={route.kind ?? ''} onChange={(event) => kind(event.target.value)}>
          <option value="">Warnings and suggestions</option>
          <option value="warning">Warnings</option>
          <option value="suggestion">Suggestions</option>
        </select>
        <label htmlFor="finding-test-id">Test id</label>
        <input id="finding-test-id" className="mono" value={testId} onChange={(event) => setTestId(event.target.value)} placeholder="e.g. SSH-7408" />
        <button type="submit">Search</button>
        {route.testId && <a href={hrefOf({ ...route, testId: undefined, offset: 0 })}>Every test id</a>}
      </form>
      <Status loaded={loaded} />
      {loaded.state === 'ready' && (
        <Table
          scroll
          caption={pageCaption(
            'Findings',
            loaded.value,
            route.kind || route.testId ? "No host's latest report has such a finding." : "No host's latest report has a warning or suggestion.",
          )}
          columns={FINDING_COLUMNS}
          rows={loaded.value.items}
          rowKey={(finding) => `${finding.kind}:${finding.testId}`}
          paging={{ route, pageSize: PAGE_SIZE, total: loaded.value.total, label: 'Pages of findings' }}
        />
      )}
    </>
  );
}

const FINDING_COLUMNS: Column<FindingCount>[] = [
  { header: 'Kind', cell: (finding) => <span className={`kind kind-${finding.kind}`}>{finding.kind === 'warning' ? 'Warning' : 'Suggestion'}</span> },
  TEST_COLUMN,
  { header: 'Finding (on one of the hosts)', cell: (finding) => finding.text },
  hostsColumn('Hosts affected'),
];
