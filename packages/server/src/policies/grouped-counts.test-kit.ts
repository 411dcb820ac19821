import type { Database } from '../database/open.js';
import { effectiveResults } from './effective-results.js';

/** Status counts grouped from every result as read (waivers applied): what the kept counts must equal. */
export async function groupedCounts(orm: Database, now: Date) {
  const knex = orm.em.getKnex();
  const rows = await knex
    .from(effectiveResults(orm, now).as('e'))
    .select<{ policy_id: string; rule_id: string; host_record_id: string; status: 'pass' | 'fail' | 'error' | 'waived' }[]>(
      'policy_id',
      'rule_id',
      'host_record_id',
      'status',
    );
  const rank = { pass: 1, waived: 2, error: 3, fail: 4 };
  const byRule = new Map<string, Record<string, number>>();
  const worst = new Map<string, 'pass' | 'fail' | 'error' | 'waived'>();
  for (const row of rows) {
    const counts = byRule.get(`${row.policy_id}\n${row.rule_id}`) ?? { pass: 0, fail: 0, error: 0, waived: 0 };
    counts[row.status]! += 1;
    byRule.set(`${row.policy_id}\n${row.rule_id}`, counts);
    const key = `${row.policy_id}\n${row.host_record_id}`;
    if (!worst.has(key) || rank[row.status] > rank[worst.get(key)!]) worst.set(key, row.status);
  }
  const byPolicy = new Map<string, Record<string, number>>();
  for (const [key, status] of worst) {
    const policyId = key.split('\n')[0]!;
    const counts = byPolicy.get(policyId) ?? { pass: 0, fail: 0, error: 0, waived: 0 };
    counts[status]! += 1;
    byPolicy.set(policyId, counts);
  }
  const fleetWorst = new Map<string, number>();
  for (const [key, status] of worst) {
    const host = key.split('\n')[1]!;
    fleetWorst.set(host, Math.max(fleetWorst.get(host) ?? 0, rank[status]));
  }
  const fleet = { pass: 0, fail: 0, error: 0, waived: 0 };
  const statusOf = { 1: 'pass', 2: 'waived', 3: 'error', 4: 'fail' } as const;
  for (const value of fleetWorst.values()) fleet[statusOf[value as 1 | 2 | 3 | 4]] += 1;
  return { byRule, byPolicy, fleet };
}
