import type { FormEvent } from 'react';
import { exportAuditEvents, listAuditEvents, type AuditEvent, type Client } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { ExportButtons } from '../components/ExportButtons.js';
import { Status } from '../components/Status.js';
import { Table, type Column } from '../components/Table.js';
import { When } from '../components/When.js';
import { useCan } from '../permissions.js';
import { AUDIT_OUTCOMES, hrefOf, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { useStateFrom } from '../use-state-from.js';

const PAGE_SIZE = 50;
type AuditRoute = Extract<Route, { page: 'audit' }>;

/**
 * The audit trail (admins only): who changed, exported or signed in, and how it ended, newest first, filtered by
 * actor, operation and outcome, a page older at a time. Every field is shown as text: a failed sign-in's email and a
 * user agent are whatever the client sent.
 */
export function AuditPage({ client, route, onUnauthorized }: { client: Client; route: AuditRoute; onUnauthorized(): void }) {
  const mayRead = useCan('listAuditEvents');
  const { actor, operation, outcome } = route;
  const [loaded] = useLoad(
    () => data(listAuditEvents({ client, query: { actor, operation, outcome, before: route.before, limit: PAGE_SIZE } })),
    hrefOf(route),
    onUnauthorized,
  );
  const [actorText, setActorText] = useStateFrom(actor, () => actor ?? '');
  const [operationText, setOperationText] = useStateFrom(operation, () => operation ?? '');
  const search = (event: FormEvent) => {
    event.preventDefault();
    window.location.hash = hrefOf({ ...route, actor: actorText.trim() || undefined, operation: operationText.trim() || undefined, before: undefined });
  };
  const filterOutcome = (value: string) =>
    (window.location.hash = hrefOf({ ...route, outcome: AUDIT_OUTCOMES.find((known) => known === value), before: undefined }));
  if (!mayRead) return <p className="hint">The audit trail is for admins.</p>;
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title" tabIndex={-1}>
        Audit trail
      </h1>
      <p className="hint">
        Every change, export, sign-in and sign-out, newest first, whether it succeeded, failed or was refused. Entries are chained by hash:{' '}
        <code>audit-server audit verify</code> finds one altered or removed.
      </p>
      <ExportButtons
        label="The entries shown, all pages, oldest first, with their hashes"
        name="audit-events"
        formats={['csv', 'jsonl'] as const}
        request={(format) => exportAuditEvents({ client, query: { format, actor, operation, outcome }, parseAs: 'stream' })}
        onUnauthorized={onUnauthorized}
      />
      <form className="filters" onSubmit={search}>
        <label htmlFor="audit-actor">Actor</label>
        <input id="audit-actor" value={actorText} onChange={(event) => setActorText(event.target.value)} />
        <label htmlFor="audit-operation">Operation</label>
        <input id="audit-operation" className="mono" value={operationText} onChange={(event) => setOperationText(event.target.value)} />
        <button type="submit">Search</button>
        <label htmlFor="audit-outcome">Outcome</label>
        <select id="audit-outcome" value={outcome ?? ''} onChange={(event) => filterOutcome(event.target.value)}>
          <option value="">Any outcome</option>
          {AUDIT_OUTCOMES.map((known) => (
            <option key={known} value={known}>
              {known}
            </option>
          ))}
        </select>
      </form>
      <Status loaded={loaded} />
      {loaded.state === 'ready' && (
        <>
          <Table
            caption={route.before === undefined ? 'The newest entries' : `Entries before #${route.before}`}
            columns={COLUMNS}
            rows={loaded.value.items}
            rowKey={(event) => event.sequence}
            empty={<p>No audit entries{actor || operation || outcome ? ' match these filters' : ''}.</p>}
            scroll
          />
          <nav className="pager" aria-label="Pages of audit entries">
            {route.before !== undefined && <a href={hrefOf({ ...route, before: undefined })}>Newest entries</a>}
            {loaded.value.nextBefore !== null && <a href={hrefOf({ ...route, before: loaded.value.nextBefore })}>Older entries</a>}
          </nav>
        </>
      )}
    </section>
  );
}

/** When, who (and with which role), what, on what, how it ended, and from where. */
const COLUMNS: Column<AuditEvent>[] = [
  { header: '#', cell: (event) => event.sequence, className: 'number' },
  { header: 'When', cell: (event) => <When time={event.at} />, className: 'nowrap' },
  { header: 'Actor', cell: (event) => event.actor.name ?? event.actor.id ?? event.actor.kind },
  { header: 'Role', cell: (event) => event.actor.role ?? '—', className: 'nowrap' },
  { header: 'Operation', cell: (event) => event.operation, className: 'mono nowrap' },
  { header: 'Target', cell: (event) => (event.target ? `${event.target.type} ${event.target.id ?? ''}` : '—'), className: 'mono optional' },
  { header: 'Outcome', cell: (event) => `${event.outcome} (${event.status})`, className: 'nowrap' },
  { header: 'Address', cell: (event) => event.sourceAddress ?? '—', className: 'mono nowrap optional' },
];
