import type { FormEvent } from 'react';
import { exportHosts, listHosts, listLicenseKeys, type Client, type Host } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { pageCaption } from '../format.js';
import { ExportButtons } from '../components/ExportButtons.js';
import { When } from '../components/When.js';
import { HOST_PAGE_SIZES, hostsRoute, hrefOf, type FindingKind, type HostSort } from '../route.js';
import { activeFilters, hostsFilterQuery, hostsPageSize, hostsQuery, type HostsRoute } from '../host-filters.js';
import { useLoad } from '../use-load.js';
import { useStateFrom } from '../use-state-from.js';
import { Labels } from '../components/Labels.js';
import { Status } from '../components/Status.js';
import { Table, type Column } from '../components/Table.js';

/** Choices of the "without a report for" filter, in days; a link may name any other number. */
const STALE_CHOICES = [1, 3, 7, 14, 30, 90];

/** Every host, filtered and sorted by the server, paged; every filter and the order live in the URL. */
export function HostsPage({ client, route, onUnauthorized }: { client: Client; route: HostsRoute; onUnauthorized(): void }) {
  const [loaded] = useLoad(
    async () => {
      const [hosts, keys] = await Promise.all([data(listHosts({ client, query: hostsQuery(route, Date.now()) })), data(listLicenseKeys({ client }))]);
      return { hosts, keys: keys.items };
    },
    hrefOf(route),
    onUnauthorized,
  );
  const keys = loaded.state === 'ready' ? loaded.value.keys : [];
  const filtered = route.hostname || route.keyId || route.hostId || route.group || route.tag || route.os || route.finding || route.stale;
  return (
    <section aria-labelledby="hosts-title">
      <h1 id="hosts-title" tabIndex={-1}>
        Hosts
      </h1>
      <ExportButtons
        label="The hosts listed, all pages, with key label and failing rules"
        name="hosts"
        request={(format) => exportHosts({ client, query: { format, ...hostsFilterQuery(route, Date.now()) }, parseAs: 'stream' })}
        onUnauthorized={onUnauthorized}
      />
      <FilterForm route={route} keys={keys} />
      <ActiveFilters route={route} keys={keys} />
      <Status loaded={loaded} />
      {loaded.state === 'ready' && (
        <Table
          className="hosts"
          scroll
          caption={pageCaption('Hosts', loaded.value.hosts, filtered ? 'No host matches these filters.' : 'No host has uploaded a report yet.')}
          columns={hostColumns(route)}
          rows={loaded.value.hosts.items}
          rowKey={(host) => host.id}
          paging={{
            route,
            pageSize: hostsPageSize(route),
            total: loaded.value.hosts.total,
            label: 'Pages of hosts',
            // Another size keeps the first host shown on the page shown.
            sizes: { choices: HOST_PAGE_SIZES, hrefOf: (size) => hrefOf({ ...route, size, offset: Math.floor(route.offset / size) * size }) },
          }}
        />
      )}
    </section>
  );
}

/** The filter form's fields, filled from the route (and again when another link changes it), and its submit. */
function useFilterForm(route: HostsRoute) {
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
  const [form, setForm] = useStateFrom(hrefOf(route), fromRoute);
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
        hostId: route.hostId, // not in the form: set by a refused upload's link, dropped by its chip
        sort: route.sort,
        order: route.order,
        size: route.size,
      }),
    );
  };
  return { field, submit };
}

/** The filters as a form; submitting it moves to the first page of the filtered list (the order is kept). */
function FilterForm({ route, keys }: { route: HostsRoute; keys: { id: string; label: string | null; prefix: string }[] }) {
  const { field, submit } = useFilterForm(route);
  // Clearing the filters keeps the order and the page size.
  const unfiltered = hostsRoute({ sort: route.sort, order: route.order, size: route.size });
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
        {hrefOf(route) !== hrefOf(unfiltered) && <a href={hrefOf(unfiltered)}>Clear filters</a>}
      </div>
    </form>
  );
}

/** The filters in force, each with a link that drops it. */
function ActiveFilters({ route, keys }: { route: HostsRoute; keys: { id: string; label: string | null; prefix: string }[] }) {
  const active = activeFilters(route, keys);
  if (active.length === 0) return null;
  return (
    <ul className="chips active-filters" aria-label="Filters in force">
      {active.map(([name, text]) => (
        <li key={name}>
          <span className="chip chip-filter">
            {text}
            <a
              href={hrefOf({ ...route, [name]: undefined, ...(name === 'finding' ? { findingKind: undefined } : {}), offset: 0 })}
              aria-label={`Remove the filter ${text}`}
            >
              ×
            </a>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The sort link of a column of the hosts list; selecting the sorted column again reverses the order. */
function sortOf(route: HostsRoute, sort: HostSort): Column<Host>['sort'] {
  const current = route.sort ?? 'lastSeen';
  const order = route.order ?? 'desc';
  const sorted = current === sort;
  // A new column starts A–Z for names, highest or newest first for the others.
  const next = sorted ? (order === 'desc' ? 'asc' : 'desc') : sort === 'hostname' ? 'asc' : 'desc';
  const href = hrefOf({ ...route, sort: sort === 'lastSeen' ? undefined : sort, order: sort === 'lastSeen' && next === 'desc' ? undefined : next, offset: 0 });
  return { href, current: sorted ? order : undefined };
}

/** The columns of the hosts list; four of them sort it. */
function hostColumns(route: HostsRoute): Column<Host>[] {
  return [
    { header: 'Host name', sort: sortOf(route, 'hostname'), cell: (host) => <HostName host={host} /> },
    // The row's one Tab stop is its host's name: the groups, tags and system link elsewhere too (the host's page, the filters).
    { header: 'Groups and tags', cell: (host) => <Labels host={host} tabbable={false} /> },
    {
      header: 'Operating system',
      cell: (host) =>
        host.os ? (
          <a className="quiet" tabIndex={-1} href={hrefOf(hostsRoute({ os: host.os }))} title="Hosts with this operating system">
            {host.os}
          </a>
        ) : (
          '—'
        ),
    },
    { header: 'Hardening index', className: 'number', sort: sortOf(route, 'hardeningIndex'), cell: (host) => host.latestHardeningIndex ?? '—' },
    { header: 'Warnings', className: 'number', sort: sortOf(route, 'warnings'), cell: (host) => host.latestWarningCount ?? '—' },
    { header: 'Compliance', cellClassName: (host) => `status-${host.compliance}`, cell: (host) => host.compliance },
    { header: 'Reports', className: 'number optional', cell: (host) => host.reportCount },
    { header: 'Last seen', sort: sortOf(route, 'lastSeen'), cell: (host) => <When time={host.lastSeen} /> },
  ];
}

/** A host's name (a link to its page), alias, short hostid and a flag when its identity changed. */
function HostName({ host }: { host: Host }) {
  return (
    <>
      <a href={hrefOf({ page: 'host', id: host.id })}>{host.hostname ?? '(no host name)'}</a>
      {host.hostnameAlias && <span className="sub">{host.hostnameAlias}</span>}
      <span className="sub mono" title={host.hostId}>
        {host.hostId.slice(0, 12)}…
      </span>
      {host.identityChange && (
        <span className="flag" title={`hostid2 ${host.identityChange.previousHostId2 ?? '(none)'} → ${host.identityChange.hostId2 ?? '(none)'}`}>
          Identity changed{host.identityChange.refused ? ', reports refused' : ''}
        </span>
      )}
    </>
  );
}
