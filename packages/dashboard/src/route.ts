import type { AuditOutcome, Client, DeliveryStatus, DigestDeliveryStatus, HostComplianceState, ListHostsData } from '@org/audit-client/sdk';
import type { AdminOperationId } from './permissions.js';
import { FINDING_STATES, type TrackedFilters } from './finding-lifecycle.js';
import { DEFAULT_TREND_WINDOW, TREND_INTERVALS, TREND_WINDOWS, type TrendFilters } from './trends.js';
import { asOfDay } from './as-of.js';

/** Columns the hosts list can be sorted by, as the contract names them. */
export const HOST_SORTS = ['lastSeen', 'hostname', 'hardeningIndex', 'warnings', 'compliance'] as const;
export type HostSort = (typeof HOST_SORTS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const FINDING_KINDS = ['warning', 'suggestion'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];
/** A host's compliance as the contract names it, which the hosts list filters by. */
export const COMPLIANCE_STATES: readonly HostComplianceState[] = ['compliant', 'noncompliant', 'waived', 'unknown'];
/**
 * The lifecycle filters of the hosts list the URL can name, as the contract names them; without one the list shows
 * the API's default, `current` (active and stale hosts, decommissioned ones left out).
 */
export const HOST_STATE_FILTERS = ['active', 'stale', 'decommissioned', 'all'] as const satisfies ReadonlyArray<HostStateQuery>;
export type HostStateFilter = (typeof HOST_STATE_FILTERS)[number];
type HostStateQuery = NonNullable<NonNullable<ListHostsData['query']>['state']>;
/** Page sizes the hosts list offers (within the contract's `limit` of at most 500); 50 unless the URL names another. */
export const HOST_PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_HOST_PAGE_SIZE = 50;
/** Columns a policy's results can be sorted by, as the contract names them. */
export const POLICY_RESULT_SORTS = ['status', 'hostname', 'since', 'rule'] as const;
export type PolicyResultSort = (typeof POLICY_RESULT_SORTS)[number];
/** Statuses a policy's results can be filtered by (`any`: every status); the failures unless the URL names another. */
export const POLICY_RESULT_STATUSES = ['fail', 'error', 'waived', 'pass', 'any'] as const;
export type PolicyResultStatus = (typeof POLICY_RESULT_STATUSES)[number];
/** Page sizes of a policy's results; 25 unless the URL names another. */
export const POLICY_RESULT_PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_POLICY_RESULT_PAGE_SIZE = 25;
/** The outcomes the audit trail can be filtered by, as the contract names them. */
export const AUDIT_OUTCOMES: readonly AuditOutcome[] = ['success', 'failure', 'denied'];
/** The audit trail's filters; each lives in the URL. */
export interface AuditFilters {
  actor?: string;
  operation?: string;
  outcome?: AuditOutcome;
}
/** Statuses a webhook's delivery log can be filtered by, as the contract names them. */
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

/** Statuses the digests issued can be filtered by, as the contract names them. */
export const DIGEST_STATUSES: readonly DigestDeliveryStatus[] = ['pending', 'sent', 'failed', 'skipped'];

/** The filters and order of the hosts list; every one lives in the URL, so a filtered list survives reload and can be linked. */
export interface HostFilters {
  hostname?: string;
  keyId?: string;
  /** Only hosts that sent this `hostid` (exact): where a refused upload's host id links. */
  hostId?: string;
  group?: string;
  tag?: string;
  os?: string;
  finding?: string;
  findingKind?: FindingKind;
  /** Only hosts without a report for this many days (the API's `seenBefore`, counted from when the page loads). */
  stale?: number;
  compliance?: HostComplianceState;
  /** Only hosts in this lifecycle state (`all`: every host); none is the API's default, active and stale hosts. */
  state?: HostStateFilter;
  /** Only hosts failing a rule of this policy (its id) that no waiver covers: where a policy's counts link. */
  failingPolicy?: string;
  /** Only hosts failing this rule (of `failingPolicy` when given) that no waiver covers. */
  failingRule?: string;
  sort?: HostSort;
  order?: SortOrder;
  /** The past day the list shows (its end, UTC); none: now. */
  at?: string;
}

/** A page's address in the table: how its fragment reads and is written, where it sits in the navigation, its component. */
interface RouteEntry<Params> {
  /** The fragment's path, `/`-separated; `:id` stands for the route's `id`. */
  path: string;
  /** The route's parameters from the fragment's query (and the path's `:id`); a value it does not know is dropped. */
  parse(query: QueryReader, id: string): Params;
  /** The route's parameters as the fragment's query (names as the URL spells them); none when it has no query. */
  query?(params: NoInfer<Params>): QueryValues;
  /** The page's title; with `nav`, its link in the navigation, which opens the page with those parameters. */
  title: string;
  nav?: NoInfer<Params>;
  /** The link's words in the navigation, where they are shorter than the title (so that the header holds on one line). */
  navLabel?: string;
  /** The operation the page reads, when not every role may: its navigation link shows only to roles that may call it. */
  requires?: AdminOperationId;
  /** The navigation link this page is highlighted under (a host's pages under Hosts). */
  under?: string;
  /**
   * The name of the page's component: `pages/<page>.tsx` exports it under that name. Named rather than imported, so
   * that this file, which the pages link through, imports no page (that would be an import cycle); `pages.tsx` loads
   * it, and `pages.test.ts` checks that the file and its export are there.
   */
  page: `${string}Page`;
}

type QueryValues = Record<string, string | number | undefined>;

/** One entry of the table. `parse` declares the parameters' type as its return type, so that optional ones stay optional. */
const entry = <Params>(route: RouteEntry<Params>) => route;

/**
 * The dashboard's pages, addressed by the URL's fragment (`#/hosts/<id>`), so the server serves one page. Adding a
 * page is its component's file in pages/ (`pages/<Name>Page.tsx`, exporting `<Name>Page`) and one entry here, whose
 * `page` names that component; the navigation lists the entries with `nav`, in this order.
 */
export const ROUTES = {
  overview: entry({
    path: '',
    title: 'Overview',
    nav: {},
    parse: (q): { stale?: number; at?: string } => ({ stale: q.staleDays(), at: asOfDay(q.text('at')) }),
    query: (r) => ({ stale: r.stale, at: r.at }),
    page: 'OverviewPage',
  }),
  hosts: entry({
    path: 'hosts',
    title: 'Hosts',
    nav: { offset: 0 },
    parse: (q): { offset: number; size?: number } & HostFilters => ({
      hostname: q.text('hostname'),
      keyId: q.text('key'),
      hostId: q.text('hostId'),
      group: q.text('group'),
      tag: q.text('tag'),
      os: q.text('os'),
      finding: q.text('finding'),
      findingKind: q.oneOf('kind', FINDING_KINDS),
      stale: q.staleDays(),
      compliance: q.oneOf('compliance', COMPLIANCE_STATES),
      state: q.oneOf('state', HOST_STATE_FILTERS),
      failingPolicy: q.text('failingPolicy'),
      failingRule: q.text('failingRule'),
      sort: q.oneOf('sort', HOST_SORTS),
      order: q.oneOf('order', SORT_ORDERS),
      at: asOfDay(q.text('at')),
      offset: q.offset(),
      size: q.pageSize(HOST_PAGE_SIZES),
    }),
    query: (r) => ({
      hostname: r.hostname,
      key: r.keyId,
      hostId: r.hostId,
      group: r.group,
      tag: r.tag,
      os: r.os,
      finding: r.finding,
      kind: r.findingKind,
      stale: r.stale,
      compliance: r.compliance,
      state: r.state,
      failingPolicy: r.failingPolicy,
      failingRule: r.failingRule,
      sort: r.sort,
      order: r.order,
      at: r.at,
      offset: r.offset || undefined,
      size: r.size === DEFAULT_HOST_PAGE_SIZE ? undefined : r.size,
    }),
    page: 'HostsPage',
  }),
  findings: entry({
    path: 'findings',
    title: 'Findings',
    nav: { offset: 0 },
    // The grouped list by default; `view=tracked` lists each host's findings with their lifecycle, by the filters.
    parse: (q): { view?: 'tracked'; kind?: FindingKind; testId?: string; offset: number } & Omit<TrackedFilters, 'kind' | 'testId'> => ({
      view: q.oneOf('view', ['tracked'] as const),
      kind: q.oneOf('kind', FINDING_KINDS),
      testId: q.text('test'),
      states: q.listOf('state', FINDING_STATES),
      owner: q.text('owner'),
      group: q.text('group'),
      minAgeDays: q.days('age', MAX_FINDING_AGE_DAYS),
      offset: q.offset(),
    }),
    query: (r) => ({
      view: r.view,
      kind: r.kind,
      test: r.testId,
      // Only the tracked view has these filters: the grouped list's links leave them out.
      ...(r.view === 'tracked' ? { state: r.states?.join(','), owner: r.owner, group: r.group, age: r.minAgeDays } : {}),
      offset: r.offset || undefined,
    }),
    page: 'FindingsPage',
  }),
  trends: entry({
    path: 'trends',
    title: 'Trends',
    nav: {},
    parse: (q): TrendFilters => ({
      days: q.numberOf('days', TREND_WINDOWS),
      interval: q.oneOf('interval', TREND_INTERVALS),
      group: q.text('group'),
      customer: q.text('customer'),
    }),
    query: (r) => ({ days: r.days === DEFAULT_TREND_WINDOW ? undefined : r.days, interval: r.interval, group: r.group, customer: r.customer }),
    page: 'TrendsPage',
  }),
  policies: entry({
    path: 'policies',
    title: 'Policies',
    nav: {},
    parse: (): object => ({}),
    page: 'PoliciesPage',
  }),
  controls: entry({
    path: 'controls',
    title: 'Controls',
    nav: {},
    parse: (q): { framework?: string } => ({ framework: q.text('framework') }),
    query: (r) => ({ framework: r.framework }),
    page: 'ControlsPage',
  }),
  waivers: entry({
    path: 'waivers',
    title: 'Exceptions',
    nav: {},
    parse: (q): { expired?: boolean } => ({ expired: q.text('expired') === '1' || undefined }),
    query: (r) => ({ expired: r.expired ? 1 : undefined }),
    page: 'WaiversPage',
  }),
  webhooks: entry({
    path: 'webhooks',
    title: 'Webhooks',
    nav: {},
    parse: (): object => ({}),
    page: 'WebhooksPage',
  }),
  digests: entry({
    path: 'digests',
    title: 'Digests',
    nav: { offset: 0 },
    parse: (q): { status?: DigestDeliveryStatus; offset: number } => ({ status: q.oneOf('status', DIGEST_STATUSES), offset: q.offset() }),
    query: (r) => ({ status: r.status, offset: r.offset || undefined }),
    page: 'DigestsPage',
  }),
  keys: entry({ path: 'keys', title: 'Keys', nav: {}, parse: (): object => ({}), page: 'KeysPage' }),
  addHosts: entry({ path: 'add-hosts', title: 'Add hosts', nav: {}, parse: (): object => ({}), page: 'AddHostsPage' }),
  people: entry({ path: 'people', title: 'People', nav: {}, requires: 'listUsers', parse: (): object => ({}), page: 'PeoplePage' }),
  // Linked from the signed-in person's name in the header (everyone has tokens), not from the navigation.
  tokens: entry({ path: 'tokens', title: 'Tokens', parse: (): object => ({}), page: 'TokensPage' }),
  audit: entry({
    path: 'audit',
    title: 'Audit trail',
    nav: {},
    navLabel: 'Audit',
    requires: 'listAuditEvents',
    parse: (q): AuditFilters & { before?: number } => ({
      actor: q.text('actor'),
      operation: q.text('operation'),
      outcome: q.oneOf('outcome', AUDIT_OUTCOMES),
      before: q.sequence('before'),
    }),
    query: (r) => ({ actor: r.actor, operation: r.operation, outcome: r.outcome, before: r.before }),
    page: 'AuditPage',
  }),
  refused: entry({
    path: 'refused',
    title: 'Refused uploads',
    nav: { offset: 0 },
    navLabel: 'Refused',
    parse: (q): { reason?: string; hostId?: string; offset: number } => ({ reason: q.text('reason'), hostId: q.text('hostId'), offset: q.offset() }),
    query: (r) => ({ reason: r.reason, hostId: r.hostId, offset: r.offset || undefined }),
    page: 'RefusedPage',
  }),
  host: entry({
    path: 'hosts/:id',
    title: 'Host',
    under: 'hosts',
    parse: (_, id): { id: string } => ({ id }),
    page: 'HostPage',
  }),
  'host-report': entry({
    path: 'hosts/:id/print',
    title: 'Host report',
    under: 'hosts',
    parse: (_, id): { id: string } => ({ id }),
    page: 'HostReportPage',
  }),
  'raw-report': entry({
    path: 'reports/:id/raw',
    title: 'Raw report',
    under: 'hosts',
    parse: (_, id): { id: string } => ({ id }),
    page: 'RawReportPage',
  }),
  'report-diff': entry({
    path: 'reports/:id/diff',
    title: 'Report changes',
    under: 'hosts',
    parse: (q, id): { id: string; against?: string } => ({ id, against: q.text('against') }),
    query: (r) => ({ against: r.against }),
    page: 'ReportDiffPage',
  }),
  policy: entry({
    path: 'policies/:id',
    title: 'Policy',
    under: 'policies',
    parse: (
      q,
      id,
    ): {
      id: string;
      status?: PolicyResultStatus;
      rule?: string;
      hostname?: string;
      sort?: PolicyResultSort;
      order?: SortOrder;
      at?: string;
      offset: number;
      size?: number;
    } => ({
      id,
      status: q.oneOf('status', POLICY_RESULT_STATUSES),
      rule: q.text('rule'),
      hostname: q.text('hostname'),
      sort: q.oneOf('sort', POLICY_RESULT_SORTS),
      order: q.oneOf('order', SORT_ORDERS),
      at: asOfDay(q.text('at')),
      offset: q.offset(),
      size: q.pageSize(POLICY_RESULT_PAGE_SIZES),
    }),
    query: (r) => ({
      status: r.status === 'fail' ? undefined : r.status,
      rule: r.rule,
      hostname: r.hostname,
      sort: r.sort,
      order: r.order,
      at: r.at,
      offset: r.offset || undefined,
      size: r.size === DEFAULT_POLICY_RESULT_PAGE_SIZE ? undefined : r.size,
    }),
    page: 'PolicyPage',
  }),
  digest: entry({
    path: 'digests/:id',
    title: 'Digest',
    under: 'digests',
    parse: (_, id): { id: string } => ({ id }),
    page: 'DigestPage',
  }),
  webhook: entry({
    path: 'webhooks/:id',
    title: 'Webhook',
    under: 'webhooks',
    parse: (q, id): { id: string; status?: DeliveryStatus; offset: number } => ({ id, status: q.oneOf('status', DELIVERY_STATUSES), offset: q.offset() }),
    query: (r) => ({ status: r.status, offset: r.offset || undefined }),
    page: 'WebhookPage',
  }),
};

/** The name of a page of the table. */
export type Page = keyof typeof ROUTES;
type ParamsOf<P extends Page> = ReturnType<(typeof ROUTES)[P]['parse']>;
/** A page of the dashboard with its parameters, e.g. `{ page: 'host', id }`. */
export type RouteOf<P extends Page> = { page: P } & ParamsOf<P>;
/** Any page of the dashboard with its parameters. */
export type Route = { [P in Page]: RouteOf<P> }[Page];

/** What every page's component is given: the API client, its route, and what to do when the server refuses the token. */
export interface PageProps<P extends Page> {
  client: Client;
  route: RouteOf<P>;
  onUnauthorized(): void;
}

/** The table's entry of a route. */
export function entryOf<P extends Page>(route: RouteOf<P>): RouteEntry<ParamsOf<P>> {
  // TypeScript does not tie `ROUTES[route.page]` to the route's own parameters; the table's types do.
  return ROUTES[route.page] as RouteEntry<ParamsOf<P>>;
}

/** Most days a "stale" filter may name (the contract's bound of `staleDays`). */
const MAX_STALE_DAYS = 3650;
/** Most days the tracked findings' age filter may name (the contract's bound of `minAgeDays`). */
const MAX_FINDING_AGE_DAYS = 3650;

/** Reads the values of a fragment's query, dropping those it does not know. */
export class QueryReader {
  constructor(private readonly params: URLSearchParams) {}
  /** A text value; an empty one is none. */
  text(name: string): string | undefined {
    return this.params.get(name) || undefined;
  }
  /** One of the values given, or none. */
  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.params.get(name);
    return values.find((known) => known === value);
  }
  /** The known values of a comma-separated list, each once, in the order given; none when it has none. */
  listOf<T extends string>(name: string, values: readonly T[]): T[] | undefined {
    const known = (this.params.get(name) ?? '').split(',').flatMap((part) => values.filter((value) => value === part));
    return known.length > 0 ? [...new Set(known)] : undefined;
  }
  /** One of the numbers given, or none. */
  numberOf<T extends number>(name: string, values: readonly T[]): T | undefined {
    const number = wholeNumber(this.params.get(name));
    return values.find((known) => known === number);
  }
  /** A whole number of days from 0 to `max`, or none. */
  days(name: string, max: number): number | undefined {
    const days = wholeNumber(this.params.get(name));
    return days !== undefined && days <= max ? days : undefined;
  }
  /** Items of a paged list to skip (0 unless a whole number). */
  offset(): number {
    return wholeNumber(this.params.get('offset')) ?? 0;
  }
  /**
   * The page size (`size`) when it is one of those offered. It lives in the URL rather than in the browser's storage,
   * which keeps nothing but the tab's token: a reload, a link and the list's own links keep it.
   */
  pageSize(sizes: readonly number[]): number | undefined {
    const size = wholeNumber(this.params.get('size'));
    return sizes.find((offered) => offered === size);
  }
  /** A sequence of the audit trail (a whole number from 1), or none. */
  sequence(name: string): number | undefined {
    const sequence = wholeNumber(this.params.get(name));
    return sequence !== undefined && sequence >= 1 ? sequence : undefined;
  }
  /** The `stale` days, when within the contract's bounds. */
  staleDays(): number | undefined {
    const stale = wholeNumber(this.params.get('stale'));
    return stale !== undefined && stale >= 1 && stale <= MAX_STALE_DAYS ? stale : undefined;
  }
}

/** Reads a fragment such as `#/hosts?group=web&offset=50`; anything unknown is the overview. */
export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(safeDecode);
  const reader = new QueryReader(new URLSearchParams(query));
  for (const [page, route] of ROUTES_BY_LENGTH) {
    const id = matchPath(route.path, parts);
    if (id !== undefined) return { page, ...route.parse(reader, id) } as Route; // the entry of `page` parses `page`'s parameters
  }
  return { page: 'overview', ...ROUTES.overview.parse(reader, '') };
}

/** The table's entries, longest path first, so that `hosts/:id/print` is tried before `hosts/:id` and `hosts`. */
const ROUTES_BY_LENGTH = (Object.entries(ROUTES) as Array<[Page, RouteEntry<object>]>)
  .filter(([, route]) => route.path !== '')
  .sort(([, a], [, b]) => b.path.split('/').length - a.path.split('/').length);

/** The `:id` of the path's pattern when the fragment's segments start with it ('' when it has none), or undefined. */
function matchPath(pattern: string, parts: string[]): string | undefined {
  const wanted = pattern.split('/');
  let id = '';
  for (const [index, segment] of wanted.entries()) {
    const part = parts[index];
    if (!part) return undefined;
    if (segment === ':id') id = part;
    else if (segment !== part) return undefined;
  }
  return id;
}

/** The fragment of a route, for links. Parameters are encoded, so nothing a host wrote can leave the fragment. */
export function hrefOf<P extends Page>(route: RouteOf<P>): string {
  const entry = entryOf(route);
  const id = 'id' in route ? String(route.id) : '';
  const path = entry.path.replace(':id', encodeURIComponent(id));
  return `#/${path}${withQuery(entry.query?.(route) ?? {})}`;
}

/** The hosts list with these filters (and page size), from its first page. */
export const hostsRoute = (filters: HostFilters & { size?: number } = {}): Route => ({ page: 'hosts', offset: 0, ...filters });

/** `?a=1&b=2` of the values given, or nothing. */
function withQuery(values: QueryValues): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== '') params.set(name, String(value));
  const query = params.toString();
  return query ? `?${query}` : '';
}

function wholeNumber(value: string | null): number | undefined {
  if (value === null || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}

/** A path segment decoded, or as it is when it is no valid encoding (a hand-edited URL must not throw). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
