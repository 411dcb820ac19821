import type { Knex, QBFilterQuery, QueryBuilder, SqlEntityManager } from '@mikro-orm/knex';
import type { Host, HostComplianceState, HostDetail, HostIdentityChange, HostPage } from '../generated/types.gen.js';
import { countBound, findBound } from '../database/bound-query.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { HostRecord, ReportRecord } from '../database/entities.js';
import { fleetCompliance, hostCompliances } from '../policies/policy-results.js';
import { complianceCondition, failingCondition, type HostCondition } from './host-compliance-conditions.js';
import type { LabelKind } from './host-derivation.js';
import { hostInScope, scopeCondition } from './host-scope.js';
import { isScoped, UNSCOPED, type AccessScope } from '../people/scope.js';
import type { ListHostsData } from '../generated/types.gen.js';

/** The host property each `sort` of the contract orders by. */
const SORT_PROPERTIES = {
  lastSeen: 'lastSeen',
  hostname: 'hostname',
  hardeningIndex: 'latestHardeningIndex',
  warnings: 'latestWarningCount',
} as const satisfies Record<string, keyof HostRecord>;
/** Sorts whose column is never null: ordered plainly, so that the index on it serves either direction. */
const NEVER_NULL = new Set<string>(['lastSeen']);
type ColumnSort = keyof typeof SORT_PROPERTIES;

/** The compliances in the order of the `compliance` sort, each way: `unknown` last either way. */
const COMPLIANCE_ORDER: Record<'asc' | 'desc', HostComplianceState[]> = {
  desc: ['noncompliant', 'waived', 'compliant', 'unknown'],
  asc: ['compliant', 'waived', 'noncompliant', 'unknown'],
};

/** The filters and order of a host list: the contract's `listHosts` query without its page (the exports take the same). */
export type HostFilters = Omit<NonNullable<ListHostsData['query']>, 'limit' | 'offset'>;
/** The filters, order and page of a host list: the contract's `listHosts` query, its page given. */
export type HostQuery = HostFilters & { limit: number; offset: number };

/**
 * A host list in parts, each read in its own order one after another: one part, unless the list is sorted by
 * compliance, a value computed from the results and waivers, which no index holds. That sort is read as a part per
 * compliance, each by id (the sort's ties), so that neither a page nor the exports' keyset paging orders the fleet
 * by a computed value: a page reads the parts it overlaps, counting only those it starts after.
 */
interface HostListPart {
  filters: HostFilters;
  order: ReturnType<typeof hostOrder> | { id: 'asc' };
  /** The hosts after `last` in this part's order. */
  after(last: HostRecord): QBFilterQuery<HostRecord>;
}

/** The parts of the list these filters and order ask for, in order. */
function hostListParts(query: HostFilters): HostListPart[] {
  const sort = query.sort ?? 'lastSeen';
  if (sort !== 'compliance') return [{ filters: query, order: hostOrder(sort, query.order), after: (last) => afterHost(sort, query.order, last) }];
  return COMPLIANCE_ORDER[query.order ?? 'desc']
    .filter((state) => query.compliance === undefined || query.compliance === state)
    .map((state) => ({ filters: { ...query, compliance: state }, order: { id: 'asc' }, after: (last) => ({ id: { $gt: last.id } }) }));
}

/**
 * One page of hosts, most recently seen first unless `sort` says otherwise, filtered by host name, key, `hostid`,
 * ids, group, tag, OS, a finding of the newest report, last seen, compliance and failing rules. Every value is a
 * bound parameter. Only the hosts in `scope`, and counted among them alone.
 */
export async function hostPage(database: Database, scope: AccessScope, query: HostQuery, now = new Date()): Promise<HostPage> {
  const { limit, offset } = query;
  const em = database.em.fork();
  const parts = hostListParts(query);
  const sizes = isScoped(scope) ? undefined : await keptSizes(em, query, parts, now);
  if (parts.length === 1 && !sizes) {
    const [{ filters, order }] = parts as [HostListPart];
    const qb = filteredHosts(em, scope, filters, now);
    const page = qb.clone().orderBy(order).limit(limit).offset(offset);
    const [records, total] = await Promise.all([findBound(em, HostRecord, page), countBound(qb)]);
    return { items: await hostsOf(em, records, now), total, limit, offset };
  }
  // A part the page starts in is read without being counted (a slice that comes back short says where it ends);
  // one the page starts after is counted, unless it is the last or its size is known.
  const total = sizes ? sizes.reduce((sum, size) => sum + size, 0) : await countBound(filteredHosts(em, scope, query, now));
  const records: HostRecord[] = [];
  for (let index = 0, start = 0; index < parts.length && start < Math.min(offset + limit, total); index++) {
    const part = parts[index]!;
    const from = Math.max(offset - start, 0);
    const wanted = offset + limit - start - from;
    const size = sizes?.[index] ?? (from === 0 || index === parts.length - 1 ? undefined : await countBound(filteredHosts(em, scope, part.filters, now)));
    const found =
      size === undefined || from < size
        ? await findBound(em, HostRecord, filteredHosts(em, scope, part.filters, now).orderBy(part.order).limit(wanted).offset(from))
        : [];
    records.push(...found);
    if (found.length === wanted) break;
    start += size ?? found.length;
  }
  return { items: await hostsOf(em, records, now), total, limit, offset };
}

/**
 * The size of each part when the list is filtered by nothing but compliance: how many hosts have each compliance,
 * from the counts the evaluator keeps (waivers applied), so that no page counts the fleet's results and waivers.
 * Undefined when another filter narrows the list, or no part is of one compliance. The counts are the fleet's: a
 * scoped list never uses them.
 */
async function keptSizes(em: SqlEntityManager, query: HostFilters, parts: HostListPart[], now: Date): Promise<number[] | undefined> {
  // The kept counts are those of the hosts not decommissioned (`hosts/host-lifecycle.ts`): the default state filter's.
  const others = Object.entries(query).some(
    ([name, value]) => value !== undefined && !['compliance', 'sort', 'order', 'limit', 'offset'].includes(name) && !(name === 'state' && value === 'current'),
  );
  if (others || parts.some((part) => part.filters.compliance === undefined)) return undefined;
  const [{ hosts, evaluatedHosts }, all] = await Promise.all([
    fleetCompliance({ em }, UNSCOPED, now),
    countBound(em.createQueryBuilder(HostRecord, 'h').where({ state: { $ne: 'decommissioned' } })),
  ]);
  const kept: Record<HostComplianceState, number> = {
    noncompliant: hosts.fail + hosts.error,
    waived: hosts.waived,
    compliant: hosts.pass,
    unknown: all - evaluatedHosts,
  };
  return parts.map((part) => kept[part.filters.compliance!]);
}

/**
 * Every host the list shows with these filters, in its order, a page of records at a time: keyset paging on the
 * order's column and the id (flat memory, no offsets), part after part ({@link HostListPart}), each page read with
 * a fresh entity manager so none piles up. Only the hosts in `scope`.
 */
export async function* hostRecordPages(
  database: Database,
  scope: AccessScope,
  filters: HostFilters,
  pageSize: number,
  now = new Date(),
): AsyncGenerator<{ em: SqlEntityManager; records: HostRecord[] }> {
  for (const part of hostListParts(filters)) {
    let after: HostRecord | undefined;
    for (;;) {
      const em = database.em.fork();
      const qb = filteredHosts(em, scope, part.filters, now);
      if (after) qb.andWhere(part.after(after));
      const records = await findBound(em, HostRecord, qb.orderBy(part.order).limit(pageSize));
      if (records.length > 0) yield { em, records };
      if (records.length < pageSize) break;
      after = records.at(-1)!;
    }
  }
}

/** The ids of the hosts in `scope` the list shows with these filters, as a subquery (for the rows of those hosts only). */
export function filteredHostIds(database: Database, scope: AccessScope, filters: HostFilters, now = new Date()): Knex.QueryBuilder {
  return filteredHosts(database.em.fork(), scope, filters, now).select('h.id').getKnexQuery();
}

/**
 * Hosts (`h`) in `scope` matching the list's filters: the one where-clause the list, its count and the exports share.
 * Groups, tags and the OS compare lowered on both sides, as the indexes on their lowered values hold them.
 */
function filteredHosts(em: SqlEntityManager, scope: AccessScope, query: HostFilters, now: Date): QueryBuilder<HostRecord> {
  const qb = em.createQueryBuilder(HostRecord, 'h');
  const where = (condition: HostCondition) => qb.andWhere(condition.sql, condition.bindings);
  const inScope = scopeCondition(em.getKnex(), scope, 'h.id');
  if (inScope) where(inScope);
  if (query.ids !== undefined) qb.andWhere({ id: { $in: query.ids } });
  // Decommissioned hosts are listed only when asked for (`Host.state`).
  const state = query.state ?? 'current';
  if (state === 'current') qb.andWhere({ state: { $ne: 'decommissioned' } });
  else if (state !== 'all') qb.andWhere({ state });
  if (query.keyId !== undefined) qb.andWhere({ key: query.keyId });
  if (query.hostId !== undefined) qb.andWhere({ hostId: query.hostId });
  if (query.hostname !== undefined) {
    const { sql, bindings } = sqlDialectOf(em).containsIgnoringCase('h.hostname', query.hostname);
    qb.andWhere(sql, bindings);
  }
  for (const kind of ['group', 'tag'] as const satisfies LabelKind[]) {
    const value = query[kind];
    if (value === undefined) continue;
    qb.andWhere('h.id in (select l.host_record_id from host_label l where l.kind = ? and lower(l.value) = lower(?))', [kind, value]);
  }
  if (query.os !== undefined) qb.andWhere('lower(h.os_name) = lower(?)', [query.os]);
  if (query.finding !== undefined) {
    if (query.findingKind === undefined) {
      qb.andWhere('h.id in (select f.host_record_id from host_finding f where f.test_id = ?)', [query.finding]);
    } else {
      qb.andWhere('h.id in (select f.host_record_id from host_finding f where f.test_id = ? and f.kind = ?)', [query.finding, query.findingKind]);
    }
  }
  if (query.seenBefore !== undefined) qb.andWhere({ lastSeen: { $lt: new Date(query.seenBefore) } });
  if (query.compliance !== undefined) where(complianceCondition(em, query.compliance, now));
  if (query.failingPolicy !== undefined || query.failingRule !== undefined) {
    where(failingCondition(em, { policyId: query.failingPolicy, ruleId: query.failingRule }, now));
  }
  return qb;
}

/** The list's order by a column: the `sort` column (nulls last), then the id. */
function hostOrder(sort: ColumnSort, order: 'asc' | 'desc' = 'desc') {
  // `nulls last` as an ORM order (`QueryOrder.DESC_NULLS_LAST`): each dialect's platform writes it in its own SQL.
  return { [SORT_PROPERTIES[sort]]: NEVER_NULL.has(sort) ? order : `${order} nulls last`, id: 'asc' } as const;
}

/** The hosts after `last` in {@link hostOrder}: further along the sort column, or level with it and a greater id, or (nulls last) without a value. */
function afterHost(sort: ColumnSort, order: 'asc' | 'desc' = 'desc', last: HostRecord): QBFilterQuery<HostRecord> {
  const property = SORT_PROPERTIES[sort];
  const value = last[property] ?? null;
  const level = { [property]: value, id: { $gt: last.id } };
  if (value === null) return level;
  const further = { [property]: { [order === 'desc' ? '$lt' : '$gt']: value } };
  return { $or: NEVER_NULL.has(sort) ? [further, level] : [further, level, { [property]: null }] };
}

/** A host as the contract shows it, or undefined when there is none with this id in `scope`. */
export async function hostById(database: Database, scope: AccessScope, id: string): Promise<Host | undefined> {
  const em = database.em.fork();
  const record = await recordById(em, scope, id);
  return record ? (await hostsOf(em, [record]))[0] : undefined;
}

/** A host with the hardening index of its newest `historyLimit` reports, or undefined when there is none in `scope`. */
export async function hostDetail(database: Database, scope: AccessScope, id: string, historyLimit: number): Promise<HostDetail | undefined> {
  const em = database.em.fork();
  const record = await recordById(em, scope, id);
  if (!record) return undefined;
  const history = em
    .createQueryBuilder(ReportRecord, 'r')
    .select(['id', 'receivedAt', 'hardeningIndex'])
    .where({ hostRecord: id })
    .orderBy({ receivedAt: 'desc', id: 'desc' })
    .limit(historyLimit);
  const [reports, [host]] = await Promise.all([findBound(em, ReportRecord, history), hostsOf(em, [record])]);
  return {
    ...host!,
    hardeningHistory: reports.map((report) => ({
      reportId: report.id,
      receivedAt: report.receivedAt.toISOString(),
      hardeningIndex: report.hardeningIndex ?? null,
    })),
  };
}

/** Whether a host with this id exists in `scope`. */
export async function hostExists(database: Database, scope: AccessScope, id: string): Promise<boolean> {
  return hostInScope(database.em.getKnex(), scope, id);
}

/** The host record with this id in `scope`, if any. */
async function recordById(em: SqlEntityManager, scope: AccessScope, id: string): Promise<HostRecord | undefined> {
  const qb = em.createQueryBuilder(HostRecord, 'h').where({ id });
  const inScope = scopeCondition(em.getKnex(), scope, 'h.id');
  if (inScope) qb.andWhere(inScope.sql, inScope.bindings);
  const [record] = await findBound(em, HostRecord, qb.limit(1));
  return record;
}

/**
 * Hosts as the contract shows them, in the order given, with the groups and tags of each (one query for all), and
 * their compliance now unless it is given (as of another moment).
 */
export async function hostsOf(em: SqlEntityManager, records: HostRecord[], now = new Date(), known?: Map<string, HostComplianceState>): Promise<Host[]> {
  const labels = new Map<string, { groups: string[]; tags: string[] }>(records.map((record) => [record.id, { groups: [], tags: [] }]));
  if (records.length > 0) {
    const rows = (await em
      .getKnex()('host_label')
      .select('host_record_id', 'kind', 'value')
      .whereIn(
        'host_record_id',
        records.map((record) => record.id),
      )
      .orderBy(['host_record_id', 'kind', 'position'])) as { host_record_id: string; kind: LabelKind; value: string }[];
    for (const row of rows) {
      const host = labels.get(row.host_record_id);
      if (host) (row.kind === 'group' ? host.groups : host.tags).push(row.value);
    }
  }
  const compliance =
    known ??
    (records.length > 0
      ? await hostCompliances(
          { em },
          records.map((record) => record.id),
          now,
        )
      : new Map<string, HostComplianceState>());
  return records.map((record) => toHost(record, labels.get(record.id)!, compliance.get(record.id) ?? 'unknown'));
}

/** A host as the contract shows it. */
function toHost(record: HostRecord, labels: { groups: string[]; tags: string[] }, compliance: HostComplianceState): Host {
  return {
    id: record.id,
    keyId: record.key.id,
    hostId: record.hostId,
    hostId2: record.hostId2 ?? null,
    hostname: record.hostname ?? null,
    os: record.osName ?? null,
    lynisVersion: record.lynisVersion ?? null,
    firstSeen: record.firstSeen.toISOString(),
    lastSeen: record.lastSeen.toISOString(),
    reportCount: record.reportCount,
    latestReportId: record.latestReportId ?? null,
    latestHardeningIndex: record.latestHardeningIndex ?? null,
    latestWarningCount: record.latestWarningCount ?? null,
    latestSuggestionCount: record.latestSuggestionCount ?? null,
    groups: labels.groups,
    tags: labels.tags,
    customerName: record.customerName ?? null,
    hostnameAlias: record.hostnameAlias ?? null,
    compliance,
    identityChange: identityChangeOf(record),
    state: record.state as Host['state'],
    stateSince: (record.stateSince ?? record.firstSeen).toISOString(),
    stateReason: record.stateReason as Host['stateReason'],
    machineId: record.machineId ?? null,
    autoPurge: record.autoPurge,
  };
}

/** The host's unaccepted `hostid2` change, as the contract shows it; null when there is none. */
function identityChangeOf(record: HostRecord): HostIdentityChange | null {
  if (!record.identityChangedAt) return null;
  return {
    previousHostId2: record.identityFrom ?? null,
    hostId2: record.identityTo ?? null,
    at: record.identityChangedAt.toISOString(),
    refused: record.identityRefused,
  };
}
