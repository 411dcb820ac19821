import { useEffect, useRef, useState } from 'react';
import { exportHosts, listHosts, listLicenseKeys, listPolicies, type Client, type Host, type HostPage, type LicenseKeyInfo } from '@org/audit-client/sdk';
import { data } from '../api.js';
import { pageCaption } from '../format.js';
import { BulkActions } from '../components/BulkActions.js';
import { ExportButtons } from '../components/ExportButtons.js';
import { ActiveFilters, HostFilterForm } from '../components/HostFilterForm.js';
import { When } from '../components/When.js';
import { HOST_PAGE_SIZES, hostsRoute, hrefOf, type HostSort } from '../route.js';
import { activeFilters, filterScopeOf, hostsFilterQuery, hostsPageSize, hostsQuery, PAST_FILTERS, type HostsRoute } from '../host-filters.js';
import { AsOf } from '../components/AsOf.js';
import { isSelected, NO_SELECTION, pageSelection, selectedCount, toggleHost, togglePage, type Selection } from '../host-selection.js';
import { useLoad } from '../use-load.js';
import { useStateFrom } from '../use-state-from.js';
import { Labels } from '../components/Labels.js';
import { HostStateBadge } from '../components/HostState.js';
import { Status } from '../components/Status.js';
import { Table, type Column } from '../components/Table.js';

/**
 * Every host, filtered and sorted by the server, paged; every filter and the order live in the URL. Hosts can be
 * selected (some by id, or all matching the filters) for bulk actions; a selection holds while the filters stay.
 */
export function HostsPage({ client, route, onUnauthorized }: { client: Client; route: HostsRoute; onUnauthorized(): void }) {
  const [loaded, reload] = useLoad(
    async () => {
      const [hosts, keys] = await Promise.all([data(listHosts({ client, query: hostsQuery(route, Date.now()) })), data(listLicenseKeys({ client }))]);
      return { hosts, keys: keys.items };
    },
    hrefOf(route),
    onUnauthorized,
  );
  // Loaded once: the failing-policy chip's name and the rules a selection can accept.
  const [policiesLoaded] = useLoad(async () => (await data(listPolicies({ client }))).items, 'policies', onUnauthorized);
  const policies = policiesLoaded.state === 'ready' ? policiesLoaded.value : [];
  const [selection, setSelection] = useStateFrom(filterScopeOf(route), () => NO_SELECTION);
  // What the last bulk action did, until the list moves elsewhere.
  const [announced, setAnnounced] = useStateFrom(hrefOf(route), () => '');
  const status = useRef<HTMLParagraphElement>(null);
  // The keys last loaded: the key filter and its chip keep naming them while the list loads again.
  const [keys, setKeys] = useState<LicenseKeyInfo[]>([]);
  if (loaded.state === 'ready' && loaded.value.keys !== keys) setKeys(loaded.value.keys);
  const filtered = activeFilters(route, { keys }).length > 0;
  // As of a past day the list takes only some filters; the others stay in the URL for when it is back to now.
  const setAside = route.at ? activeFilters(route, { keys, policies }).filter(([name]) => !PAST_FILTERS.includes(name)) : [];
  const bulkDone = (message: string) => {
    setSelection(NO_SELECTION);
    setAnnounced(message);
    reload();
    // The bar that had focus is gone: the announcement takes it, and screen readers read it.
    setTimeout(() => status.current?.focus());
  };
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
      <AsOf at={route.at} hrefAt={(at) => hrefOf({ ...route, at, offset: 0 })} what="the hosts" />
      <HostFilterForm route={route} keys={keys} client={client} onUnauthorized={onUnauthorized} />
      <ActiveFilters route={route} names={{ keys, policies }} />
      {setAside.length > 0 && (
        <p className="hint" role="note">
          Set aside as of a past day, as they filter on what hosts are now: {setAside.map(([, text]) => text).join('; ')}.
        </p>
      )}
      <p className="bulk-status" role="status" tabIndex={-1} ref={status}>
        {announced}
      </p>
      <Status loaded={loaded} />
      {loaded.state === 'ready' && (
        <>
          {/* Bulk actions change the hosts as they are now: not offered on a past list. */}
          {!route.at && (
            <BulkActions
              client={client}
              route={route}
              matching={loaded.value.hosts.total}
              selection={selection}
              onSelect={setSelection}
              policies={policies}
              onDone={bulkDone}
              onUnauthorized={onUnauthorized}
            />
          )}
          <HostsTable route={route} hosts={loaded.value.hosts} filtered={filtered} selection={selection} onSelect={setSelection} />
        </>
      )}
    </section>
  );
}

/** A page of the hosts list, its checkboxes showing the selection, and its pager. */
function HostsTable({
  route,
  hosts,
  filtered,
  selection,
  onSelect,
}: {
  route: HostsRoute;
  hosts: HostPage;
  filtered: boolean;
  selection: Selection;
  onSelect(selection: Selection): void;
}) {
  const pageIds = hosts.items.map((host) => host.id);
  return (
    <Table
      className="hosts"
      scroll
      caption={pageCaption('Hosts', hosts, filtered ? 'No host matches these filters.' : 'No host has uploaded a report yet.')}
      columns={hostColumns(route, { selection, onSelect, pageIds, matching: hosts.total })}
      rows={hosts.items}
      rowKey={(host) => host.id}
      paging={{
        route,
        pageSize: hostsPageSize(route),
        total: hosts.total,
        label: 'Pages of hosts',
        // Another size keeps the first host shown on the page shown.
        sizes: { choices: HOST_PAGE_SIZES, hrefOf: (size) => hrefOf({ ...route, size, offset: Math.floor(route.offset / size) * size }) },
      }}
    />
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

/** The selection of the hosts list, as its checkboxes show and change it. */
interface Selecting {
  selection: Selection;
  onSelect(selection: Selection): void;
  /** The ids of the hosts of the page shown. */
  pageIds: string[];
  /** Hosts matching the filters, all pages. */
  matching: number;
}

/** The columns of the hosts list; five of them sort it. The first holds each host's checkbox, its heading the page's. */
function hostColumns(route: HostsRoute, selecting: Selecting): Column<Host>[] {
  const past = route.at !== undefined;
  return [
    {
      header: 'Host name',
      headerControl: past ? undefined : <PageCheckbox {...selecting} />,
      sort: sortOf(route, 'hostname'),
      cell: (host) => (
        <>
          {!past && <HostCheckbox host={host} {...selecting} />}
          <HostName host={host} past={past} />
        </>
      ),
    },
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
    // Compliance then is not sortable: the API sorts by compliance now only.
    {
      header: 'Compliance',
      sort: past ? undefined : sortOf(route, 'compliance'),
      cellClassName: (host) => `status-${host.compliance}`,
      cell: (host) => host.compliance,
    },
    { header: 'Reports', className: 'number optional', cell: (host) => host.reportCount },
    { header: 'Last seen', sort: sortOf(route, 'lastSeen'), cell: (host) => <When time={host.lastSeen} /> },
  ];
}

/**
 * A host's name (a link to its page), alias, short hostid, its state when it is not active (a badge under the name
 * rather than a column: the list has no room for another at 1280 px; not on a past list) and a flag when its
 * identity changed.
 */
function HostName({ host, past }: { host: Host; past: boolean }) {
  return (
    <>
      <a href={hrefOf({ page: 'host', id: host.id })}>{host.hostname ?? '(no host name)'}</a>
      {host.hostnameAlias && <span className="sub">{host.hostnameAlias}</span>}
      <span className="sub mono" title={host.hostId}>
        {host.hostId.slice(0, 12)}…
      </span>
      {/* Host states are kept now only: a past list shows none. */}
      {host.state !== 'active' && !past && (
        <span className="host-state-flag">
          <HostStateBadge host={host} />
        </span>
      )}
      {host.identityChange && (
        <span className="flag" title={`hostid2 ${host.identityChange.previousHostId2 ?? '(none)'} → ${host.identityChange.hostId2 ?? '(none)'}`}>
          Identity changed{host.identityChange.refused ? ', reports refused' : ''}
        </span>
      )}
    </>
  );
}

/**
 * A host's checkbox. Out of the Tab order until something is selected, so that a row keeps one Tab stop (its host's
 * name) while the list is read; the heading's checkbox starts a selection by keyboard.
 */
function HostCheckbox({ host, selection, onSelect, pageIds, matching }: Selecting & { host: Host }) {
  return (
    <input
      type="checkbox"
      className="select-host"
      checked={isSelected(selection, host.id)}
      tabIndex={selectedCount(selection, matching) > 0 ? undefined : -1}
      aria-label={`Select ${host.hostname ?? host.hostId}`}
      onChange={() => onSelect(toggleHost(selection, host.id, pageIds))}
    />
  );
}

/** The heading's checkbox: ticks the hosts of the page shown (part-ticked when some are), or unticks them. */
function PageCheckbox({ selection, onSelect, pageIds }: Selecting) {
  const state = pageSelection(selection, pageIds);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  return (
    <input
      type="checkbox"
      ref={ref}
      className="select-host"
      checked={state === 'all'}
      disabled={pageIds.length === 0}
      aria-label="Select the hosts of this page"
      onChange={() => onSelect(togglePage(selection, pageIds))}
    />
  );
}
