// Compliance over time: one point per day or week, past days read from the daily snapshots (any missing one taken on
// the way), today from today's provisional snapshot (taken on the way when there is none of the last 10 minutes). An
// actor limited to some hosts gets its points computed for its hosts instead, today's as of now, as the snapshots
// count the fleet, its groups and customers.
import type { ComplianceHistory, CompliancePoint, HostsByCompliance } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import type { ComplianceSnapshotRecord } from '../database/entities.js';
import { isRecordId } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import { DomainError } from '../errors/domain-error.js';
import { isScoped, type AccessScope } from '../people/scope.js';
import { complianceAt, compliancePercent } from './compliance-at.js';
import {
  addDays,
  ALL_POLICIES,
  dayOf,
  emptyHosts,
  endOfDay,
  figuresByScope,
  isFinal,
  PROVISIONAL_MAX_AGE_MS,
  startOfDay,
  takeProvisionalSnapshot,
  takeSnapshot,
  type Figures,
} from './compliance-snapshots.js';
import { openFindingsAt } from './open-findings-at.js';

/** What `getComplianceHistory` takes. */
export interface HistoryQuery {
  from?: string;
  to?: string;
  interval?: 'day' | 'week';
  policyId?: string;
  group?: string;
  customer?: string;
}

const DAY_MS = 86_400_000;
/** The longest window, in days between `from` and `to`. */
export const MAX_HISTORY_DAYS = 731;
const DEFAULT_DAYS = 30;

/** How the history is read beyond its query. */
export interface HistoryOptions {
  /**
   * Today's point computed as of now rather than read from today's provisional snapshot (up to 10 minutes old): for
   * figures frozen once, as a digest's, where a change just made must count.
   */
  todayAsOfNow?: boolean;
}

/**
 * The compliance of the hosts in `scope` (of one group or customer when asked) from `query.from` to `query.to`,
 * one point per day or per week (Monday to Sunday, as of its last day in the window), over every policy or one,
 * and per policy. An `invalid` {@link DomainError} for a window that is reversed, too long or in the future.
 */
export async function complianceHistory(
  database: Database,
  scope: AccessScope,
  query: HistoryQuery,
  now = new Date(),
  options: HistoryOptions = {},
): Promise<ComplianceHistory> {
  const today = dayOf(now);
  const { from, to } = windowOf(query, today);
  const interval = query.interval ?? 'day';
  if (query.policyId !== undefined && !isRecordId(query.policyId)) throw new DomainError('invalid', `policyId: ${query.policyId} is no policy id`);
  const days = pointDays(from, to, interval);
  const figures = new Map<string, Figures>();
  const past = days.filter((day) => day < today);
  if (!isScoped(scope) && !(query.group && query.customer)) {
    const fromSnapshots = options.todayAsOfNow ? past : days;
    for (const [day, dayFigures] of await snapshotFigures(database, fromSnapshots, query, now)) figures.set(day, dayFigures);
    if (fromSnapshots !== days && days.at(-1) === today) figures.set(today, await computedFigures(database, scope, query, now));
  } else {
    for (const day of past) figures.set(day, await computedFigures(database, scope, query, endOfDay(day)));
    if (days.at(-1) === today) figures.set(today, await computedFigures(database, scope, query, now));
  }

  const hostsOf = (dayFigures: Figures) => (query.policyId === undefined ? dayFigures.hosts : (dayFigures.policies.get(query.policyId) ?? emptyHosts()));
  const points: CompliancePoint[] = days.map((day) => {
    const hosts = hostsOf(figures.get(day)!);
    return { date: day, hosts, compliancePercent: compliancePercent(hosts), openFindings: figures.get(day)!.findings, final: day < today };
  });
  const policyIds = [...new Set(days.flatMap((day) => [...figures.get(day)!.policies.keys()]))].filter(
    (id) => query.policyId === undefined || id === query.policyId,
  );
  const names = await policyNames(database, policyIds);
  return {
    from,
    to,
    interval,
    policyId: query.policyId ?? null,
    group: query.group ?? null,
    customer: query.customer ?? null,
    points,
    policies: policyIds
      .map((policyId) => ({
        policyId,
        name: names.get(policyId) ?? policyId,
        points: days.map((day) => {
          const hosts: HostsByCompliance = figures.get(day)!.policies.get(policyId) ?? emptyHosts();
          return { date: day, hosts, compliancePercent: compliancePercent(hosts) };
        }),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** The window asked for, checked: `to` today by default, `from` 30 days before it. */
function windowOf(query: HistoryQuery, today: string): { from: string; to: string } {
  const to = query.to ?? today;
  checkDay('to', to);
  if (to > today) throw new DomainError('invalid', `to: ${to} is in the future (today is ${today}, UTC)`);
  const from = query.from ?? addDays(to, -DEFAULT_DAYS);
  checkDay('from', from);
  if (from > to) throw new DomainError('invalid', `from: ${from} is after to (${to})`);
  const span = (startOfDay(to).getTime() - startOfDay(from).getTime()) / DAY_MS;
  if (span > MAX_HISTORY_DAYS) throw new DomainError('invalid', `from: at most ${MAX_HISTORY_DAYS} days before to (${addDays(to, -MAX_HISTORY_DAYS)})`);
  return { from, to };
}

function checkDay(name: string, day: string): void {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(startOfDay(day).getTime()) || dayOf(startOfDay(day)) !== day)
    throw new DomainError('invalid', `${name}: ${day} is no date (YYYY-MM-DD)`);
}

/** The days the points are as of: each day, or each week's last day (Sunday), the last one `to`. */
function pointDays(from: string, to: string, interval: 'day' | 'week'): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const sunday = startOfDay(day).getUTCDay() === 0;
    if (interval === 'day' || sunday || day === to) days.push(day);
  }
  return days;
}

/** The figures of the hosts in `scope` (and of the query's group and customer) at `moment`, from the changes. */
async function computedFigures(database: Database, scope: AccessScope, query: HistoryQuery, moment: Date): Promise<Figures> {
  const [at, findings] = await Promise.all([complianceAt(database, moment, { scope, policyId: query.policyId }), openFindingsAt(database, moment, { scope })]);
  const group = query.group?.toLowerCase();
  const customer = query.customer?.toLowerCase();
  const hosts = at.hosts.filter((host) => (group === undefined || host.groups.includes(group)) && (customer === undefined || host.customer === customer));
  return figuresByScope({ ...at, hosts }, findings, true).get('fleet\n')!;
}

/**
 * The snapshots' figures of `days` for the query's group, customer or the fleet: the final snapshot of a day over, the
 * provisional one of today (`now`'s day) when under {@link PROVISIONAL_MAX_AGE_MS} old; missing or stale ones taken
 * first.
 */
async function snapshotFigures(database: Database, days: string[], query: HistoryQuery, now: Date): Promise<Map<string, Figures>> {
  if (days.length === 0) return new Map();
  const [kind, value] = query.group ? ['group', query.group.toLowerCase()] : query.customer ? ['customer', query.customer.toLowerCase()] : ['fleet', ''];
  const read = async () =>
    (await database.em
      .getKnex()('compliance_snapshot')
      .select('*')
      .whereBetween('day', [days[0]!, days.at(-1)!])
      .andWhere((rows) => {
        // The fleet's all-policies row marks a day taken, whether or not the group or customer had hosts then.
        rows.where({ scope_kind: kind, scope_value: value }).orWhere({ scope_kind: 'fleet', scope_value: '', policy_id: ALL_POLICIES });
      })) as ReadRowOf<ComplianceSnapshotRecord>[];
  const today = dayOf(now);
  const usable = (row: ReadRowOf<ComplianceSnapshotRecord>) =>
    row.day === today ? now.getTime() - new Date(row.taken_at).getTime() < PROVISIONAL_MAX_AGE_MS : isFinal(row);
  let rows = await read();
  const taken = new Set(rows.filter((row) => row.scope_kind === 'fleet' && row.policy_id === ALL_POLICIES && usable(row)).map((row) => row.day));
  const missing = days.filter((day) => !taken.has(day));
  if (missing.length > 0) {
    for (const day of missing) await (day === today ? takeProvisionalSnapshot(database, now) : takeSnapshot(database, day, now));
    rows = await read();
  }
  const figures = new Map(
    days.map((day): [string, Figures] => [day, { hosts: emptyHosts(), policies: new Map(), findings: { warning: 0, suggestion: 0, accepted: 0 } }]),
  );
  for (const row of rows) {
    const dayFigures = figures.get(row.day);
    if (!dayFigures || row.scope_kind !== kind || row.scope_value !== value) continue;
    const hosts = { compliant: Number(row.compliant), noncompliant: Number(row.noncompliant), accepted: Number(row.accepted), unknown: Number(row.unknown) };
    if (row.policy_id !== ALL_POLICIES) {
      dayFigures.policies.set(row.policy_id, hosts);
      continue;
    }
    dayFigures.hosts = hosts;
    dayFigures.findings = { warning: Number(row.open_warning), suggestion: Number(row.open_suggestion), accepted: Number(row.accepted_findings) };
  }
  return figures;
}

/** Each policy's name: its newest version's (the current one's, or the last before it was deleted). */
async function policyNames(database: Database, policyIds: string[]): Promise<Map<string, string>> {
  if (policyIds.length === 0) return new Map();
  const rows = (await database.em
    .getKnex()('policy_version')
    .select('policy_id', 'name')
    .whereIn('policy_id', policyIds)
    .orderBy(['policy_id', 'revision'])) as { policy_id: string; name: string }[];
  return new Map(rows.map((row) => [row.policy_id, row.name]));
}
