import type { Knex } from '@mikro-orm/knex';
import type {
  HostCompliance,
  HostComplianceState,
  ListPolicyResultsData,
  PolicyResult,
  PolicyResultChange,
  RuleStatus,
  StatusCounts,
} from '../generated/types.gen.js';
import type { Database as OpenDatabase } from '../database/dialect.js';

/** What these queries need of an open database: its entity manager (or a fork of it). */
type Database = Pick<OpenDatabase, 'em'>;
import { sqlDialectOf } from '../database/dialects.js';
import { FLEET, WHOLE_POLICY } from './policy-counts.js';
import { hostInScope } from '../hosts/host-scope.js';
import { isScoped, UNSCOPED, type AccessScope } from '../people/scope.js';
import { scopedStatusCounts } from './scoped-counts.js';
import { coveringWaivers, effectiveResults, type EffectiveRow } from './effective-results.js';
import { RANK, RANK_SQL, STATUS_OF_RANK, worse } from './rule-status.js';

const HISTORY_SHOWN = 100;

/**
 * How many hosts have each status on each rule of each policy, and on each policy as a whole: the counts the
 * evaluator keeps (`policy_status_count`), with the results an unexpired waiver covers moved to `waived`. Those
 * counts are the fleet's: a scope's are counted from its hosts' results instead.
 */
export async function statusCounts(
  database: Database,
  scope: AccessScope,
  now = new Date(),
): Promise<{ byRule: Map<string, StatusCounts>; byPolicy: Map<string, StatusCounts> }> {
  const { byRule, byPolicy } = isScoped(scope) ? await scopedStatusCounts(database, scope, now) : await keptCounts(database, now);
  byPolicy.delete(FLEET);
  return { byRule, byPolicy };
}

/**
 * How many hosts have each status on each rule of each policy, waivers applied: what a policy's results pages need,
 * without {@link statusCounts}' reading of which hosts' worst status a waiver changes. The fleet's: for unscoped
 * readers only ({@link listResults}).
 */
export async function ruleCounts(database: Database, now = new Date()): Promise<Map<string, StatusCounts>> {
  return (await keptCounts(database, now, { policies: false })).byRule;
}

/**
 * The kept counts with waivers applied: by rule, by policy, and the fleet's (under {@link FLEET} in `byPolicy`;
 * with `policies` false, `byPolicy` is left without waivers).
 * A fleet-wide waiver moves its rules' failures and errors to `waived` from the kept counts alone; the results that
 * host and group waivers cover are counted in the database. Whose worst status changes is counted there too, without
 * reading the results a fleet-wide waiver covers ({@link applyToWorst}); no result row leaves the database.
 */
async function keptCounts(
  database: Database,
  now: Date,
  { policies = true } = {},
): Promise<{ byRule: Map<string, StatusCounts>; byPolicy: Map<string, StatusCounts> }> {
  const knex = database.em.getKnex();
  const [rows, waivers] = await Promise.all([
    knex('policy_status_count').select('policy_id', 'rule_id', 'status', 'hosts') as Promise<
      { policy_id: string; rule_id: string; status: RuleStatus; hosts: number | string }[]
    >,
    unexpiredWaivers(database, now),
  ]);
  const byRule = new Map<string, StatusCounts>();
  const byPolicy = new Map<string, StatusCounts>();
  for (const row of rows) {
    if (row.rule_id === WHOLE_POLICY) counted(byPolicy, row.policy_id)[row.status] += Number(row.hosts);
    else counted(byRule, `${row.policy_id}\n${row.rule_id}`)[row.status] += Number(row.hosts);
  }
  if (waivers.length === 0) return { byRule, byPolicy };
  const fleetWide = waivers.filter(isFleetWide);
  const coveredFleetWide = (policyId: string, ruleId: string) =>
    fleetWide.some((waiver) => waiver.policy_id === policyId && (waiver.rule_id === null || waiver.rule_id === ruleId));
  // The rules with failures or errors that no fleet-wide waiver covers, as kept before waivers apply.
  const uncoveredFailing = new Map<string, string[]>();
  for (const [key, counts] of byRule) {
    const [policyId = '', ruleId = ''] = key.split('\n');
    if (coveredFleetWide(policyId, ruleId)) {
      counts.waived += counts.fail + counts.error;
      counts.fail = counts.error = 0;
    } else if (counts.fail + counts.error > 0) uncoveredFailing.set(policyId, [...(uncoveredFailing.get(policyId) ?? []), ruleId]);
  }
  for (const covered of await waivedResultCounts(database, now)) {
    if (coveredFleetWide(covered.policy_id, covered.rule_id)) continue;
    const counts = counted(byRule, `${covered.policy_id}\n${covered.rule_id}`);
    counts[covered.status] -= Number(covered.hosts);
    counts.waived += Number(covered.hosts);
  }
  if (!policies) return { byRule, byPolicy };
  if (fleetWide.length > 0) await applyToWorst(database, now, byPolicy, uncoveredFailing);
  else await applyToWorstOfHosts(database, now, byPolicy);
  return { byRule, byPolicy };
}

/**
 * Host and group waivers only (few hosts): whose worst status changes, from the failures and errors of the hosts
 * they name, moved in `byPolicy`.
 */
async function applyToWorstOfHosts(database: Database, now: Date, byPolicy: Map<string, StatusCounts>): Promise<void> {
  const hosts = await waivedHosts(database, now);
  if (Array.isArray(hosts) && hosts.length === 0) return;
  const [byPolicyChanges, fleetChanges] = await Promise.all([worstChanges(database, now, hosts, 'policy'), worstChanges(database, now, hosts, 'fleet')]);
  for (const change of [...byPolicyChanges, ...fleetChanges]) {
    const counts = counted(byPolicy, change.policy_id ?? FLEET);
    counts[STATUS_OF_RANK[Number(change.stored)]!] -= Number(change.hosts);
    counts[STATUS_OF_RANK[Number(change.effective)]!] += Number(change.hosts);
  }
}

/**
 * With a fleet-wide waiver, which may cover most of the fleet's failures: each policy's (and the fleet's) hosts by
 * their worst status, from the failures and errors that no waiver covers alone. A host that fails or errs on such a
 * result keeps its worst of those; every other host that failed or erred is waived; passing hosts stay passing. The
 * rules read are those whose kept counts have a failure or error that no fleet-wide waiver covers, each from the
 * index of its policy, rule and status: the covered results, however many, and the passes are not read.
 */
async function applyToWorst(database: Database, now: Date, byPolicy: Map<string, StatusCounts>, uncoveredFailing: Map<string, string[]>): Promise<void> {
  const uncovered = new Map<string, { fail: number; error: number }>();
  if (uncoveredFailing.size > 0) {
    const [perPolicy, fleet] = await Promise.all([
      worstUncovered(database, now, uncoveredFailing, 'policy'),
      worstUncovered(database, now, uncoveredFailing, 'fleet'),
    ]);
    for (const row of [...perPolicy, ...fleet]) {
      const counts = uncovered.get(row.policy_id ?? FLEET) ?? { fail: 0, error: 0 };
      counts[Number(row.worst) === RANK.fail ? 'fail' : 'error'] += Number(row.hosts);
      uncovered.set(row.policy_id ?? FLEET, counts);
    }
  }
  for (const [policyId, counts] of byPolicy) {
    const { fail, error } = uncovered.get(policyId) ?? { fail: 0, error: 0 };
    counts.waived += counts.fail + counts.error - fail - error;
    counts.fail = fail;
    counts.error = error;
  }
}

/** How many hosts fail or err on a result of `rules` (by policy) that no waiver covers, by their worst such status, per policy or over the fleet. */
function worstUncovered(
  database: Database,
  now: Date,
  rules: Map<string, string[]>,
  by: 'policy' | 'fleet',
): Promise<{ policy_id?: string; worst: number | string; hosts: number | string }[]> {
  const knex = database.em.getKnex();
  // One part per policy, so that each reads its rules' failures from their index; a union is never flattened.
  const parts = [...rules].map(([policyId, ruleIds]) =>
    knex('policy_result as r')
      .select('r.host_record_id', 'r.policy_id', knex.raw(`${RANK_SQL} as status_rank`))
      .where('r.policy_id', policyId)
      .whereIn('r.rule_id', ruleIds)
      .whereIn('r.status', ['fail', 'error'])
      .whereNotExists(coveringWaivers(database, now)),
  );
  const failures = parts.slice(1).reduce((union, part) => union.unionAll(part), parts[0]!);
  const groups = by === 'policy' ? ['host_record_id', 'policy_id'] : ['host_record_id'];
  const perHost = knex.from(failures.as('f')).select(groups).max({ worst: 'status_rank' }).groupBy(groups);
  const columns = by === 'policy' ? ['policy_id', 'worst'] : ['worst'];
  return knex.from(perHost.as('h')).select(columns).count({ hosts: '*' }).groupBy(columns);
}

/** An unexpired waiver's scope. */
type WaiverScopeRow = { policy_id: string; rule_id: string | null; host_record_id: string | null; group_name: string | null };

/** The unexpired waivers' scopes (of one policy when given): few, read whole. */
function unexpiredWaivers(database: Database, now: Date, policyId?: string): Promise<WaiverScopeRow[]> {
  const waivers = database.em
    .getKnex()('waiver')
    .select('policy_id', 'rule_id', 'host_record_id', 'group_name')
    .where('expires_at', '>', sqlDialectOf(database.em).toDatabaseTime(now));
  if (policyId !== undefined) waivers.andWhere('policy_id', policyId);
  return waivers as Promise<WaiverScopeRow[]>;
}

/** A waiver of every host its policy covers (it names neither a host nor a group). */
const isFleetWide = (waiver: WaiverScopeRow) => waiver.host_record_id === null && waiver.group_name === null;

/** How many stored `fail` and `error` results host and group waivers cover, by policy, rule and stored status. */
async function waivedResultCounts(
  database: Database,
  now: Date,
): Promise<{ policy_id: string; rule_id: string; status: RuleStatus; hosts: number | string }[]> {
  const hosts = await waivedHosts(database, now, undefined, { fleetWide: false });
  return database.em
    .getKnex()
    .from(coveredResults(database, now, hosts, ['policy_id', 'rule_id', 'status']).as('c'))
    .select('policy_id', 'rule_id', 'status')
    .count({ hosts: '*' })
    .groupBy('policy_id', 'rule_id', 'status');
}

/**
 * How many of `hosts` have another worst status on each policy (`by: 'policy'`) or over the fleet once waivers apply,
 * by stored and effective {@link RANK}: from their failures and errors alone, as every one of these hosts has one.
 */
function worstChanges(
  database: Database,
  now: Date,
  hosts: WaivedHosts,
  by: 'policy' | 'fleet',
): Promise<{ policy_id?: string; stored: number | string; effective: number | string; hosts: number | string }[]> {
  const knex = database.em.getKnex();
  const groups = by === 'policy' ? ['r.host_record_id', 'r.policy_id'] : ['r.host_record_id'];
  const perHost = knex('policy_result as r')
    .select(groups)
    .select(knex.raw(`max(${RANK_SQL}) as stored`))
    .select(knex.raw(`max(case when exists ? then ${RANK.waived} else ${RANK_SQL} end) as effective`, [coveringWaivers(database, now)]))
    .whereIn('r.host_record_id', hostIdsOf(hosts))
    .andWhere('r.status', '<>', 'pass')
    .groupBy(groups);
  const changes = knex
    .from(perHost.as('h'))
    .select(by === 'policy' ? ['policy_id', 'stored', 'effective'] : ['stored', 'effective'])
    .count({ hosts: '*' })
    .whereRaw('stored <> effective');
  return changes.groupBy(by === 'policy' ? ['policy_id', 'stored', 'effective'] : ['stored', 'effective']);
}

/** Most hosts named by value in {@link coveredResults}; more are named by their query. */
const MAX_NAMED_HOSTS = 10_000;

/**
 * The hosts {@link waivedHosts} finds: their ids, or the query that selects them. The query is wrapped: a knex query
 * builder is a thenable, so an async function returning it bare would run it and hand back its rows instead.
 */
type WaivedHosts = string[] | { query: Knex.QueryBuilder };

/** `hosts` as `whereIn` takes them. */
const hostIdsOf = (hosts: WaivedHosts): string[] | Knex.QueryBuilder => (Array.isArray(hosts) ? hosts : hosts.query);

/**
 * The hosts an unexpired waiver (of one policy when given) may cover: those it names, those whose groups it names,
 * and (unless `fleetWide` is false) those failing or erring on a rule a fleet-wide waiver names. By value when they
 * are few: the results of hosts named by value are found by their index even where the planner knows nothing of the
 * table (PostgreSQL before its first analyze read every result to join them to the waivers' query). A group's hosts
 * come from the labels' index by the group's lowered name: joined to the waivers, SQLite read every group label per
 * waiver. A fleet-wide waiver's hosts are named by their query, however many.
 */
async function waivedHosts(database: Database, now: Date, policyId?: string, { fleetWide = true } = {}): Promise<WaivedHosts> {
  const knex = database.em.getKnex();
  const rows = await unexpiredWaivers(database, now, policyId);
  const named = [...new Set(rows.flatMap((row) => (row.host_record_id === null ? [] : [row.host_record_id])))];
  const groups = [...new Set(rows.flatMap((row) => (row.group_name === null ? [] : [row.group_name])))];
  const fleet = fleetWide ? rows.filter(isFleetWide) : [];
  const members =
    groups.length === 0
      ? undefined
      : knex('host_label')
          .select('host_record_id')
          .where('kind', 'group')
          .whereRaw(`lower(value) in (${groups.map(() => 'lower(?)').join(', ')})`, groups);
  if (fleet.length > 0) {
    const failing = knex('policy_result')
      .select('host_record_id')
      .where('status', '<>', 'pass')
      .andWhere((covered) => {
        for (const waiver of fleet)
          covered.orWhere(waiver.rule_id === null ? { policy_id: waiver.policy_id } : { policy_id: waiver.policy_id, rule_id: waiver.rule_id });
      });
    if (members) failing.union(members);
    if (named.length > 0) failing.union(knex('host').select({ host_record_id: 'id' }).whereIn('id', named));
    return { query: failing };
  }
  if (!members) return named;
  const ids = ((await members.clone().limit(MAX_NAMED_HOSTS + 1)) as { host_record_id: string }[]).map((row) => row.host_record_id);
  return ids.length > MAX_NAMED_HOSTS
    ? { query: named.length > 0 ? members.union(knex('host').select({ host_record_id: 'id' }).whereIn('id', named)) : members }
    : [...new Set([...named, ...ids])];
}

/** The results that unexpired waivers cover among `hosts` (from {@link waivedHosts}) as a query of their `columns`, of one policy (and rule) when given. */
function coveredResults(
  database: Database,
  now: Date,
  hosts: WaivedHosts,
  columns: string[],
  only: { policyId?: string; ruleId?: string } = {},
): Knex.QueryBuilder {
  const knex = database.em.getKnex();
  const query = knex('policy_result as r')
    .select(columns.map((column) => `r.${column}`))
    .whereIn('r.host_record_id', hostIdsOf(hosts))
    .andWhere('r.status', '<>', 'pass')
    // The policy named in the waivers' query only: named here, it would have SQLite read the whole policy's results.
    .whereExists(coveringWaivers(database, now, only.policyId));
  if (only.ruleId !== undefined) query.andWhere('r.rule_id', only.ruleId);
  return query;
}

/** The statuses in the order pages show them, worst first. */
const PAGE_ORDER = (Object.keys(RANK) as RuleStatus[]).sort((a, b) => RANK[b] - RANK[a]);
/** The order within a status: by host name, none last, then host and rule (as the `policy_result` page indexes hold it). */
const WITHIN_STATUS = ['nameless', 'hostname', 'host_record_id', 'rule_id'];

/**
 * One page of a policy's results: failures first, then errors, waived and passes; within those by host name. Each
 * status's part of the page is read in order from an index, its size known from the kept counts, so that no page
 * sorts every result: the few waived results are read, and left out of the stored failures and errors, on their own.
 * Every host's results, from the fleet's counts: a scoped page is read by `resultPage` from its hosts' rows instead.
 */
export async function listResults(
  database: Database,
  policyId: string,
  filter: NonNullable<ListPolicyResultsData['query']> & { limit: number; offset: number },
  now = new Date(),
): Promise<{ items: PolicyResult[]; total: number }> {
  const byRule = await ruleCounts(database, now);
  const sizes = emptyCounts();
  for (const [key, counts] of byRule) {
    const [policy, rule] = key.split('\n');
    if (policy !== policyId || (filter.ruleId !== undefined && rule !== filter.ruleId)) continue;
    for (const status of PAGE_ORDER) sizes[status] += counts[status];
  }
  const coverage: PageCoverage =
    sizes.waived > 0
      ? { hosts: await waivedHosts(database, now, policyId, { fleetWide: false }), fleetRules: await fleetWaivedRules(database, now, policyId) }
      : { hosts: [], fleetRules: [] };
  const shown = PAGE_ORDER.filter((status) => filter.status === undefined || status === filter.status);
  const keys: ResultKey[] = [];
  let start = 0;
  for (const status of shown) {
    const from = Math.max(filter.offset - start, 0);
    const to = Math.min(filter.offset + filter.limit - start, sizes[status]);
    if (from < to)
      keys.push(...(await statusPage(database, policyId, filter.ruleId, status, coverage, { offset: from, limit: to - from, of: sizes[status] }, now)));
    start += sizes[status];
  }
  return { items: await resultsOf(database, policyId, keys, now), total: shown.reduce((sum, status) => sum + sizes[status], 0) };
}

/** A result's key within its policy. */
export type ResultKey = { host_record_id: string; rule_id: string };

/**
 * What a policy's unexpired waivers cover, as a page reads it: the hosts that host and group waivers name, and the
 * rules that fleet-wide ones cover (every failure and error of those rules is waived, so they are told by rule id
 * alone: a fleet-wide waiver of a large policy adds no per-result lookup to a page).
 */
type PageCoverage = { hosts: WaivedHosts; fleetRules: string[] };

/** The rules of `policyId` that an unexpired fleet-wide waiver covers (a waiver of the whole policy covers every rule it has results for). */
async function fleetWaivedRules(database: Database, now: Date, policyId: string): Promise<string[]> {
  const fleet = (await unexpiredWaivers(database, now, policyId)).filter(isFleetWide);
  if (fleet.length === 0) return [];
  if (fleet.some((waiver) => waiver.rule_id === null)) {
    const rules = (await database.em
      .getKnex()('policy_status_count')
      .distinct('rule_id')
      .where('policy_id', policyId)
      .andWhereNot('rule_id', WHOLE_POLICY)) as {
      rule_id: string;
    }[];
    return rules.map((row) => row.rule_id);
  }
  return [...new Set(fleet.map((waiver) => waiver.rule_id!))];
}

/**
 * A slice of the `of` results that read `status`, in page order: from an index for a stored status (without the
 * results a waiver covers, of `waivedHosts`), from the few waived results for `waived`. A slice past the middle
 * is read backwards from the end, so that no page skips more than half of them.
 */
async function statusPage(
  database: Database,
  policyId: string,
  ruleId: string | undefined,
  status: RuleStatus,
  coverage: PageCoverage,
  slice: { offset: number; limit: number; of: number },
  now: Date,
): Promise<ResultKey[]> {
  const knex = database.em.getKnex();
  const waived = (columns: string[]) => coveredResults(database, now, coverage.hosts, columns, { policyId, ruleId });
  const fleetRules = ruleId === undefined ? coverage.fleetRules : coverage.fleetRules.filter((rule) => rule === ruleId);
  const byHost = !Array.isArray(coverage.hosts) || coverage.hosts.length > 0;
  let query: Knex.QueryBuilder;
  if (status === 'waived') {
    const columns = ['host_record_id', 'rule_id', 'nameless', 'hostname'];
    const byRule = knex('policy_result').select(columns).where('policy_id', policyId).whereIn('rule_id', fleetRules).andWhere('status', '<>', 'pass');
    // `union`, not `union all`: a result both kinds of waiver cover is listed once.
    const covered = fleetRules.length === 0 ? waived(columns) : byHost ? byRule.union(waived(columns)) : byRule;
    query = knex.from(covered.as('c')).select('host_record_id', 'rule_id');
  } else {
    query = knex('policy_result').select('host_record_id', 'rule_id').where('policy_id', policyId).andWhere('status', status);
    if (ruleId !== undefined) query.andWhere('rule_id', ruleId);
    if (status !== 'pass' && fleetRules.length > 0) query.whereNotIn('rule_id', fleetRules);
    if (status !== 'pass' && byHost) query.andWhereRaw('(host_record_id, rule_id) not in ?', [waived(['host_record_id', 'rule_id'])]);
  }
  const after = slice.of - slice.offset - slice.limit;
  const backwards = slice.offset > after;
  const rows = (await query
    .orderBy(WITHIN_STATUS.map((column) => ({ column, order: backwards ? 'desc' : 'asc' })))
    .offset(backwards ? after : slice.offset)
    .limit(slice.limit)) as ResultKey[];
  return backwards ? rows.reverse() : rows;
}

/** The results of `keys`, in their order, as {@link effectiveResults} reads them. */
export async function resultsOf(database: Database, policyId: string, keys: ResultKey[], now: Date): Promise<PolicyResult[]> {
  if (keys.length === 0) return [];
  const hosts = [...new Set(keys.map((key) => key.host_record_id))];
  const rows = (await database.em
    .getKnex()
    .from(effectiveResults(database, now).as('e'))
    .select('*')
    .where('policy_id', policyId)
    .whereIn('host_record_id', hosts)) as EffectiveRow[];
  const byKey = new Map(rows.map((row) => [`${row.host_record_id}\n${row.rule_id}`, row]));
  // A result deleted since its key was read (its host now out of scope) is left out.
  return keys.flatMap((key) => {
    const row = byKey.get(`${key.host_record_id}\n${key.rule_id}`);
    return row ? [toResult(row)] : [];
  });
}

/** A host's results on every policy and the latest changes of its status; null when there is no such host in `scope`. */
export async function hostCompliance(database: Database, scope: AccessScope, hostRecordId: string, now = new Date()): Promise<HostCompliance | null> {
  const knex = database.em.getKnex();
  if (!(await hostInScope(knex, scope, hostRecordId))) return null;
  const [rows, history] = await Promise.all([
    knex.from(effectiveResults(database, now).as('e')).select('*').where('host_record_id', hostRecordId).orderBy(['policy_id', 'rule_id']) as Promise<
      EffectiveRow[]
    >,
    knex('policy_result_change')
      .select('*')
      .where('host_record_id', hostRecordId)
      .orderBy([
        { column: 'at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(HISTORY_SHOWN) as Promise<
      { policy_id: string; rule_id: string; status: PolicyResultChange['status']; value: string | null; report_id: string; at: Date | number }[]
    >,
  ]);
  const results = rows.map(toResult);
  const worst = Math.max(0, ...results.map((result) => RANK[result.status]));
  return {
    hostRecordId,
    status: worst === 0 ? null : STATUS_OF_RANK[worst]!,
    results,
    history: history.map((change): PolicyResultChange => ({
      policyId: change.policy_id,
      ruleId: change.rule_id,
      status: change.status,
      value: change.value,
      reportId: change.report_id,
      at: new Date(change.at).toISOString(),
    })),
  };
}

/** How many hosts in `scope` have each status over every enabled policy that applies to them (a host counts with its worst). */
export async function fleetCompliance(database: Database, scope: AccessScope, now = new Date()): Promise<{ hosts: StatusCounts; evaluatedHosts: number }> {
  const counts = isScoped(scope) ? await scopedStatusCounts(database, scope, now) : await keptCounts(database, now);
  const hosts = counts.byPolicy.get(FLEET) ?? emptyCounts();
  return { hosts, evaluatedHosts: hosts.pass + hosts.fail + hosts.error + hosts.waived };
}

/** Writes today's measure of the fleet's compliance (the last one of a day stands for it in the trend). */
export async function recordComplianceDay(database: Database, now = new Date()): Promise<void> {
  const { hosts } = await fleetCompliance(database, UNSCOPED, now);
  const row = { day: now.toISOString().slice(0, 10), ...hosts, measured_at: sqlDialectOf(database.em).toDatabaseTime(now) };
  await database.em.getKnex()('compliance_day').insert(row).onConflict('day').merge();
}

/** A host's compliance as the host list and exports name it, from its worst rule result: a rule that cannot be evaluated proves nothing, so it counts as a failure. */
const STATE_OF: Record<RuleStatus, HostComplianceState> = { fail: 'noncompliant', error: 'noncompliant', waived: 'waived', pass: 'compliant' };

/** The compliance of each of `hostRecordIds` over every policy (its worst rule, as {@link hostCompliance} gives it); `unknown` when none applies. */
export async function hostCompliances(database: Database, hostRecordIds: string[], now = new Date()): Promise<Map<string, HostComplianceState>> {
  const knex = database.em.getKnex();
  const rows = (await knex.from(effectiveResults(database, now).as('e')).select('host_record_id', 'status').whereIn('host_record_id', hostRecordIds)) as {
    host_record_id: string;
    status: RuleStatus;
  }[];
  const worst = new Map<string, RuleStatus>();
  for (const row of rows) worst.set(row.host_record_id, worse(worst.get(row.host_record_id), row.status));
  return new Map(
    hostRecordIds.map((id) => {
      const status = worst.get(id);
      return [id, status ? STATE_OF[status] : 'unknown'];
    }),
  );
}

/**
 * The rules each of `hostRecordIds` fails, as `policyName/ruleId` by policy name then rule id: `fail` and `error`
 * results no unexpired waiver covers (an error proves nothing, so it fails as {@link hostCompliances} counts it).
 */
export async function failingRules(database: Database, hostRecordIds: string[], now = new Date()): Promise<Map<string, string[]>> {
  const knex = database.em.getKnex();
  const rows = (await knex
    .from(effectiveResults(database, now).as('e'))
    .join('policy as p', 'p.id', 'e.policy_id')
    .select('e.host_record_id', 'p.name', 'e.rule_id')
    .whereIn('e.host_record_id', hostRecordIds)
    .whereIn('e.status', ['fail', 'error'])
    .orderBy(['e.host_record_id', 'p.name', 'e.rule_id'])) as { host_record_id: string; name: string; rule_id: string }[];
  const failing = new Map<string, string[]>(hostRecordIds.map((id) => [id, []]));
  for (const row of rows) failing.get(row.host_record_id)?.push(`${row.name}/${row.rule_id}`);
  return failing;
}

function counted(map: Map<string, StatusCounts>, key: string): StatusCounts {
  let counts = map.get(key);
  if (!counts) map.set(key, (counts = emptyCounts()));
  return counts;
}

export const emptyCounts = (): StatusCounts => ({ pass: 0, fail: 0, error: 0, waived: 0 });

/** A result as the contract shows it. */
export function toResult(row: EffectiveRow): PolicyResult {
  return {
    policyId: row.policy_id,
    ruleId: row.rule_id,
    hostRecordId: row.host_record_id,
    hostname: row.hostname,
    hostId: row.host_id,
    status: row.status,
    value: row.value,
    message: row.message,
    reportId: row.report_id,
    evaluatedAt: new Date(row.evaluated_at).toISOString(),
    since: new Date(row.since).toISOString(),
    policyRevision: Number(row.policy_revision),
    waiverId: row.waiver_id,
  };
}
