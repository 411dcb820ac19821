import type { Knex } from '@mikro-orm/knex';
import type { RuleStatus } from '../generated/types.gen.js';
import { applyCountDeltas, CountDeltas } from '../database/count-deltas.js';
import type { SqlDialect } from '../database/dialect.js';
import { RANK, RANK_SQL, worse } from './rule-status.js';

/** `policy_status_count.rule_id` of the counts of a policy as a whole (no rule id is empty). */
export const WHOLE_POLICY = '';
/** `policy_status_count.policy_id` of the counts of the fleet (each host with its worst result over every policy). */
export const FLEET = '00000000-0000-0000-0000-000000000000';

/** A host's worst result in SQL over `policy_result` rows (the statuses are constants, never request input). */
const WORST_SQL = `max(${RANK_SQL})`;
const STATUS_OF_RANK_SQL = `case worst ${Object.entries(RANK)
  .map(([status, value]) => `when ${value} then '${status}'`)
  .join(' ')} end`;

/** A stored result as counted: its policy, rule, host and status before waivers. */
export interface CountedResult {
  policy_id: string;
  rule_id: string;
  host_record_id: string;
  status: RuleStatus;
}

/**
 * Keeps `policy_status_count` equal to the stored results counted by policy, rule and status, by policy and each
 * host's worst status, and by each host's worst status over every policy, in the transaction that replaced `removed`
 * with `added`: every result of the hosts concerned (the evaluator replaces a host's results all at once).
 */
export async function countResults(trx: Knex.Transaction, dialect: SqlDialect, removed: CountedResult[], added: CountedResult[]): Promise<void> {
  const deltas = new CountDeltas();
  const count = (results: CountedResult[], step: number) => {
    const worst = new Map<string, { policyId: string; status: RuleStatus }>();
    const keepWorst = (key: string, policyId: string, status: RuleStatus) => worst.set(key, { policyId, status: worse(worst.get(key)?.status, status) });
    for (const result of results) {
      deltas.add([result.policy_id, result.rule_id, result.status], step);
      keepWorst(`${result.policy_id}\n${result.host_record_id}`, result.policy_id, result.status);
      keepWorst(`${FLEET}\n${result.host_record_id}`, FLEET, result.status);
    }
    for (const { policyId, status } of worst.values()) deltas.add([policyId, WHOLE_POLICY, status], step);
  };
  count(removed, -1);
  count(added, 1);
  await applyCountDeltas(
    trx,
    dialect,
    'policy_status_count',
    [
      ['policy_id', 'uuid'],
      ['rule_id', 'text'],
      ['status', 'text'],
    ],
    deltas,
  );
}

/**
 * Counts the fleet's hosts by their worst result again from every result, in the caller's transaction: after a
 * policy's results are deleted at once, which changes the worst status of hosts no evaluation replaces.
 */
export async function recountFleet(trx: Knex.Transaction): Promise<void> {
  await trx('policy_status_count').where('policy_id', FLEET).delete();
  // Constants written into the SQL, so that PostgreSQL takes the first for a uuid.
  await trx.raw(
    `insert into policy_status_count (policy_id, rule_id, status, hosts) select '${FLEET}', '${WHOLE_POLICY}', ${STATUS_OF_RANK_SQL}, count(*) from (select host_record_id, ${WORST_SQL} as worst from policy_result group by host_record_id) as per_host group by worst`,
  );
}
