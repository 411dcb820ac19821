import type { Knex } from '@mikro-orm/knex';
import type { LabelCount, Overview } from '../generated/types.gen.js';
import { findBound } from '../database/bound-query.js';
import type { Database, DatabaseTime, SqlDialect } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { HostRecord } from '../database/entities.js';
import { hostsOf } from '../hosts/host-queries.js';
import { asOfRows } from '../hosts/hosts-as-of.js';
import { limitToScope, scopeCondition } from '../hosts/host-scope.js';
import type { AccessScope } from '../people/scope.js';
import { complianceOverview } from '../policies/compliance-overview.js';
import { refusalsByDay } from '../refusals/rejection-queries.js';
import { topFindings, topFindingsAt } from './finding-groups.js';

const DAY_MS = 86_400_000;
/** Days of the hardening trend, and of the uploads per day, today included. */
const TREND_DAYS = 90;
const UPLOAD_DAYS = 30;
/** Operating systems and Lynis versions, and stale hosts the overview names. */
const TOP_LABELS = 20;
const STALE_SHOWN = 10;

type Count = number | string;

/** What the overview follows: the server's stale threshold (hosts' states come from it), and whether Lynis' own findings are left out. */
export interface OverviewSettings {
  staleDays: number;
  hideLynisFindings: boolean;
}

/**
 * The fleet at a glance. Every figure comes from grouped counts in the database (hosts by latest hardening index,
 * reports by day through the index on their time, findings by test id), never from loading every host or report.
 * Of the hosts in `scope` only: their hosts, reports, refusals, findings and compliance. Decommissioned hosts are
 * counted apart and left out of every other figure.
 */
export async function fleetOverview(database: Database, scope: AccessScope, settings: OverviewSettings, at?: Date): Promise<Overview> {
  if (at) return fleetOverviewAt(database, scope, settings, at);
  const now = new Date();
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const today = Math.floor(now.getTime() / DAY_MS);
  const counted = () => countedHosts(knex, scope);
  const [hosts, hardeningIndex, days, refusals, findings, operatingSystems, lynisVersions, staleHosts] = await Promise.all([
    hostCounts(knex, scope, dialect.toDatabaseTime.bind(dialect), now),
    hardeningOf(counted(), 'latest_hardening_index'),
    reportsByDay(database, scope, today - (TREND_DAYS - 1), today),
    refusalsByDay(database, scope, dayText(today - (UPLOAD_DAYS - 1))),
    topFindings(database, scope, { hideLynis: settings.hideLynisFindings }),
    labelCounts(counted(), dialect, 'os_name'),
    labelCounts(counted(), dialect, 'lynis_version'),
    staleHostsSeenLongestAgo(database, scope),
  ]);
  const compliance = await complianceOverview(database, scope, now, dayText(today - (TREND_DAYS - 1)));
  return {
    asOf: null,
    generatedAt: now.toISOString(),
    staleDays: settings.staleDays,
    hosts,
    hardeningIndex,
    hardeningTrend: [...days].sort(([a], [b]) => a - b).map(([day, { reports, average }]) => ({ day: dayText(day), average, reports })),
    topWarnings: findings.filter((finding) => finding.kind === 'warning'),
    topSuggestions: findings.filter((finding) => finding.kind === 'suggestion'),
    operatingSystems,
    lynisVersions,
    uploadsPerDay: uploadsPerDay(today, days, refusals),
    staleHosts,
    compliance,
  };
}

/**
 * The overview as of a past moment `at` (the contract's `Overview.asOf`): the hosts counted then
 * (`compliance/hosts-at.ts`) with a report received by then, by the figures of their latest such report; the trend
 * and the uploads per day ending on its day, reports received after it left out; findings open and compliance then,
 * from their transitions. No host's past lifecycle state is kept: none is stale or decommissioned then.
 */
async function fleetOverviewAt(database: Database, scope: AccessScope, settings: OverviewSettings, at: Date): Promise<Overview> {
  const dialect = sqlDialectOf(database.em);
  const lastDay = Math.floor(at.getTime() / DAY_MS);
  const counted = () => asOfRows(database, scope, {}, at);
  const [hosts, hardeningIndex, days, refusals, findings, operatingSystems, lynisVersions, compliance] = await Promise.all([
    hostCountsAt(database.em.getKnex(), counted(), dialect.toDatabaseTime.bind(dialect), at),
    hardeningOf(counted(), 'a.hardening_index'),
    reportsByDay(database, scope, lastDay - (TREND_DAYS - 1), lastDay, at),
    refusalsByDay(database, scope, dayText(lastDay - (UPLOAD_DAYS - 1)), dayText(lastDay)),
    topFindingsAt(database, scope, { hideLynis: settings.hideLynisFindings }, at),
    labelCounts(counted(), dialect, 'a.os_name'),
    labelCounts(counted(), dialect, 'a.lynis_version'),
    complianceOverview(database, scope, at, dayText(lastDay - (TREND_DAYS - 1)), { past: true }),
  ]);
  return {
    asOf: at.toISOString(),
    generatedAt: new Date().toISOString(),
    staleDays: settings.staleDays,
    hosts,
    hardeningIndex,
    hardeningTrend: [...days].sort(([a], [b]) => a - b).map(([day, { reports, average }]) => ({ day: dayText(day), average, reports })),
    topWarnings: findings.filter((finding) => finding.kind === 'warning'),
    topSuggestions: findings.filter((finding) => finding.kind === 'suggestion'),
    operatingSystems,
    lynisVersions,
    uploadsPerDay: uploadsPerDay(lastDay, days, refusals),
    staleHosts: [],
    compliance,
  };
}

/** Each of the `UPLOAD_DAYS` days up to `lastDay`, zeros included: reports received and uploads refused. */
function uploadsPerDay(lastDay: number, days: Map<number, { reports: number }>, refusals: Map<string, number>): Overview['uploadsPerDay'] {
  return Array.from({ length: UPLOAD_DAYS }, (_, i) => {
    const day = lastDay - (UPLOAD_DAYS - 1) + i;
    return { day: dayText(day), accepted: days.get(day)?.reports ?? 0, refused: refusals.get(dayText(day)) ?? 0 };
  });
}

/** The hosts of the as-of rows (`a`), and those whose latest report then came within a day and a week before `at`. */
async function hostCountsAt(knex: Knex, rows: Knex.QueryBuilder, toDatabaseTime: (time: Date) => Date | number, at: Date): Promise<Overview['hosts']> {
  const [row] = await rows.select<Record<'total' | 'seen_day' | 'seen_week', Count | null>[]>(
    knex.raw('count(*) as total'),
    knex.raw('sum(case when a.received_at > ? then 1 else 0 end) as seen_day', [toDatabaseTime(new Date(at.getTime() - DAY_MS))]),
    knex.raw('sum(case when a.received_at > ? then 1 else 0 end) as seen_week', [toDatabaseTime(new Date(at.getTime() - 7 * DAY_MS))]),
  );
  return { total: Number(row!.total ?? 0), seenLast24h: Number(row!.seen_day ?? 0), seenLast7d: Number(row!.seen_week ?? 0), stale: 0, decommissioned: 0 };
}

/** The hosts the overview counts now (`h`), those in `scope` and not decommissioned, as a query to select from. */
function countedHosts(knex: Knex, scope: AccessScope): Knex.QueryBuilder {
  const query = knex('host').whereNot('state', 'decommissioned');
  limitToScope(knex, query, 'id', scope);
  return query;
}

/** Hosts not decommissioned, those seen within a day and a week, the stale and the decommissioned ones, in one pass over the host table. */
async function hostCounts(knex: Knex, scope: AccessScope, toDatabaseTime: (time: Date) => Date | number, now: Date): Promise<Overview['hosts']> {
  const counted = "state <> 'decommissioned'";
  const query = knex('host').select(
    knex.raw(`sum(case when ${counted} then 1 else 0 end) as total`),
    knex.raw(`sum(case when ${counted} and last_seen >= ? then 1 else 0 end) as seen_day`, [toDatabaseTime(new Date(now.getTime() - DAY_MS))]),
    knex.raw(`sum(case when ${counted} and last_seen >= ? then 1 else 0 end) as seen_week`, [toDatabaseTime(new Date(now.getTime() - 7 * DAY_MS))]),
    knex.raw("sum(case when state = 'stale' then 1 else 0 end) as stale"),
    knex.raw("sum(case when state = 'decommissioned' then 1 else 0 end) as decommissioned"),
  );
  limitToScope(knex, query, 'id', scope);
  const [row] = (await query) as Record<'total' | 'seen_day' | 'seen_week' | 'stale' | 'decommissioned', Count | null>[];
  return {
    total: Number(row!.total ?? 0),
    seenLast24h: Number(row!.seen_day ?? 0),
    seenLast7d: Number(row!.seen_week ?? 0),
    stale: Number(row!.stale ?? 0),
    decommissioned: Number(row!.decommissioned ?? 0),
  };
}

/** Average, median and distribution of the hosts' latest hardening index (`column` of `hosts`), from the hosts counted by index (0–100). */
async function hardeningOf(hosts: Knex.QueryBuilder, column: string): Promise<Overview['hardeningIndex']> {
  const rows = await hosts.select({ value: column }).count<{ value: number | null; hosts: Count }[]>({ hosts: '*' }).groupBy(column);
  let unknown = 0;
  const counts: [number, number][] = [];
  for (const row of rows) {
    if (row.value === null) unknown += Number(row.hosts);
    else counts.push([Number(row.value), Number(row.hosts)]);
  }
  counts.sort(([a], [b]) => a - b);
  const known = counts.reduce((sum, [, hosts]) => sum + hosts, 0);
  const distribution = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i === 9 ? 100 : i * 10 + 9, hosts: 0 }));
  for (const [value, hosts] of counts) distribution[Math.min(9, Math.floor(value / 10))]!.hosts += hosts;
  return {
    average: known === 0 ? null : oneDecimal(counts.reduce((sum, [value, hosts]) => sum + value * hosts, 0) / known),
    median: known === 0 ? null : (valueAt(counts, Math.floor((known - 1) / 2)) + valueAt(counts, Math.floor(known / 2))) / 2,
    unknown,
    distribution: distribution as Overview['hardeningIndex']['distribution'],
  };
}

/** The `position`th value (from 0) of the values counted in `counts`, sorted by value. */
function valueAt(counts: [number, number][], position: number): number {
  let seen = 0;
  for (const [value, hosts] of counts) {
    seen += hosts;
    if (position < seen) return value;
  }
  throw new Error(`no value at ${position} of ${seen}`);
}

/**
 * Reports received on each UTC day from `firstDay` to `lastDay`, with their average hardening index: one range of
 * the index on `(received_at, id, hardening_index)` per day, each day's bounds given as the dialect stores times.
 * Grouping every report by an expression of its time instead sorted them all: 57 ms against 18 ms on SQLite, 69
 * against 30 on PostgreSQL, at 300,000 reports. A scope's reports are those of its hosts. With `until`, those
 * received after it are left out. The reports of decommissioned hosts (few) are read apart and taken off each day's
 * figures: a condition on the report's host in each day's range read every report row besides the index (on
 * PostgreSQL at 20,000 hosts, 0.3 s a day instead of 20 ms).
 */
async function reportsByDay(
  database: Database,
  scope: AccessScope,
  firstDay: number,
  lastDay: number,
  until?: Date,
): Promise<Map<number, { reports: number; average: number | null }>> {
  const dialect = sqlDialectOf(database.em);
  const knex = database.em.getKnex();
  const inScope = scopeCondition(knex, scope, 'host_record_id');
  const inWindow = (reports: Knex.QueryBuilder, from: number, to: number) => {
    reports
      .where('received_at', '>=', dialect.toDatabaseTime(new Date(from * DAY_MS)))
      .andWhere('received_at', '<', dialect.toDatabaseTime(new Date(to * DAY_MS)));
    if (until) reports.andWhere('received_at', '<=', dialect.toDatabaseTime(until));
    return inScope ? reports.andWhereRaw(inScope.sql, inScope.bindings) : reports;
  };
  const [first, ...others] = Array.from({ length: lastDay - firstDay + 1 }, (_, i) => {
    const day = firstDay + i;
    const reports = knex('report')
      .select(knex.raw(`${dialect.castToInteger('?')} as day`, [day]))
      .count({ reports: '*' })
      .count({ indexed: 'hardening_index' })
      .sum({ total: 'hardening_index' });
    return inWindow(reports, day, day + 1);
  });
  const decommissioned = inWindow(
    knex('report').select('received_at', 'hardening_index').whereIn('host_record_id', knex('host').select('id').where('state', 'decommissioned')),
    firstDay,
    lastDay + 1,
  );
  // Not wrapped in parentheses: SQLite takes no parenthesised members of a compound select.
  const [rows, left] = (await Promise.all([first!.unionAll(others, false), decommissioned])) as [
    { day: Count; reports: Count; indexed: Count; total: Count | null }[],
    { received_at: DatabaseTime; hardening_index: number | null }[],
  ];
  const days = new Map(rows.map((row) => [Number(row.day), { reports: Number(row.reports), indexed: Number(row.indexed), total: Number(row.total ?? 0) }]));
  for (const report of left) {
    const day = days.get(Math.floor(new Date(report.received_at).getTime() / DAY_MS))!;
    day.reports -= 1;
    if (report.hardening_index !== null) {
      day.indexed -= 1;
      day.total -= report.hardening_index;
    }
  }
  return new Map(
    [...days]
      .filter(([, figures]) => figures.reports > 0)
      .map(([day, { reports, indexed, total }]) => [day, { reports, average: indexed === 0 ? null : oneDecimal(total / indexed) }]),
  );
}

/** The twenty values of a `column` of `hosts` on the most hosts, `null` counted as a value of its own (ties by name, null last). */
async function labelCounts(hosts: Knex.QueryBuilder, dialect: SqlDialect, column: string): Promise<LabelCount[]> {
  const byHosts = hosts.select({ name: column }).count({ hosts: '*' }).groupBy(column).orderByRaw('count(*) desc');
  const rows = (await dialect.orderNullsLast(byHosts, column, 'asc').limit(TOP_LABELS)) as { name: string | null; hosts: Count }[];
  return rows.map((row) => ({ name: row.name, hosts: Number(row.hosts) }));
}

/** The stale hosts seen longest ago. */
async function staleHostsSeenLongestAgo(database: Database, scope: AccessScope) {
  const em = database.em.fork();
  const qb = em.createQueryBuilder(HostRecord, 'h').where({ state: 'stale' }).orderBy({ lastSeen: 'asc', id: 'asc' }).limit(STALE_SHOWN);
  const inScope = scopeCondition(em.getKnex(), scope, 'h.id');
  if (inScope) qb.andWhere(inScope.sql, inScope.bindings);
  return hostsOf(em, await findBound(em, HostRecord, qb));
}

/** `YYYY-MM-DD` of a day counted from 1970-01-01. */
const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

const oneDecimal = (value: number) => Math.round(value * 10) / 10;
