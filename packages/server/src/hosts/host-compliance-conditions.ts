// Conditions on a host (`h`) of the host list by its policy results, as `Host.compliance` reads them: the worst of
// its results with waivers applied at request time (`effectiveResults`). Each is an `exists` over the results of
// that one host, which the index on `policy_result (host_record_id, policy_id)` serves, so that a page of a large
// fleet, read in the order of another index, stops as soon as it is full.
import type { Knex, SqlEntityManager } from '@mikro-orm/knex';
import type { HostComplianceState } from '../generated/types.gen.js';
import { sqlDialectOf } from '../database/dialects.js';
import { effectiveResults } from '../policies/effective-results.js';

/** A condition in SQL on the host `h`, its values bound. */
export interface HostCondition {
  sql: string;
  bindings: unknown[];
}

const FAILING = ['fail', 'error'];

/** The hosts with this compliance: noncompliant (an unwaived failure), waived (failures, all waived), compliant (results, all passed), unknown (no result). */
export function complianceCondition(em: SqlEntityManager, state: HostComplianceState, now: Date): HostCondition {
  const unwaived = unwaivedFailure(em, now);
  switch (state) {
    case 'noncompliant':
      return unwaived;
    case 'waived':
      return both(storedResult(em, FAILING), negated(unwaived));
    case 'compliant':
      return both(storedResult(em), negated(storedResult(em, FAILING)));
    case 'unknown':
      return negated(storedResult(em));
  }
}

/** The hosts that fail (or err on) a rule of `policyId` and/or with `ruleId`, unwaived. */
export function failingCondition(em: SqlEntityManager, only: { policyId?: string; ruleId?: string }, now: Date): HostCondition {
  return unwaivedFailure(em, now, (failures) => {
    // Of the policy alone, its results' status index would draw a planner without statistics: per host, it read
    // every failure of the policy. With the rule, the results' key (policy, rule, host) serves.
    if (only.policyId !== undefined && only.ruleId === undefined) failures.whereRaw(`${sqlDialectOf(em).unindexed('e.policy_id')} = ?`, [only.policyId]);
    else if (only.policyId !== undefined) failures.andWhere('e.policy_id', only.policyId);
    if (only.ruleId !== undefined) failures.andWhere('e.rule_id', only.ruleId);
  });
}

/**
 * A result of the host (of those `narrow` keeps) that fails or errs and that no unexpired waiver covers. The stored
 * status is tested first, so that waivers are looked up for failures only.
 */
function unwaivedFailure(em: SqlEntityManager, now: Date, narrow: (failures: Knex.QueryBuilder) => void = () => {}): HostCondition {
  const knex = em.getKnex();
  const failures = knex
    .from(effectiveResults({ em }, now).as('e'))
    .select(knex.raw('1'))
    .whereRaw('e.host_record_id = h.id')
    .whereIn('e.raw_status', FAILING)
    .whereIn('e.status', FAILING);
  narrow(failures);
  return exists(failures);
}

/** A stored result of the host (with one of `statuses` when given), waivers aside. */
function storedResult(em: SqlEntityManager, statuses?: string[]): HostCondition {
  const knex = em.getKnex();
  const query = knex('policy_result as r').select(knex.raw('1')).whereRaw('r.host_record_id = h.id');
  if (statuses) query.whereIn('r.status', statuses);
  return exists(query);
}

function exists(query: Knex.QueryBuilder): HostCondition {
  const { sql, bindings } = query.toSQL();
  return { sql: `exists (${sql})`, bindings: [...bindings] };
}

const negated = (condition: HostCondition): HostCondition => ({ sql: `not ${condition.sql}`, bindings: condition.bindings });

const both = (a: HostCondition, b: HostCondition): HostCondition => ({ sql: `${a.sql} and ${b.sql}`, bindings: [...a.bindings, ...b.bindings] });
