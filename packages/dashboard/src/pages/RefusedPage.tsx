import type { FormEvent } from 'react';
import { listLicenseKeys, listRejections, type Client, type LicenseKeyInfo } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { pageCaption } from '../format.js';
import { REASONS } from '../refusals.js';
import { hrefOf, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { useStateFrom } from '../use-state-from.js';
import { Status } from '../components/Status.js';
import { keyColumn, REFUSAL_COLUMNS, refusalKey } from '../components/RefusalColumns.js';
import { Table } from '../components/Table.js';

const PAGE_SIZE = 50;

/** Refused uploads and license checks: which hosts are losing reports, and why. Newest day first, paged. */
export function RefusedPage({ client, route, onUnauthorized }: { client: Client; route: Extract<Route, { page: 'refused' }>; onUnauthorized(): void }) {
  const [loaded] = useLoad(
    async () => {
      const query = { limit: PAGE_SIZE, offset: route.offset, reason: route.reason, hostId: route.hostId };
      const [page, keys] = await Promise.all([data(listRejections({ client, query })), data(listLicenseKeys({ client }))]);
      return { page, keys: new Map(keys.items.map((key) => [key.id, key])) };
    },
    hrefOf(route),
    onUnauthorized,
  );
  const [hostId, setHostId] = useStateFrom(route.hostId, () => route.hostId ?? '');
  const filter = (reason: string) => (window.location.hash = hrefOf({ ...route, reason: reason || undefined, offset: 0 }));
  const search = (event: FormEvent) => {
    event.preventDefault();
    window.location.hash = hrefOf({ ...route, hostId: hostId.trim() || undefined, offset: 0 });
  };
  return (
    <section aria-labelledby="refused-title">
      <h1 id="refused-title" tabIndex={-1}>
        Refused uploads
      </h1>
      <p className="hint">
        Lynis prints <code>DONE</code> even when the server refused its upload: these hosts are losing reports. Counted per day (UTC), written every few
        seconds.
      </p>
      <form className="filters" onSubmit={search}>
        <label htmlFor="reason-filter">Reason</label>
        <select id="reason-filter" value={route.reason ?? ''} onChange={(event) => filter(event.target.value)}>
          <option value="">Any reason</option>
          {Object.entries(REASONS).map(([reason, meaning]) => (
            <option key={reason} value={reason}>
              {reason} ({meaning})
            </option>
          ))}
        </select>
        <label htmlFor="refused-host-filter">Host id</label>
        <input id="refused-host-filter" className="mono" value={hostId} onChange={(event) => setHostId(event.target.value)} />
        <button type="submit">Search</button>
      </form>
      <Status loaded={loaded} />
      {loaded.state === 'ready' && (
        <Table
          caption={pageCaption('Refusals', loaded.value.page, 'No refused uploads or license checks.')}
          columns={columns(loaded.value.keys)}
          rows={loaded.value.page.items}
          rowKey={refusalKey}
          paging={{ route, pageSize: PAGE_SIZE, total: loaded.value.page.total, label: 'Pages of refusals' }}
        />
      )}
    </section>
  );
}

/** Every refusal's day, host id, key, request, reason, count, time and addresses. */
function columns(keys: Map<string, LicenseKeyInfo>) {
  const { day, hostId, request, reason, count, lastAt, addresses } = REFUSAL_COLUMNS;
  return [day, hostId, keyColumn(keys, 'nowrap'), request, reason, count, lastAt, addresses];
}
