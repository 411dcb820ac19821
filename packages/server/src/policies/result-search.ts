// A page of a policy's results as `GET /api/admin/policies/{policyId}/results` asks for it: the default (failures
// first, no search) from the kept counts and page indexes (`listResults`); a search by host name or another order
// sorted and counted by the database.
import type { Knex } from '@mikro-orm/knex';
import type { ListPolicyResultsData, PolicyResult, RuleStatus } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { limitToScope } from '../hosts/host-scope.js';
import { isScoped, type AccessScope } from '../people/scope.js';
import { effectiveResults } from './effective-results.js';
import { listResults, resultsOf, type ResultKey } from './policy-results.js';
import { RANK_SQL } from './rule-status.js';

/** The query of a results page, its defaults filled in. */
export type ResultQuery = NonNullable<ListPolicyResultsData['query']> & {
  limit: number;
  offset: number;
  sort: NonNullable<NonNullable<ListPolicyResultsData['query']>['sort']>;
  order: 'asc' | 'desc';
};

/** The stored statuses a result with each status (waivers applied) has: reading only those spares looking up waivers for the others. */
const STORED: Record<RuleStatus, RuleStatus[]> = { fail: ['fail'], error: ['error'], waived: ['fail', 'error'], pass: ['pass'] };

/**
 * One page of a policy's results, with the total over all pages. The page's keys are read first and its results
 * as read (waivers applied) then: unless the status filters or orders them, the keys and the total come from the
 * stored results alone, so that no waiver is looked up for a result the page does not show. Only the results of the
 * hosts in `scope`: a scoped page is always counted from its rows, as the kept counts are the fleet's.
 */
export async function resultPage(
  database: Database,
  scope: AccessScope,
  policyId: string,
  query: ResultQuery,
  now = new Date(),
): Promise<{ items: PolicyResult[]; total: number }> {
  const { ruleId, status, hostname, sort, order, limit, offset } = query;
  if (!isScoped(scope) && hostname === undefined && sort === 'status' && order === 'asc')
    return listResults(database, policyId, { ruleId, status, limit, offset }, now);
  const knex = database.em.getKnex();
  const results: Knex.QueryBuilder =
    status === undefined && sort !== 'status' ? knex('policy_result as e') : knex.from(effectiveResults(database, now).as('e'));
  results.where('e.policy_id', policyId);
  limitToScope(knex, results, 'e.host_record_id', scope);
  if (ruleId !== undefined) results.andWhere('e.rule_id', ruleId);
  if (status !== undefined) results.whereIn('e.raw_status', STORED[status]).andWhere('e.status', status);
  if (hostname !== undefined) {
    const { sql, bindings } = sqlDialectOf(database.em).containsIgnoringCase('e.hostname', hostname);
    results.andWhereRaw(sql, bindings);
  }
  const page = ordered(database, results.clone().select('e.host_record_id', 'e.rule_id'), sort, order).limit(limit).offset(offset);
  const [keys, [counted]] = (await Promise.all([page, results.clone().count({ total: '*' })])) as [ResultKey[], { total: number | string }[]];
  return { items: await resultsOf(database, policyId, keys, now), total: Number(counted!.total) };
}

/** `query` in the order of `sort` and `order`; ties by host name (none last), host and rule, always ascending. */
function ordered(database: Database, query: Knex.QueryBuilder, sort: ResultQuery['sort'], order: 'asc' | 'desc'): Knex.QueryBuilder {
  const dialect = sqlDialectOf(database.em);
  // The worst status ranks highest: `asc`, the default, puts failures first.
  if (sort === 'status') query.orderByRaw(`${RANK_SQL} ${order === 'asc' ? 'desc' : 'asc'}`);
  if (sort === 'since') query.orderBy('e.since', order);
  if (sort === 'rule') query.orderBy('e.rule_id', order);
  dialect.orderNullsLast(query, 'e.hostname', sort === 'hostname' ? order : 'asc');
  return query.orderBy(['e.host_record_id', 'e.rule_id']);
}
