import type { Knex } from '@mikro-orm/knex';
import type { FindingCount, FindingGroupPage, FindingKind, LabelCount, Overview } from '@org/audit-server-core';
import { findBound } from '../database/bound-query.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { HostRecord } from '../database/entities.js';
import { fleetCompliance } from '../policies/policy-results.js';
import { hostsOf } from './host-routes.js';
import type { AdminOperation } from './operation.js';
import { jsonResponse } from './responses.js';

const DAY_MS = 86_400_000;
/** Days of the hardening trend, and of the uploads per day, today included. */
const TREND_DAYS = 90;
const UPLOAD_DAYS = 30;
/** Findings of each kind, operating systems and Lynis versions, and stale hosts the overview names. */
const TOP_FINDINGS = 10;
const TOP_LABELS = 20;
const STALE_SHOWN = 10;

type Count = number | string;

/**
 * `GET /api/admin/overview`: the fleet at a glance. Every figure comes from grouped counts in the database (hosts
 * by latest hardening index, reports by day through the index on their time, findings by test id), never from
 * loading every host or report.
 */
export const getOverview: AdminOperation = async ({ query }, { database }) => {
  const staleDays = query['staleDays'] as number;
  const now = new Date();
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const today = Math.floor(now.getTime() / DAY_MS);
  const staleBefore = new Date(now.getTime() - staleDays * DAY_MS);
  const [hosts, hardeningIndex, days, refusals, findings, operatingSystems, lynisVersions, staleHosts] = await Promise.all([
    hostCounts(knex, dialect.toDatabaseTime.bind(dialect), now, staleBefore),
    hardeningOf(knex),
    reportsByDay(database, today - (TREND_DAYS - 1), today),
    refusalsByDay(knex, dayText(today - (UPLOAD_DAYS - 1))),
    topFindings(knex),
    labelCounts(knex, 'os_name'),
    labelCounts(knex, 'lynis_version'),
    oldestHosts(database, staleBefore),
  ]);
  const compliance = await complianceOf(database, now, dayText(today - (TREND_DAYS - 1)));
  const overview: Overview = {
    generatedAt: now.toISOString(),
    staleDays,
    hosts,
    hardeningIndex,
    hardeningTrend: [...days].sort(([a], [b]) => a - b).map(([day, { reports, average }]) => ({ day: dayText(day), average, reports })),
    topWarnings: findings.filter((finding) => finding.kind === 'warning'),
    topSuggestions: findings.filter((finding) => finding.kind === 'suggestion'),
    operatingSystems,
    lynisVersions,
    uploadsPerDay: Array.from({ length: UPLOAD_DAYS }, (_, i) => {
      const day = today - (UPLOAD_DAYS - 1) + i;
      return { day: dayText(day), accepted: days.get(day)?.reports ?? 0, refused: refusals.get(dayText(day)) ?? 0 };
    }),
    staleHosts,
    compliance,
  };
  return jsonResponse(200, overview);
};

/**
 * `GET /api/admin/findings`: the warnings and suggestions of every host's newest report, one item per kind and test
 * id with the hosts that have it, most hosts first (ties by test id, then kind); `text` is the smallest of its texts.
 */
export const listFindings: AdminOperation = async ({ query }, { database }) => {
  const limit = query['limit'] as number;
  const offset = query['offset'] as number;
  const knex = database.em.getKnex();
  const matching = () => {
    const qb = knex('finding_count as c');
    if (query['kind'] !== undefined) qb.where('c.kind', query['kind'] as string);
    if (query['testId'] !== undefined) qb.where('c.test_id', query['testId'] as string);
    return qb;
  };
  const [rows, [{ total }]] = await Promise.all([
    withText(knex, matching().select('c.kind', 'c.test_id', 'c.hosts').orderBy([{ column: 'c.hosts', order: 'desc' }, 'c.test_id', 'c.kind']).limit(limit).offset(offset)),
    matching().count({ total: '*' }) as unknown as Promise<[{ total: Count }]>,
  ]);
  const result: FindingGroupPage = { items: rows, total: Number(total), limit, offset };
  return jsonResponse(200, result);
};

interface FindingRow {
  kind: FindingKind;
  test_id: string;
  hosts: Count;
  text: string;
}

const toFindingCount = (row: FindingRow): FindingCount => ({ kind: row.kind, testId: row.test_id, text: row.text, hosts: Number(row.hosts) });

/** Hosts in all, seen within a day and a week, and stale, in one pass over the host table. */
async function hostCounts(knex: Knex, toDatabaseTime: (time: Date) => Date | number, now: Date, staleBefore: Date): Promise<Overview['hosts']> {
  const [row] = (await knex('host').select(
    knex.raw('count(*) as total'),
    knex.raw('sum(case when last_seen >= ? then 1 else 0 end) as seen_day', [toDatabaseTime(new Date(now.getTime() - DAY_MS))]),
    knex.raw('sum(case when last_seen >= ? then 1 else 0 end) as seen_week', [toDatabaseTime(new Date(now.getTime() - 7 * DAY_MS))]),
    knex.raw('sum(case when last_seen < ? then 1 else 0 end) as stale', [toDatabaseTime(staleBefore)]),
  )) as { total: Count; seen_day: Count | null; seen_week: Count | null; stale: Count | null }[];
  return { total: Number(row!.total), seenLast24h: Number(row!.seen_day ?? 0), seenLast7d: Number(row!.seen_week ?? 0), stale: Number(row!.stale ?? 0) };
}

/** Average, median and distribution of the hosts' latest hardening index, from the hosts counted by index (0–100). */
async function hardeningOf(knex: Knex): Promise<Overview['hardeningIndex']> {
  const rows = (await knex('host').select({ value: 'latest_hardening_index' }).count({ hosts: '*' }).groupBy('latest_hardening_index')) as {
    value: number | null;
    hosts: Count;
  }[];
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
 * against 30 on PostgreSQL, at 300,000 reports.
 */
async function reportsByDay(database: Database, firstDay: number, lastDay: number): Promise<Map<number, { reports: number; average: number | null }>> {
  const { toDatabaseTime } = sqlDialectOf(database.em);
  const knex = database.em.getKnex();
  const [first, ...others] = Array.from({ length: lastDay - firstDay + 1 }, (_, i) => {
    const day = firstDay + i;
    return knex('report')
      .select(knex.raw('cast(? as integer) as day', [day]))
      .count({ reports: '*' })
      .avg({ average: 'hardening_index' })
      .where('received_at', '>=', toDatabaseTime(new Date(day * DAY_MS)))
      .andWhere('received_at', '<', toDatabaseTime(new Date((day + 1) * DAY_MS)));
  });
  // Not wrapped in parentheses: SQLite takes no parenthesised members of a compound select.
  const rows = (await first!.unionAll(others, false)) as { day: Count; reports: Count; average: Count | null }[];
  return new Map(
    rows.filter((row) => Number(row.reports) > 0).map((row) => [Number(row.day), { reports: Number(row.reports), average: row.average === null ? null : oneDecimal(Number(row.average)) }]),
  );
}

/** Uploads refused per day (`YYYY-MM-DD`) since `firstDay`, from the rejection log. */
async function refusalsByDay(knex: Knex, firstDay: string): Promise<Map<string, number>> {
  const rows = (await knex('rejection').select('day').sum({ refused: 'count' }).where('operation', 'uploadReport').andWhere('day', '>=', firstDay).groupBy('day')) as {
    day: string;
    refused: Count;
  }[];
  return new Map(rows.map((row) => [row.day, Number(row.refused)]));
}

/** The ten warnings and the ten suggestions on the most hosts (ties by test id), from the findings' counts. */
async function topFindings(knex: Knex): Promise<FindingCount[]> {
  const top = (kind: FindingKind) => withText(knex, knex('finding_count as c').select('c.kind', 'c.test_id', 'c.hosts').where('c.kind', kind).orderBy([{ column: 'c.hosts', order: 'desc' }, 'c.test_id']).limit(TOP_FINDINGS));
  const [warnings, suggestions] = await Promise.all([top('warning'), top('suggestion')]);
  return [...warnings, ...suggestions];
}

/**
 * Counted findings with their smallest text, which a count cannot keep (the host holding it may drop it): one seek
 * per finding shown into the findings' index on test id, kind and text.
 */
async function withText(knex: Knex, counts: Knex.QueryBuilder): Promise<FindingCount[]> {
  const rows = (await counts.select(knex.raw('(select min(f.text) from host_finding f where f.test_id = c.test_id and f.kind = c.kind) as text'))) as FindingRow[];
  return rows.map(toFindingCount);
}

/** The twenty values of a host column on the most hosts, `null` counted as a value of its own (ties by name, null last). */
async function labelCounts(knex: Knex, column: 'os_name' | 'lynis_version'): Promise<LabelCount[]> {
  const rows = (await knex('host')
    .select({ name: column })
    .count({ hosts: '*' })
    .groupBy(column)
    .orderByRaw(`count(*) desc, ${column} asc nulls last`)
    .limit(TOP_LABELS)) as { name: string | null; hosts: Count }[];
  return rows.map((row) => ({ name: row.name, hosts: Number(row.hosts) }));
}

/** The stale hosts seen longest ago. */
async function oldestHosts(database: Database, staleBefore: Date) {
  const em = database.em.fork();
  const qb = em.createQueryBuilder(HostRecord, 'h').where({ lastSeen: { $lt: staleBefore } }).orderBy({ lastSeen: 'asc', id: 'asc' }).limit(STALE_SHOWN);
  return hostsOf(em, await findBound(em, HostRecord, qb));
}

/** `YYYY-MM-DD` of a day counted from 1970-01-01. */
const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** The fleet's compliance now, and as measured on each of the trend's days. */
async function complianceOf(database: Database, now: Date, firstDay: string): Promise<Overview['compliance']> {
  const knex = database.em.getKnex();
  const [{ hosts, evaluatedHosts }, [{ policies }], days] = await Promise.all([
    fleetCompliance(database, now),
    knex('policy').where('enabled', true).count({ policies: '*' }) as unknown as Promise<[{ policies: number | string }]>,
    knex('compliance_day').select('*').where('day', '>=', firstDay).orderBy('day') as Promise<{ day: string; pass: number; fail: number; error: number; waived: number }[]>,
  ]);
  const rateOf = (pass: number, evaluated: number) => (evaluated === 0 ? null : pass / evaluated);
  return {
    policies: Number(policies),
    evaluatedHosts,
    hosts,
    rate: rateOf(hosts.pass, evaluatedHosts),
    trend: days.map((day) => {
      const evaluated = Number(day.pass) + Number(day.fail) + Number(day.error) + Number(day.waived);
      return { day: day.day, rate: rateOf(Number(day.pass), evaluated), evaluatedHosts: evaluated };
    }),
  };
}
