import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { exportHosts, listHosts, listLicenseKeys, type Client, type ListHostsData } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { ExportButtons } from '../components/ExportButtons.js';
import { When } from '../components/When.js';
import { hostsRoute, hrefOf, type FindingKind, type HostFilters, type HostSort, type Route } from '../route.js';
import { useLoad } from '../use-load.js';
import { Labels } from '../components/Labels.js';
import { Status } from '../components/Status.js';
import { Pager } from '../components/Pager.js';

const PAGE_SIZE = 50;
const DAY_MS = 86_400_000;
/** Choices of the "without a report for" filter, in days; a link may name any other number. */
const STALE_CHOICES = [1, 3, 7, 14, 30, 90];

type HostsRoute = Extract<Route, { page: 'hosts' }>;

/** The query of the hosts list for a route: its filters as the contract names them, "stale" counted from now. */
function queryOf(route: HostsRoute): NonNullable<ListHostsData['query']> {
  return {
    limit: PAGE_SIZE,
    offset: route.offset,
    hostname: route.hostname,
    keyId: route.keyId,
    group: route.group,
    tag: route.tag,
    os: route.os,
    finding: route.finding,
    findingKind: route.finding ? route.findingKind : undefined,
    seenBefore: route.stale ? new Date(Date.now() - route.stale * DAY_MS).toISOString() : undefined,
    sort: route.sort,
    order: route.order,
  };
}

/** Every host, filtered and sorted by the server, paged; every filter and the order live in the URL. */
export function HostsPage({ client, route, onUnauthorized }: { client: Client; route: HostsRoute; onUnauthorized(): void }) {
  const [loaded] = useLoad(
    async () => {
      const [hosts, keys] = await Promise.all([data(listHosts({ client, query: queryOf(route) })), data(listLicenseKeys({ client }))]);
      return { hosts, keys: keys.items };
    },
    hrefOf(route),
    onUnauthorized,
  );
  const keys = loaded.state === 'ready' ? loaded.value.keys : [];
  const filtered = route.hostname || route.keyId || route.group || route.tag || route.os || route.finding || route.stale;
  return (
    <section aria-labelledby="hosts-title">
      <h1 id="hosts-title">Hosts</h1>
      <ExportButtons
        label="Every host, whatever the filters, with its hardening index, findings and compliance"
        name="hosts"
        request={(format) => exportHosts({ client, query: { format }, parseAs: 'blob' })}
        onUnauthorized={onUnauthorized}
      />
      <FilterForm route={route} keys={keys} />
      <ActiveFilters route={route} keys={keys} />
      <Status loaded={loaded} />
      {loaded.state === 'ready' && (
        <>
          <div className="table-scroll">
            <table className="hosts">
              <caption>
                {loaded.value.hosts.total === 0
                  ? filtered
                    ? 'No host matches these filters.'
                    : 'No host has uploaded a report yet.'
                  : `Hosts ${loaded.value.hosts.offset + 1}–${loaded.value.hosts.offset + loaded.value.hosts.items.length} of ${loaded.value.hosts.total}`}
              </caption>
              <thead>
                <tr>
                  <SortHeader route={route} sort="hostname">Host name</SortHeader>
                  <th scope="col">Groups and tags</th>
                  <th scope="col">Operating system</th>
                  <SortHeader route={route} sort="hardeningIndex" number>Hardening index</SortHeader>
                  <SortHeader route={route} sort="warnings" number>Warnings</SortHeader>
                  <th scope="col">Compliance</th>
                  <th scope="col" className="number optional">Reports</th>
                  <SortHeader route={route} sort="lastSeen">Last seen</SortHeader>
                </tr>
              </thead>
              <tbody>
                {loaded.value.hosts.items.map((host) => (
                  <tr key={host.id}>
                    <td>
                      <a href={hrefOf({ page: 'host', id: host.id })}>{host.hostname ?? '(no host name)'}</a>
                      {host.hostnameAlias && <span className="sub">{host.hostnameAlias}</span>}
                      <span className="sub mono" title={host.hostId}>{host.hostId.slice(0, 12)}…</span>
                      {host.identityChange && (
                        <span className="flag" title={`hostid2 ${host.identityChange.previousHostId2 ?? '(none)'} → ${host.identityChange.hostId2 ?? '(none)'}`}>
                          Identity changed{host.identityChange.refused ? ', reports refused' : ''}
                        </span>
                      )}
                    </td>
                    <td><Labels host={host} /></td>
                    <td>
                      {host.os ? (
                        <a className="quiet" href={hrefOf(hostsRoute({ os: host.os }))} title="Hosts with this operating system">
                          {host.os}
                        </a>
                      ) : '—'}
                    </td>
                    <td className="number">{host.latestHardeningIndex ?? '—'}</td>
                    <td className="number">{host.latestWarningCount ?? '—'}</td>
                    <td className={`status-${host.compliance}`}>{host.compliance}</td>
                    <td className="number optional">{host.reportCount}</td>
                    <td><When time={host.lastSeen} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager route={route} pageSize={PAGE_SIZE} total={loaded.value.hosts.total} label="Pages of hosts" />
        </>
      )}
    </section>
  );
}

/** The filters as a form; submitting it moves to the first page of the filtered list (the order is kept). */
function FilterForm({ route, keys }: { route: HostsRoute; keys: { id: string; label: string | null; prefix: string }[] }) {
  const fromRoute = () => ({
    hostname: route.hostname ?? '',
    keyId: route.keyId ?? '',
    group: route.group ?? '',
    tag: route.tag ?? '',
    os: route.os ?? '',
    finding: route.finding ?? '',
    findingKind: route.findingKind ?? '',
    stale: route.stale ? String(route.stale) : '',
  });
  const [form, setForm] = useState(fromRoute);
  // Another link (a chip, Back) changes the route: the form shows its filters.
  useEffect(() => setForm(fromRoute()), [hrefOf(route)]); // eslint-disable-line react-hooks/exhaustive-deps
  const field = (name: keyof typeof form) => ({
    id: `host-filter-${name}`,
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const given = (value: string) => value.trim() || undefined;
    window.location.hash = hrefOf(
      hostsRoute({
        hostname: given(form.hostname),
        keyId: given(form.keyId),
        group: given(form.group),
        tag: given(form.tag),
        os: given(form.os),
        finding: given(form.finding),
        findingKind: given(form.finding) ? ((form.findingKind || undefined) as FindingKind | undefined) : undefined,
        stale: form.stale ? Number(form.stale) : undefined,
        sort: route.sort,
        order: route.order,
      }),
    );
  };
  const staleChoices = route.stale && !STALE_CHOICES.includes(route.stale) ? [...STALE_CHOICES, route.stale].sort((a, b) => a - b) : STALE_CHOICES;
  return (
    <form className="filter-grid" role="search" aria-label="Filter hosts" onSubmit={submit}>
      <div className="field">
        <label htmlFor="host-filter-hostname">Host name contains</label>
        <input {...field('hostname')} />
      </div>
      <div className="field">
        <label htmlFor="host-filter-group">Group</label>
        <input {...field('group')} placeholder="exact, e.g. webservers" />
      </div>
      <div className="field">
        <label htmlFor="host-filter-tag">Tag</label>
        <input {...field('tag')} placeholder="exact, e.g. production" />
      </div>
      <div className="field">
        <label htmlFor="host-filter-os">Operating system</label>
        <input {...field('os')} placeholder="exact, as listed" />
      </div>
      <div className="field">
        <label htmlFor="host-filter-finding">Finding (test id)</label>
        <input {...field('finding')} className="mono" placeholder="e.g. PKGS-7392" />
      </div>
      <div className="field">
        <label htmlFor="host-filter-findingKind">Finding is a</label>
        <select {...field('findingKind')}>
          <option value="">either kind</option>
          <option value="warning">warning</option>
          <option value="suggestion">suggestion</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="host-filter-keyId">License key</label>
        <select {...field('keyId')}>
          <option value="">any key</option>
          {route.keyId && !keys.some((key) => key.id === route.keyId) && <option value={route.keyId}>{route.keyId}</option>}
          {keys.map((key) => (
            <option key={key.id} value={key.id}>
              {key.label ?? '(no label)'} · {key.prefix}…
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="host-filter-stale">Without a report for</label>
        <select {...field('stale')}>
          <option value="">any time</option>
          {staleChoices.map((days) => (
            <option key={days} value={String(days)}>
              {days === 1 ? 'a day or more' : `${days} days or more`}
            </option>
          ))}
        </select>
      </div>
      <div className="field actions">
        <button type="submit">Search</button>
        {hrefOf(route) !== hrefOf(hostsRoute({ sort: route.sort, order: route.order })) && (
          <a href={hrefOf(hostsRoute({ sort: route.sort, order: route.order }))}>Clear filters</a>
        )}
      </div>
    </form>
  );
}

/** The filters in force, each with a link that drops it. */
function ActiveFilters({ route, keys }: { route: HostsRoute; keys: { id: string; label: string | null; prefix: string }[] }) {
  const key = keys.find((k) => k.id === route.keyId);
  const keyText = key ? `${key.label ?? '(no label)'} · ${key.prefix}…` : route.keyId;
  const candidates: Array<[name: keyof HostFilters, text: string | false | undefined]> = [
    ['hostname', route.hostname && `host name contains “${route.hostname}”`],
    ['group', route.group && `group ${route.group}`],
    ['tag', route.tag && `tag ${route.tag}`],
    ['os', route.os && `operating system ${route.os}`],
    ['finding', route.finding && `${route.findingKind ?? 'finding'} ${route.finding}`],
    ['keyId', route.keyId && `key ${keyText}`],
    ['stale', route.stale !== undefined && `no report for ${route.stale === 1 ? 'a day' : `${route.stale} days`}`],
  ];
  const active = candidates.filter((entry): entry is [keyof HostFilters, string] => typeof entry[1] === 'string' && entry[1] !== '');
  if (active.length === 0) return null;
  return (
    <ul className="chips active-filters" aria-label="Filters in force">
      {active.map(([name, text]) => (
        <li key={name}>
          <span className="chip chip-filter">
            {text}
            <a href={hrefOf({ ...route, [name]: undefined, ...(name === 'finding' ? { findingKind: undefined } : {}), offset: 0 })} aria-label={`Remove the filter ${text}`}>
              ×
            </a>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A column heading that sorts the list by its column; selecting the sorted column again reverses the order. */
function SortHeader({ route, sort, number, children }: { route: HostsRoute; sort: HostSort; number?: boolean; children: ReactNode }) {
  const current = route.sort ?? 'lastSeen';
  const order = route.order ?? 'desc';
  const sorted = current === sort;
  // A new column starts A–Z for names, highest or newest first for the others.
  const next = sorted ? (order === 'desc' ? 'asc' : 'desc') : sort === 'hostname' ? 'asc' : 'desc';
  const target = hrefOf({ ...route, sort: sort === 'lastSeen' ? undefined : sort, order: (sort === 'lastSeen' && next === 'desc') ? undefined : next, offset: 0 });
  return (
    <th scope="col" className={number ? 'number' : undefined} aria-sort={sorted ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <a className="sort" href={target}>
        {children}
        <span aria-hidden="true" className="sort-mark">{sorted ? (order === 'asc' ? '\u00a0▲' : '\u00a0▼') : '\u00a0↕'}</span>
      </a>
    </th>
  );
}
