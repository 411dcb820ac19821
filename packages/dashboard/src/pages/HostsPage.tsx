import { useState, type FormEvent } from 'react';
import { listHosts, type Client } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { formatTime } from '../format.js';
import { hrefOf, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { Status } from '../components/Status.js';

const PAGE_SIZE = 50;

/** Every host, most recently seen first, searched by host name and paged by the server. */
export function HostsPage({ client, route, onUnauthorized }: { client: Client; route: Extract<Route, { page: 'hosts' }>; onUnauthorized(): void }) {
  const [search, setSearch] = useState(route.hostname ?? '');
  const [hosts] = useLoad(
    () => data(listHosts({ client, query: { limit: PAGE_SIZE, offset: route.offset, ...(route.hostname ? { hostname: route.hostname } : {}) } })),
    hrefOf(route),
    onUnauthorized,
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    window.location.hash = hrefOf({ page: 'hosts', hostname: search.trim() || undefined, offset: 0 });
  };
  return (
    <section aria-labelledby="hosts-title">
      <h1 id="hosts-title">Hosts</h1>
      <form className="filters" role="search" onSubmit={submit}>
        <label htmlFor="hostname-filter">Host name contains</label>
        <input id="hostname-filter" value={search} onChange={(event) => setSearch(event.target.value)} />
        <button type="submit">Search</button>
      </form>
      <Status loaded={hosts} />
      {hosts.state === 'ready' && (
        <>
          <table>
            <caption>
              {hosts.value.total === 0
                ? 'No host has uploaded a report yet.'
                : `Hosts ${hosts.value.offset + 1}–${hosts.value.offset + hosts.value.items.length} of ${hosts.value.total}`}
            </caption>
            <thead>
              <tr>
                <th scope="col">Host name</th>
                <th scope="col">Host id</th>
                <th scope="col">Operating system</th>
                <th scope="col" className="number">Hardening index</th>
                <th scope="col" className="number">Reports</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {hosts.value.items.map((host) => (
                <tr key={host.id}>
                  <td>
                    <a href={hrefOf({ page: 'host', id: host.id })}>{host.hostname ?? '(no host name)'}</a>
                  </td>
                  <td className="mono">{host.hostId.slice(0, 12)}…</td>
                  <td>{host.os ?? '—'}</td>
                  <td className="number">{host.latestHardeningIndex ?? '—'}</td>
                  <td className="number">{host.reportCount}</td>
                  <td>{formatTime(host.lastSeen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="pager" aria-label="Pages of hosts">
            {route.offset > 0 && <a href={hrefOf({ ...route, offset: Math.max(0, route.offset - PAGE_SIZE) })}>Previous page</a>}
            {route.offset + PAGE_SIZE < hosts.value.total && <a href={hrefOf({ ...route, offset: route.offset + PAGE_SIZE })}>Next page</a>}
          </nav>
        </>
      )}
    </section>
  );
}
