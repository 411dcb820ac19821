// The hosts list's filters: as the API query, and as the chips that show which are in force.
import type { LicenseKeyInfo, ListHostsData } from '@org/audit-client/sdk';
import { DEFAULT_HOST_PAGE_SIZE, type HostFilters, type RouteOf } from './route.js';

/** Hosts a page of the list shows: the route's choice, or 50. */
export const hostsPageSize = (route: HostsRoute): number => route.size ?? DEFAULT_HOST_PAGE_SIZE;
const DAY_MS = 86_400_000;

/** The hosts list's route: its page and its filters. */
export type HostsRoute = RouteOf<'hosts'>;

/** The query of the hosts list for a route: its filters as the contract names them, "stale" counted from `now`. */
export function hostsQuery(route: HostsRoute, now: number): NonNullable<ListHostsData['query']> {
  return { limit: hostsPageSize(route), offset: route.offset, ...hostsFilterQuery(route, now) };
}

/** The filters and order of the hosts list for a route, without its page: what the hosts export takes too. */
export function hostsFilterQuery(route: HostsRoute, now: number): Omit<NonNullable<ListHostsData['query']>, 'limit' | 'offset'> {
  return {
    hostname: route.hostname,
    keyId: route.keyId,
    hostId: route.hostId,
    group: route.group,
    tag: route.tag,
    os: route.os,
    finding: route.finding,
    findingKind: route.finding ? route.findingKind : undefined,
    seenBefore: route.stale ? new Date(now - route.stale * DAY_MS).toISOString() : undefined,
    sort: route.sort,
    order: route.order,
  };
}

/** The filters in force, each with how it reads (a key by its label and first characters when it is listed). */
export function activeFilters(route: HostsRoute, keys: Pick<LicenseKeyInfo, 'id' | 'label' | 'prefix'>[]): Array<[name: keyof HostFilters, text: string]> {
  const key = keys.find((k) => k.id === route.keyId);
  const keyText = key ? `${key.label ?? '(no label)'} · ${key.prefix}…` : route.keyId;
  const candidates: Array<[name: keyof HostFilters, text: string | false | undefined]> = [
    ['hostname', route.hostname && `host name contains “${route.hostname}”`],
    ['group', route.group && `group ${route.group}`],
    ['tag', route.tag && `tag ${route.tag}`],
    ['os', route.os && `operating system ${route.os}`],
    ['finding', route.finding && `${route.findingKind ?? 'finding'} ${route.finding}`],
    ['keyId', route.keyId && `key ${keyText}`],
    ['hostId', route.hostId && `host id ${route.hostId}`],
    ['stale', route.stale !== undefined && `no report for ${route.stale === 1 ? 'a day' : `${route.stale} days`}`],
  ];
  return candidates.filter((entry): entry is [keyof HostFilters, string] => typeof entry[1] === 'string' && entry[1] !== '');
}
