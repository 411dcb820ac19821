import type { Knex } from '@mikro-orm/knex';
import type { RuleStatus } from '@org/audit-server-core';
import { applyCountDeltas, CountDeltas } from '../database/count-deltas.js';
import type { SqlDialect } from '../database/dialect.js';

/** Statuses from worst to best: a host's status on a policy is its worst rule's. */
export const RANK: Record<RuleStatus, number> = { fail: 4, error: 3, waived: 2, pass: 1 };

/** `policy_status_count.rule_id` of the counts of a policy as a whole (no rule id is empty). */
export const WHOLE_POLICY = '';

/** A stored result as counted: its policy, rule, host and status before waivers. */
export interface CountedResult {
  policy_id: string;
  rule_id: string;
  host_record_id: string;
  status: string;
}

/**
 * Keeps `policy_status_count` equal to the stored results counted by policy, rule and status, and by policy and each
 * host's worst status, in the transaction that replaced `removed` with `added`.
 */
export async function countResults(trx: Knex.Transaction, dialect: SqlDialect, removed: CountedResult[], added: CountedResult[]): Promise<void> {
  const deltas = new CountDeltas();
  const count = (results: CountedResult[], step: number) => {
    const worst = new Map<string, { policyId: string; status: string }>();
    for (const result of results) {
      deltas.add([result.policy_id, result.rule_id, result.status], step);
      const key = `${result.policy_id}\n${result.host_record_id}`;
      const known = worst.get(key);
      if (!known || RANK[result.status as RuleStatus] > RANK[known.status as RuleStatus]) worst.set(key, { policyId: result.policy_id, status: result.status });
    }
    for (const { policyId, status } of worst.values()) deltas.add([policyId, WHOLE_POLICY, status], step);
  };
  count(removed, -1);
  count(added, 1);
  await applyCountDeltas(trx, dialect, 'policy_status_count', [['policy_id', 'uuid'], ['rule_id', 'text'], ['status', 'text']], deltas);
}
