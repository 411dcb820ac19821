// A policy's results as of a past moment T (`at`): for each host the policy's version in force at T covered then
// (`compliance/compliance-at.ts`), on each rule of that version, the status its latest change by T recorded, a failure
// or error a waiver in force then covered read as `waived`. Read whole for the policy, as compliance at a moment
// reads its hosts, then filtered, sorted and paged here.
import type { Knex } from '@mikro-orm/knex';
import type { PolicyResult, RuleStatus } from '../generated/types.gen.js';
import type { Database, DatabaseTime } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { complianceAt } from '../compliance/compliance-at.js';
import { hostIdsAt } from '../compliance/hosts-at.js';
import { waiverCovers, waiversInForce } from '../compliance/waiver-history.js';
import type { AccessScope } from '../people/scope.js';
import type { ResultQuery } from './result-search.js';
import { RANK } from './rule-status.js';

/** A host's latest change by T on a rule, with the host name of the report it came from and the host's `hostid`. */
interface ChangeRow {
  host_record_id: string;
  rule_id: string;
  status: RuleStatus;
  value: string | null;
  report_id: string;
  at: Date | number | string;
  policy_revision: number | null;
  hostname: string | null;
  host_id: string;
}

/**
 * One page of a policy's results as of `at`, with the total over all pages, filtered and ordered as
 * {@link ResultQuery} says. A result's `evaluatedAt` and `since` are when its status was recorded (evaluations
 * that left it unchanged are not kept), its message is not kept (null), and its `waiverId` is null: the waivers in
 * force then are known by their terms. No policy version in force then: no results.
 */
export async function resultPageAsOf(
  database: Database,
  scope: AccessScope,
  policyId: string,
  query: ResultQuery,
  at: Date,
): Promise<{ items: PolicyResult[]; total: number }> {
  const knex = database.em.getKnex();
  const time = sqlDialectOf(database.em).toDatabaseTime(at);
  const [{ policies, hosts }, waivers] = await Promise.all([
    complianceAt(database, at, { scope, policyId }),
    waiversInForce(knex, time).then((terms) => terms.filter((waiver) => waiver.policy_id === policyId)),
  ]);
  const version = policies.find((policy) => policy.policyId === policyId);
  if (!version) return { items: [], total: 0 };
  const covered = new Map(hosts.filter((host) => host.policies.has(policyId)).map((host) => [host.hostRecordId, host]));
  const ruleIds = version.rules.map((rule) => rule.id).filter((ruleId) => query.ruleId === undefined || ruleId === query.ruleId);
  const changes = ruleIds.length === 0 ? [] : await latestChanges(knex, time, scope, policyId, ruleIds);
  const needle = query.hostname?.toLowerCase();
  const results = changes
    .filter((change) => covered.has(change.host_record_id))
    .map((change): PolicyResult => {
      const waived = change.status !== 'pass' && waivers.some((waiver) => waiverCovers(waiver, change.rule_id, covered.get(change.host_record_id)!));
      const recorded = new Date(change.at).toISOString();
      return {
        policyId,
        ruleId: change.rule_id,
        hostRecordId: change.host_record_id,
        hostname: change.hostname,
        hostId: change.host_id,
        status: waived ? 'waived' : change.status,
        value: change.value,
        message: null,
        reportId: change.report_id,
        evaluatedAt: recorded,
        since: recorded,
        policyRevision: change.policy_revision ?? version.revision,
        waiverId: null,
      };
    })
    .filter((result) => query.status === undefined || result.status === query.status)
    .filter((result) => needle === undefined || (result.hostname ?? '').toLowerCase().includes(needle))
    .sort(comparing(query.sort, query.order));
  return { items: results.slice(query.offset, query.offset + query.limit), total: results.length };
}

/** Each host's (of those counted at `time`) latest change by then on each of the policy's `ruleIds`. */
async function latestChanges(knex: Knex, time: DatabaseTime, scope: AccessScope, policyId: string, ruleIds: string[]): Promise<ChangeRow[]> {
  const changes = knex('policy_result_change')
    .select('*', knex.raw('row_number() over (partition by host_record_id, rule_id order by at desc, id desc) as newest'))
    .where('policy_id', policyId)
    .whereIn('rule_id', ruleIds)
    .andWhere('at', '<=', time)
    .whereIn('host_record_id', hostIdsAt(knex, time, { scope }));
  return (await knex
    .from(changes.as('c'))
    .join('report as r', 'r.id', 'c.report_id')
    .join('host as h', 'h.id', 'c.host_record_id')
    .select('c.host_record_id', 'c.rule_id', 'c.status', 'c.value', 'c.report_id', 'c.at', 'c.policy_revision', 'r.hostname', 'h.host_id')
    .where('c.newest', 1)) as ChangeRow[];
}

/** The order of a results page: by `sort` (`status` `asc` puts failures first), ties by host name (none last), host and rule. */
function comparing(sort: ResultQuery['sort'], order: 'asc' | 'desc'): (a: PolicyResult, b: PolicyResult) => number {
  const direction = order === 'asc' ? 1 : -1;
  const byName = (a: PolicyResult, b: PolicyResult) =>
    a.hostname === b.hostname ? 0 : a.hostname === null ? 1 : b.hostname === null ? -1 : a.hostname < b.hostname ? -1 : 1;
  const bySort: Record<ResultQuery['sort'], (a: PolicyResult, b: PolicyResult) => number> = {
    status: (a, b) => RANK[b.status] - RANK[a.status],
    hostname: byName,
    since: (a, b) => a.since.localeCompare(b.since),
    rule: (a, b) => a.ruleId.localeCompare(b.ruleId),
  };
  const ties = (a: PolicyResult, b: PolicyResult) => byName(a, b) || a.hostRecordId.localeCompare(b.hostRecordId) || a.ruleId.localeCompare(b.ruleId);
  return (a, b) => {
    const first = bySort[sort](a, b);
    // Hosts without a name come last either way.
    if (sort === 'hostname' && (a.hostname === null) !== (b.hostname === null)) return first;
    return first * direction || ties(a, b);
  };
}
