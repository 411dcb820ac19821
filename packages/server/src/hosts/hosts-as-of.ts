// The host list as of a past moment T (`at`): the hosts counted then (`compliance/hosts-at.ts`: first seen by T, not
// decommissioned) with a report received by T still stored, each with the figures of its latest such report and its
// compliance then. A host's groups, tags, OS, customer and lifecycle state are kept as they are now only (no history
// of them is kept), so the filters on them, like those on findings and compliance now, are refused with `at`.
import type { Knex, SqlEntityManager } from '@mikro-orm/knex';
import type { Host, HostPage } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { HostRecord } from '../database/entities.js';
import { DomainError } from '../errors/domain-error.js';
import { hostCompliancesAt, type HostComplianceAt } from '../policies/compliance-as-of.js';
import { hostIdsAt } from '../compliance/hosts-at.js';
import type { AccessScope } from '../people/scope.js';
import { hostsOf, type HostFilters, type HostQuery } from './host-queries.js';

/** The filters on what hosts are now, which no answer for a past moment can apply. */
const CURRENT_ONLY = ['group', 'tag', 'os', 'finding', 'findingKind', 'seenBefore', 'compliance', 'failingPolicy', 'failingRule'] as const;

/** The column of the as-of rows (`a`) each `sort` orders by, and whether it may be null. */
const SORT_COLUMNS = {
  lastSeen: { column: 'received_at', nullable: false },
  hostname: { column: 'hostname', nullable: true },
  hardeningIndex: { column: 'hardening_index', nullable: true },
  warnings: { column: 'warning_count', nullable: true },
} as const;

/** A host's figures as of T: those of its latest report received by then, and how many of its stored reports it had. */
export interface AsOfRow {
  id: string;
  /** The host's OS now: reports keep none of their own. */
  os_name: string | null;
  report_id: string;
  received_at: Date | number | string;
  hostname: string | null;
  lynis_version: string | null;
  hardening_index: number | null;
  warning_count: number | null;
  suggestion_count: number | null;
  report_count: number | string;
}

/**
 * Refuses, with a 400 naming them, the filters and the order that depend on what hosts are now: with `at` the list
 * takes the ids, key, `hostid` and host name (as of then), and sorts by last seen, host name, hardening index or
 * warnings as of then. `state` may only be `current` (its default): no host's past state is kept.
 */
export function refuseCurrentOnlyFilters(filters: HostFilters): void {
  const refused: string[] = CURRENT_ONLY.filter((name) => filters[name] !== undefined);
  if (filters.state !== undefined && filters.state !== 'current') refused.push(`state=${filters.state}`);
  if (filters.sort === 'compliance') refused.push('sort=compliance');
  if (refused.length > 0)
    throw new DomainError(
      'invalid',
      `at cannot be combined with ${refused.join(', ')}: they filter or sort on what hosts are now, of which no history is kept`,
    );
}

/**
 * The hosts in `scope` counted at `at` with a report received by then matching `filters`, as rows of their latest
 * such report (`a`): one seek per host into the reports' index on host and time. Not ordered.
 */
export function asOfRows(database: Database, scope: AccessScope, filters: HostFilters, at: Date): Knex.QueryBuilder {
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const time = dialect.toDatabaseTime(at);
  const latest = knex('report as l')
    .select('l.id')
    .whereRaw('l.host_record_id = h.id')
    .andWhere('l.received_at', '<=', time)
    .orderBy([
      { column: 'l.received_at', order: 'desc' },
      { column: 'l.id', order: 'desc' },
    ])
    .limit(1);
  const reports = knex('report as c').count('*').whereRaw('c.host_record_id = h.id').andWhere('c.received_at', '<=', time);
  const rows = knex('host as h')
    .join('report as r', (on) => on.on('r.id', '=', knex.raw('(?)', [latest])))
    .select(
      'h.id',
      'h.os_name',
      { report_id: 'r.id' },
      'r.received_at',
      'r.hostname',
      'r.lynis_version',
      'r.hardening_index',
      'r.warning_count',
      'r.suggestion_count',
    )
    .select(knex.raw('(?) as report_count', [reports]))
    .whereIn('h.id', hostIdsAt(knex, time, { scope }));
  if (filters.ids !== undefined) rows.whereIn('h.id', filters.ids);
  if (filters.keyId !== undefined) rows.andWhere('h.key_id', filters.keyId);
  if (filters.hostId !== undefined) rows.andWhere('h.host_id', filters.hostId);
  if (filters.hostname !== undefined) {
    const { sql, bindings } = dialect.containsIgnoringCase('r.hostname', filters.hostname);
    rows.andWhereRaw(sql, bindings);
  }
  return knex.from(rows.as('a'));
}

/** `query` in the list's order: the sort column (nulls last), then the id. */
function ordered(database: Database, query: Knex.QueryBuilder, filters: HostFilters): Knex.QueryBuilder {
  const { column } = SORT_COLUMNS[sortOf(filters)];
  return sqlDialectOf(database.em)
    .orderNullsLast(query, `a.${column}`, filters.order ?? 'desc')
    .orderBy('a.id', 'asc');
}

const sortOf = (filters: HostFilters) => (filters.sort === undefined || filters.sort === 'compliance' ? 'lastSeen' : filters.sort);

/** One page of the host list as of `at` (its filters checked by {@link refuseCurrentOnlyFilters} first). */
export async function hostPageAsOf(database: Database, scope: AccessScope, query: HostQuery, at: Date): Promise<HostPage> {
  const { limit, offset } = query;
  const rows = asOfRows(database, scope, query, at);
  const [page, [counted]] = (await Promise.all([
    ordered(database, rows.clone().select('a.*'), query).limit(limit).offset(offset),
    rows.clone().count({ total: '*' }),
  ])) as [AsOfRow[], { total: number | string }[]];
  const em = database.em.fork();
  const compliance = await hostCompliancesAt(
    database,
    scope,
    page.map((row) => row.id),
    at,
  );
  return { items: await hostsAsOf(em, page, compliance), total: Number(counted!.total), limit, offset };
}

/**
 * Every host of the list as of `at`, in its order, a page of rows at a time: keyset paging on the sort column and
 * the id over the as-of rows, so that an export holds one page at a time.
 */
export async function* hostRowPagesAsOf(database: Database, scope: AccessScope, filters: HostFilters, at: Date, pageSize: number): AsyncGenerator<AsOfRow[]> {
  const { column, nullable } = SORT_COLUMNS[sortOf(filters)];
  let after: AsOfRow | undefined;
  for (;;) {
    const query = asOfRows(database, scope, filters, at).select('a.*');
    if (after) query.andWhere((next) => afterRow(next, column, nullable, filters.order ?? 'desc', after!));
    const page = (await ordered(database, query, filters).limit(pageSize)) as AsOfRow[];
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page.at(-1);
  }
}

/** The rows after `last` in the list's order: further along the column, or level with it and a greater id, or (nulls last) without a value. */
function afterRow(query: Knex.QueryBuilder, column: string, nullable: boolean, order: 'asc' | 'desc', last: AsOfRow): void {
  const value = last[column as keyof AsOfRow] ?? null;
  if (value === null) {
    query.whereNull(`a.${column}`).andWhere('a.id', '>', last.id);
    return;
  }
  query.where(`a.${column}`, order === 'desc' ? '<' : '>', value).orWhere((level) => {
    level.where(`a.${column}`, value).andWhere('a.id', '>', last.id);
  });
  if (nullable) query.orWhereNull(`a.${column}`);
}

/** Hosts as the contract shows them as of then: their records now, with the figures of their latest report by then and their compliance then. */
export async function hostsAsOf(em: SqlEntityManager, rows: AsOfRow[], compliance: Map<string, HostComplianceAt>): Promise<Host[]> {
  const records = rows.length === 0 ? [] : await em.find(HostRecord, { id: { $in: rows.map((row) => row.id) } });
  const byId = new Map(records.map((record) => [record.id, record]));
  // A host deleted since its row was read is left out.
  const found = rows.filter((row) => byId.has(row.id));
  const hosts = await hostsOf(
    em,
    found.map((row) => byId.get(row.id)!),
    undefined,
    new Map([...compliance].map(([id, host]) => [id, host.compliance])),
  );
  return hosts.map((host, index) => {
    const row = found[index]!;
    return {
      ...host,
      hostname: row.hostname,
      lynisVersion: row.lynis_version,
      lastSeen: new Date(row.received_at).toISOString(),
      reportCount: Number(row.report_count),
      latestReportId: row.report_id,
      latestHardeningIndex: row.hardening_index,
      latestWarningCount: row.warning_count,
      latestSuggestionCount: row.suggestion_count,
    };
  });
}
