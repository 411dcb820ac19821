import { useEffect, useState, type FormEvent } from 'react';
import { listLicenseKeys, listRejections, type Client } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatTime } from '../format.js';
import { addressesOf, hostOf, keyOf, REASONS } from '../refusals.js';
import { hrefOf, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { Status } from '../components/Status.js';
import { Pager } from '../components/Pager.js';

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
  const [hostId, setHostId] = useState(route.hostId ?? '');
  useEffect(() => setHostId(route.hostId ?? ''), [route.hostId]);
  const filter = (reason: string) => (window.location.hash = hrefOf({ ...route, reason: reason || undefined, offset: 0 }));
  const search = (event: FormEvent) => {
    event.preventDefault();
    window.location.hash = hrefOf({ ...route, hostId: hostId.trim() || undefined, offset: 0 });
  };
  return (
    <section aria-labelledby="refused-title">
      <h1 id="refused-title">Refused uploads</h1>
      <p className="hint">
        Lynis prints <code>DONE</code> even when the server refused its upload: these hosts are losing reports. Counted per day (UTC), written
        every few seconds.
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
        <>
          <table>
            <caption>
              {loaded.value.page.total === 0
                ? 'No refused uploads or license checks.'
                : `Refusals ${loaded.value.page.offset + 1}–${loaded.value.page.offset + loaded.value.page.items.length} of ${loaded.value.page.total}`}
            </caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Host id</th>
                <th scope="col">Key</th>
                <th scope="col">Request</th>
                <th scope="col">Reason</th>
                <th scope="col" className="number">Refused</th>
                <th scope="col">Last refused</th>
                <th scope="col">Client address</th>
              </tr>
            </thead>
            <tbody>
              {loaded.value.page.items.map((item) => (
                <tr key={JSON.stringify([item.day, item.operation, item.reason, item.keyId, item.hostId, item.folded])}>
                  <td className="nowrap">{item.day}</td>
                  <td className={item.hostId === null ? 'muted' : 'mono'}>{hostOf(item)}</td>
                  <td className="nowrap">{keyOf(item.keyId, loaded.value.keys)}</td>
                  <td>{item.operation === 'uploadReport' ? 'Upload' : 'License check'}</td>
                  <td>
                    <span className="mono nowrap">{item.reason}</span>
                    {REASONS[item.reason] && <span className="muted reason-meaning">{REASONS[item.reason]}</span>}
                  </td>
                  <td className="number">{item.count}</td>
                  {/* The day is in the first column: the time of day is enough here. */}
                  <td className="nowrap">{formatTime(item.lastAt).slice(11)}</td>
                  <td className="mono addresses">{addressesOf(item)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager route={route} pageSize={PAGE_SIZE} total={loaded.value.page.total} label="Pages of refusals" />
        </>
      )}
    </section>
  );
}
