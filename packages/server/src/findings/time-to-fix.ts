// How long findings take to be fixed (`GET /api/admin/findings/time-to-fix`): counts, mean and median hours of the
// resolutions in a window, overall and per kind, test id, group and customer, computed in the database with grouped
// queries; what changed in the week before the window's end; and the oldest findings still open.
//
// Every resolution counts (a finding resolved twice counts twice), each timed from the start of its episode: the
// finding's first sighting for its first resolution, the regression before it for a later one; each resolution keeps
// that start when written (`finding-records.ts`), so a window's durations are read from its resolutions alone.
import type { Knex } from '@mikro-orm/knex';
import type { Database, SqlDialect } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { longReads } from '../database/long-reads.js';
import { DomainError } from '../errors/domain-error.js';
import { LYNIS_OWN_TEST } from '../fleet/finding-groups.js';
import type { FixTimes, FixTimesBy, TimeToFix } from '../generated/types.gen.js';
import { limitToScope } from '../hosts/host-scope.js';
import type { AccessScope } from '../people/scope.js';
import { readTracked, trackedFindings } from './finding-records.js';

const DAY_MS = 86_400_000;
/** The window when none is asked for: the 90 days before its end. */
export const DEFAULT_WINDOW_DAYS = 90;
const LAST_WEEK_DAYS = 7;
/** The test ids listed: those with most resolutions. */
const TOP_TEST_IDS = 20;
const OLDEST_OPEN = 10;
const STILL_OPEN = ['open', 'acknowledged', 'regressed'] as const;

export interface TimeToFixOptions {
  /** ISO 8601 times as the query gives them; `to` defaults to `now`, `from` to 90 days before `to`. */
  from?: string;
  to?: string;
  /** Leave out Lynis' own finding (test `LYNIS`), as the fleet's finding lists do. */
  hideLynis: boolean;
  now?: Date;
}

/** The window [from, to) asked for; invalid when `from` is after `to`. */
export function timeToFixWindow(options: Pick<TimeToFixOptions, 'from' | 'to' | 'now'>): { from: Date; to: Date } {
  const to = options.to === undefined ? (options.now ?? new Date()) : parseTime('to', options.to);
  const from = options.from === undefined ? new Date(to.getTime() - DEFAULT_WINDOW_DAYS * DAY_MS) : parseTime('from', options.from);
  if (from.getTime() > to.getTime()) throw new DomainError('invalid', 'from must not be after to');
  return { from, to };
}

function parseTime(name: string, value: string): Date {
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new DomainError('invalid', `${name} must be a date and time (ISO 8601)`);
  return time;
}

/** The figures of the contract's `TimeToFix` for the hosts of `scope`, decommissioned hosts left out. */
export async function timeToFix(database: Database, scope: AccessScope, options: TimeToFixOptions): Promise<TimeToFix> {
  const knex = longReads(database);
  const dialect = sqlDialectOf(database.em);
  const window = timeToFixWindow(options);
  const reads: FindingReads = { knex, dialect, scope, hideLynis: options.hideLynis };
  const [groups, lastWeek, oldestOpen] = await Promise.all([fixTimesByGrouping(reads, window), changesBefore(reads, window.to), oldestOpenFindings(reads)]);
  const [overall] = groups.get('all') ?? [];
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    overall: overall ? withoutKey(overall) : { resolved: 0, meanHours: null, medianHours: null },
    byKind: groups.get('kind') ?? [],
    byTestId: (groups.get('testId') ?? []).slice(0, TOP_TEST_IDS),
    byGroup: groups.get('group') ?? [],
    byCustomer: groups.get('customer') ?? [],
    lastWeek,
    oldestOpen,
  };
}

/** What every read here needs: the database, its dialect, and whose findings count. */
interface FindingReads {
  knex: Knex;
  dialect: SqlDialect;
  scope: AccessScope;
  hideLynis: boolean;
}

/** Findings (`f`) with their hosts (`h`) that count: in scope, not decommissioned, Lynis' own left out when asked. */
function countedFindings(reads: FindingReads, query: Knex.QueryBuilder): Knex.QueryBuilder {
  query.where('h.state', '<>', 'decommissioned');
  limitToScope(reads.knex, query, 'f.host_record_id', reads.scope);
  if (reads.hideLynis) query.whereNot('f.test_id', LYNIS_OWN_TEST);
  return query;
}

/** Transitions (`t`) of counted findings (`f`, hosts `h`). */
function countedTransitions(reads: FindingReads): Knex.QueryBuilder {
  const query = reads.knex('finding_transition as t').join('finding as f', 'f.id', 't.finding_id').join('host as h', 'h.id', 'f.host_record_id');
  return countedFindings(reads, query);
}

/** The resolutions in the window, one row each with its `hours` from the start of its episode. */
function resolvedEpisodes(reads: FindingReads, window: { from: Date; to: Date }): Knex.QueryBuilder {
  const { dialect } = reads;
  return countedTransitions(reads)
    .where('t.to_state', 'resolved')
    .where('t.at', '>=', dialect.toDatabaseTime(window.from))
    .where('t.at', '<', dialect.toDatabaseTime(window.to))
    .select(reads.knex.raw(`${dialect.hoursBetween('t.episode_started_at', 't.at')} as hours`));
}

/** How the resolutions are grouped: all of them, and by kind, test id, group and customer. */
type Grouping = 'all' | 'kind' | 'testId' | 'group' | 'customer';

/** A row of {@link fixTimesByGrouping}'s query, as the drivers give it (PostgreSQL's numerics and counts as text). */
interface FixTimesRow {
  grouped_by: Grouping;
  group_key: string;
  resolved: number | string;
  mean_hours: number | string;
  median_hours: number | string;
}

/**
 * Count, mean and median hours of the window's resolutions per key of each grouping, most resolutions first, in one
 * query: the durations computed once, then each grouping's rows ranked, and the middle one or two averaged, so no
 * more than two rows per key leave the database.
 */
async function fixTimesByGrouping(reads: FindingReads, window: { from: Date; to: Date }): Promise<Map<Grouping, FixTimesBy[]>> {
  const { knex } = reads;
  const keyed = resolvedEpisodes(reads, window).select('f.kind', 'f.test_id', 'f.host_record_id', 'h.customer_name');
  const grouped = knex.raw(
    [
      "select 'all' as grouped_by, 'all' as group_key, hours from keyed",
      "select 'kind', kind, hours from keyed",
      "select 'testId', test_id, hours from keyed",
      "select 'customer', customer_name, hours from keyed where customer_name is not null",
      "select 'group', l.value, k.hours from keyed k join host_label l on l.host_record_id = k.host_record_id and l.kind = 'group'",
    ].join(' union all '),
  );
  const ranked = knex
    .from('grouped')
    .select(
      'grouped_by',
      'group_key',
      'hours',
      knex.raw('row_number() over (partition by grouped_by, group_key order by hours) as rn'),
      knex.raw('count(*) over (partition by grouped_by, group_key) as n'),
      knex.raw('avg(hours) over (partition by grouped_by, group_key) as mean_hours'),
    );
  const query = knex
    .withMaterialized('keyed', keyed)
    .with('grouped', grouped)
    .with('ranked', ranked)
    .from('ranked')
    .select('grouped_by', 'group_key', knex.raw('max(n) as resolved'), knex.raw('max(mean_hours) as mean_hours'), knex.raw('avg(hours) as median_hours'))
    // The middle row of an odd count; the two middle rows of an even one (integer division).
    .whereRaw('rn in ((n + 1) / 2, (n + 2) / 2)')
    .groupBy('grouped_by', 'group_key')
    .orderByRaw('max(n) desc, group_key');
  const rows = (await query) as FixTimesRow[];
  const groups = new Map<Grouping, FixTimesBy[]>();
  for (const row of rows) {
    const times = {
      key: String(row.group_key),
      resolved: Number(row.resolved),
      meanHours: roundHours(row.mean_hours),
      medianHours: roundHours(row.median_hours),
    };
    const grouping = groups.get(row.grouped_by) ?? [];
    groups.set(row.grouped_by, grouping);
    grouping.push(times);
  }
  return groups;
}

/** Hours to the hundredth: finer is noise from the arithmetic. */
const roundHours = (hours: number | string) => Math.round(Number(hours) * 100) / 100;

const withoutKey = ({ resolved, meanHours, medianHours }: FixTimesBy): FixTimes => ({ resolved, meanHours, medianHours });

/** Findings opened (first seen), resolved and regressed in the week before `to`. */
async function changesBefore(reads: FindingReads, to: Date): Promise<TimeToFix['lastWeek']> {
  const { knex, dialect } = reads;
  const counts = countedTransitions(reads)
    .where('t.at', '>=', dialect.toDatabaseTime(new Date(to.getTime() - LAST_WEEK_DAYS * DAY_MS)))
    .where('t.at', '<', dialect.toDatabaseTime(to))
    .select(
      knex.raw("sum(case when t.to_state = 'open' and t.from_state is null then 1 else 0 end) as opened"),
      knex.raw("sum(case when t.to_state = 'resolved' then 1 else 0 end) as resolved"),
      knex.raw("sum(case when t.to_state = 'regressed' then 1 else 0 end) as regressed"),
    );
  const [row] = (await counts) as { opened: unknown; resolved: unknown; regressed: unknown }[];
  // A sum over no rows is null.
  return { opened: Number(row?.opened ?? 0), resolved: Number(row?.resolved ?? 0), regressed: Number(row?.regressed ?? 0) };
}

/** The ten findings still to handle that were first seen longest ago. */
async function oldestOpenFindings(reads: FindingReads): Promise<TimeToFix['oldestOpen']> {
  const query = countedFindings(reads, trackedFindings(reads.knex)).whereIn('f.state', STILL_OPEN);
  return readTracked(query.orderBy([{ column: 'f.first_seen' }, { column: 'f.id' }]).limit(OLDEST_OPEN));
}
