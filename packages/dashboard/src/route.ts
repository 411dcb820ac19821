import { useEffect, useState } from 'react';
import type { DeliveryStatus } from '@org/audit-client/sdk';

/** Columns the hosts list can be sorted by, as the contract names them. */
export const HOST_SORTS = ['lastSeen', 'hostname', 'hardeningIndex', 'warnings'] as const;
export type HostSort = (typeof HOST_SORTS)[number];
export type SortOrder = 'asc' | 'desc';
export type FindingKind = 'warning' | 'suggestion';
/** Statuses a webhook's delivery log can be filtered by, as the contract names them. */
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

/** The filters and order of the hosts list; every one lives in the URL, so a filtered list survives reload and can be linked. */
export interface HostFilters {
  hostname?: string;
  keyId?: string;
  group?: string;
  tag?: string;
  os?: string;
  finding?: string;
  findingKind?: FindingKind;
  /** Only hosts without a report for this many days (the API's `seenBefore`, counted from when the page loads). */
  stale?: number;
  sort?: HostSort;
  order?: SortOrder;
}

/** The dashboard's pages, addressed by the URL's fragment (`#/hosts/<id>`), so the server serves one file. */
export type Route =
  | { page: 'overview'; stale?: number }
  | ({ page: 'hosts'; offset: number } & HostFilters)
  | { page: 'host'; id: string }
  | { page: 'host-report'; id: string }
  | { page: 'findings'; kind?: FindingKind; testId?: string; offset: number }
  | { page: 'raw-report'; id: string }
  | { page: 'report-diff'; id: string; against?: string }
  | { page: 'keys' }
  | { page: 'policies' }
  | { page: 'webhooks' }
  | { page: 'webhook'; id: string; status?: DeliveryStatus; offset: number }
  | { page: 'refused'; reason?: string; hostId?: string; offset: number };

/** Most days a "stale" filter may name (the contract's bound of `staleDays`). */
const MAX_STALE_DAYS = 3650;

/** Reads a fragment such as `#/hosts?group=web&offset=50`; anything unknown is the overview. */
export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean).map(safeDecode);
  const text = (name: string) => params.get(name) || undefined;
  const offset = wholeNumber(params.get('offset')) ?? 0;
  const stale = wholeNumber(params.get('stale'));
  const staleDays = stale !== undefined && stale >= 1 && stale <= MAX_STALE_DAYS ? stale : undefined;
  if (parts[0] === 'hosts' && parts[1] && parts[2] === 'print') return { page: 'host-report', id: parts[1] };
  if (parts[0] === 'hosts' && parts[1]) return { page: 'host', id: parts[1] };
  if (parts[0] === 'reports' && parts[1] && parts[2] === 'raw') return { page: 'raw-report', id: parts[1] };
  if (parts[0] === 'reports' && parts[1] && parts[2] === 'diff') return { page: 'report-diff', id: parts[1], against: text('against') };
  if (parts[0] === 'keys') return { page: 'keys' };
  if (parts[0] === 'policies') return { page: 'policies' };
  if (parts[0] === 'webhooks' && parts[1]) {
    const status = params.get('status');
    return { page: 'webhook', id: parts[1], status: DELIVERY_STATUSES.find((name) => name === status), offset };
  }
  if (parts[0] === 'webhooks') return { page: 'webhooks' };
  if (parts[0] === 'refused') return { page: 'refused', reason: text('reason'), hostId: text('hostId'), offset };
  if (parts[0] === 'findings') return { page: 'findings', kind: findingKind(params.get('kind')), testId: text('test'), offset };
  if (parts[0] === 'hosts') {
    const sort = params.get('sort');
    const order = params.get('order');
    return {
      page: 'hosts',
      hostname: text('hostname'),
      keyId: text('key'),
      group: text('group'),
      tag: text('tag'),
      os: text('os'),
      finding: text('finding'),
      findingKind: findingKind(params.get('kind')),
      stale: staleDays,
      sort: HOST_SORTS.find((name) => name === sort),
      order: order === 'asc' || order === 'desc' ? order : undefined,
      offset,
    };
  }
  return { page: 'overview', stale: staleDays };
}

/** The fragment of a route, for links. Parameters are encoded, so nothing a host wrote can leave the fragment. */
export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'overview':
      return `#/${withQuery({ stale: route.stale })}`;
    case 'host':
      return `#/hosts/${encodeURIComponent(route.id)}`;
    case 'host-report':
      return `#/hosts/${encodeURIComponent(route.id)}/print`;
    case 'raw-report':
      return `#/reports/${encodeURIComponent(route.id)}/raw`;
    case 'report-diff':
      return `#/reports/${encodeURIComponent(route.id)}/diff${withQuery({ against: route.against })}`;
    case 'keys':
      return '#/keys';
    case 'policies':
      return '#/policies';
    case 'webhooks':
      return '#/webhooks';
    case 'webhook':
      return `#/webhooks/${encodeURIComponent(route.id)}${withQuery({ status: route.status, offset: route.offset || undefined })}`;
    case 'refused':
      return `#/refused${withQuery({ reason: route.reason, hostId: route.hostId, offset: route.offset || undefined })}`;
    case 'findings':
      return `#/findings${withQuery({ kind: route.kind, test: route.testId, offset: route.offset || undefined })}`;
    case 'hosts':
      return `#/hosts${withQuery({
        hostname: route.hostname,
        key: route.keyId,
        group: route.group,
        tag: route.tag,
        os: route.os,
        finding: route.finding,
        kind: route.findingKind,
        stale: route.stale,
        sort: route.sort,
        order: route.order,
        offset: route.offset || undefined,
      })}`;
  }
}

/** The hosts list with these filters, from its first page. */
export const hostsRoute = (filters: HostFilters = {}): Route => ({ page: 'hosts', offset: 0, ...filters });

/** `?a=1&b=2` of the values given, or nothing. */
function withQuery(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== '') params.set(name, String(value));
  const query = params.toString();
  return query ? `?${query}` : '';
}

function wholeNumber(value: string | null): number | undefined {
  if (value === null || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}

function findingKind(value: string | null): FindingKind | undefined {
  return value === 'warning' || value === 'suggestion' ? value : undefined;
}

/** A path segment decoded, or as it is when it is no valid encoding (a hand-edited URL must not throw). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The current route, following the fragment as it changes. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}
