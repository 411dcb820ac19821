// A scoped actor's status counts. The counts the evaluator keeps (`policy_status_count`) are the fleet's: for a scope
// they are counted from its hosts' results as read (waivers applied) instead, the same figures over fewer hosts.
import type { RuleStatus, StatusCounts } from '../generated/types.gen.js';
import type { Database as OpenDatabase } from '../database/dialect.js';
import { limitToScope } from '../hosts/host-scope.js';
import type { AccessScope } from '../people/scope.js';
import { effectiveResults } from './effective-results.js';
import { FLEET } from './policy-counts.js';
import { RANK_SQL, STATUS_OF_RANK } from './rule-status.js';

type Database = Pick<OpenDatabase, 'em'>;
type Count = number | string;

/**
 * How many of the hosts in `scope` have each status on each rule of each policy (`byRule`, by `policy\nrule`), on each
 * policy as a whole and over every policy (`byPolicy`, the latter under {@link FLEET}): a host counts with its worst.
 */
export async function scopedStatusCounts(
  database: Database,
  scope: AccessScope,
  now: Date,
): Promise<{ byRule: Map<string, StatusCounts>; byPolicy: Map<string, StatusCounts> }> {
  const knex = database.em.getKnex();
  const results = () => {
    const query = knex.from(effectiveResults(database, now).as('e'));
    limitToScope(knex, query, 'e.host_record_id', scope);
    return query;
  };
  const worstOf = (groups: string[]) =>
    knex
      .from(
        results()
          .select(groups)
          .select(knex.raw(`max(${RANK_SQL}) as worst`))
          .groupBy(groups)
          .as('w'),
      )
      .select(groups.filter((column) => column !== 'host_record_id'))
      .select('worst')
      .count({ hosts: '*' })
      .groupBy([...groups.filter((column) => column !== 'host_record_id'), 'worst']);
  const [rules, policies, fleet] = (await Promise.all([
    results().select('policy_id', 'rule_id', 'status').count({ hosts: '*' }).groupBy('policy_id', 'rule_id', 'status'),
    worstOf(['policy_id', 'host_record_id']),
    worstOf(['host_record_id']),
  ])) as [
    { policy_id: string; rule_id: string; status: RuleStatus; hosts: Count }[],
    { policy_id: string; worst: Count; hosts: Count }[],
    { worst: Count; hosts: Count }[],
  ];
  const byRule = new Map<string, StatusCounts>();
  for (const row of rules) countsOf(byRule, `${row.policy_id}\n${row.rule_id}`)[row.status] += Number(row.hosts);
  const byPolicy = new Map<string, StatusCounts>();
  for (const row of [...policies, ...fleet.map((row) => ({ ...row, policy_id: FLEET }))])
    countsOf(byPolicy, row.policy_id)[STATUS_OF_RANK[Number(row.worst)]!] += Number(row.hosts);
  return { byRule, byPolicy };
}

function countsOf(map: Map<string, StatusCounts>, key: string): StatusCounts {
  let counts = map.get(key);
  if (!counts) map.set(key, (counts = { pass: 0, fail: 0, error: 0, waived: 0 }));
  return counts;
}
