// The hosts list's filters: as the API query, and as the chips that show which are in force.
import type { HostFilterValues, LicenseKeyInfo, ListHostsData, Policy } from '@org/audit-client/sdk';
import { DEFAULT_HOST_PAGE_SIZE, hrefOf, type HostFilters, type RouteOf } from './route.js';

/** Hosts a page of the list shows: the route's choice, or 50. */
export const hostsPageSize = (route: HostsRoute): number => route.size ?? DEFAULT_HOST_PAGE_SIZE;
const DAY_MS = 86_400_000;

/** The hosts list's route: its page and its filters. */
export type HostsRoute = RouteOf<'hosts'>;

/** The query of the hosts list for a route: its filters as the contract names them, "stale" counted from `now`. */
export function hostsQuery(route: HostsRoute, now: number): NonNullable<ListHostsData['query']> {
  return { limit: hostsPageSize(route), offset: route.offset, ...hostsFilterQuery(route, now) };
}

/**
 * The filters and order of the hosts list for a route, without its page: what the hosts export takes too. As of a
 * past day (`at`) the API takes only the filters it can answer then ({@link PAST_FILTERS}): the others are set aside.
 */
export function hostsFilterQuery(route: HostsRoute, now: number): Omit<NonNullable<ListHostsData['query']>, 'limit' | 'offset'> {
  if (route.at) {
    const { hostname, keyId, hostId } = route;
    return { hostname, keyId, hostId, sort: route.sort === 'compliance' ? undefined : route.sort, order: route.order, at: route.at };
  }
  return { ...hostFilterValues(route, now), sort: route.sort, order: route.order };
}

/** The filters the list takes as of a past day: the others filter on what hosts are now. */
export const PAST_FILTERS: ReadonlyArray<keyof HostFilters> = ['hostname', 'keyId', 'hostId'];

/** The route's filters alone, as the contract names them: the hosts a bulk action on "all matching" applies to. */
export function hostFilterValues(route: HostsRoute, now: number): HostFilterValues {
  const values: HostFilterValues = {
    hostname: route.hostname,
    keyId: route.keyId,
    hostId: route.hostId,
    group: route.group,
    tag: route.tag,
    os: route.os,
    finding: route.finding,
    findingKind: route.finding ? route.findingKind : undefined,
    seenBefore: route.stale ? new Date(now - route.stale * DAY_MS).toISOString() : undefined,
    compliance: route.compliance,
    failingPolicy: route.failingPolicy,
    failingRule: route.failingRule,
    state: route.state,
  };
  // Only the filters in force: a bulk request's body names no filter it does not apply.
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/**
 * The set of hosts the route's filters make, whatever its page, order and page size: a selection of hosts holds as
 * long as this stays the same.
 */
export function filterScopeOf(route: HostsRoute): string {
  return hrefOf({ ...route, offset: 0, sort: undefined, order: undefined, size: undefined });
}

/** What the chips name a key and a policy by: the keys and policies listed, when they are. */
export interface FilterNames {
  keys: Pick<LicenseKeyInfo, 'id' | 'label' | 'prefix'>[];
  policies?: Pick<Policy, 'id' | 'name'>[];
}

/** The filters in force, each with how it reads (a key by its label and first characters, a policy by its name, when listed). */
export function activeFilters(route: HostsRoute, { keys, policies = [] }: FilterNames): Array<[name: keyof HostFilters, text: string]> {
  const key = keys.find((k) => k.id === route.keyId);
  const keyText = key ? `${key.label ?? '(no label)'} · ${key.prefix}…` : route.keyId;
  const policy = policies.find((p) => p.id === route.failingPolicy)?.name ?? route.failingPolicy;
  const candidates: Array<[name: keyof HostFilters, text: string | false | undefined]> = [
    ['hostname', route.hostname && `host name contains “${route.hostname}”`],
    ['group', route.group && `group ${route.group}`],
    ['tag', route.tag && `tag ${route.tag}`],
    ['os', route.os && `operating system ${route.os}`],
    ['finding', route.finding && `${route.findingKind ?? 'finding'} ${route.finding}`],
    ['keyId', route.keyId && `key ${keyText}`],
    ['hostId', route.hostId && `host id ${route.hostId}`],
    ['stale', route.stale !== undefined && `no report for ${route.stale === 1 ? 'a day' : `${route.stale} days`}`],
    ['compliance', route.compliance && `compliance ${route.compliance}`],
    ['state', route.state && (route.state === 'all' ? 'every state' : `state ${route.state}`)],
    ['failingPolicy', route.failingPolicy && `failing policy ${policy}`],
    ['failingRule', route.failingRule && `failing rule ${route.failingRule}${route.failingPolicy ? ` of ${policy}` : ''}`],
  ];
  return candidates.filter((entry): entry is [keyof HostFilters, string] => typeof entry[1] === 'string' && entry[1] !== '');
}

/** How the key filter's input reads a key: its label, else its first characters. */
export const keyText = (key: Pick<LicenseKeyInfo, 'label' | 'prefix'>): string => key.label ?? `${key.prefix}…`;

/**
 * The key a typed key filter names: `picked` (the suggestion taken, while its text stands), else the listed key whose
 * label, first characters or id is the text (case-insensitively). Undefined when the text is empty; null when it
 * names no listed key.
 */
export function keyIdOf(text: string, picked: string | undefined, keys: Pick<LicenseKeyInfo, 'id' | 'label' | 'prefix'>[]): string | undefined | null {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return undefined;
  if (picked) return picked;
  const named = (key: (typeof keys)[number]) => [keyText(key), key.label ?? '', key.prefix, key.id].some((name) => name.toLowerCase() === wanted);
  return keys.find(named)?.id ?? null;
}
