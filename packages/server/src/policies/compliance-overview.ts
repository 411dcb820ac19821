import type { Overview } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { isScoped, type AccessScope } from '../people/scope.js';
import { fleetComplianceAt } from './compliance-as-of.js';
import { fleetCompliance } from './policy-results.js';

type Trend = Overview['compliance']['trend'];

/**
 * The compliance of the hosts in `scope` now (or, `past`, at the moment `now`, from the changes recorded by then),
 * and as measured on each day from `firstDay` (`YYYY-MM-DD`) to that of `now`. The days measured
 * (`compliance_day`) are the fleet's: a scope's trend holds its measure of that day alone, as no day before was
 * measured for it.
 */
export async function complianceOverview(
  database: Database,
  scope: AccessScope,
  now: Date,
  firstDay: string,
  { past = false } = {},
): Promise<Overview['compliance']> {
  const knex = database.em.getKnex();
  const days = knex('compliance_day').select('*').where('day', '>=', firstDay).orderBy('day');
  if (past) days.andWhere('day', '<=', now.toISOString().slice(0, 10));
  const [{ hosts, evaluatedHosts, policies }, measured] = await Promise.all([
    past ? fleetComplianceAt(database, scope, now) : complianceNow(database, scope, now),
    isScoped(scope) ? Promise.resolve([]) : (days as Promise<{ day: string; pass: number; fail: number; error: number; waived: number }[]>),
  ]);
  const rateOf = (pass: number, evaluated: number) => (evaluated === 0 ? null : pass / evaluated);
  const trend: Trend = measured.map((day) => {
    const evaluated = Number(day.pass) + Number(day.fail) + Number(day.error) + Number(day.waived);
    return { day: day.day, rate: rateOf(Number(day.pass), evaluated), evaluatedHosts: evaluated };
  });
  if (isScoped(scope) && evaluatedHosts > 0) trend.push({ day: now.toISOString().slice(0, 10), rate: rateOf(hosts.pass, evaluatedHosts), evaluatedHosts });
  return {
    policies,
    evaluatedHosts,
    hosts,
    rate: rateOf(hosts.pass, evaluatedHosts),
    trend,
  };
}

/** The compliance of the hosts in `scope` now, from the kept counts, with the enabled policies. */
async function complianceNow(
  database: Database,
  scope: AccessScope,
  now: Date,
): Promise<Pick<Overview['compliance'], 'policies' | 'evaluatedHosts' | 'hosts'>> {
  const [{ hosts, evaluatedHosts }, [{ policies }]] = await Promise.all([
    fleetCompliance(database, scope, now),
    database.em.getKnex()('policy').where('enabled', true).count({ policies: '*' }) as unknown as Promise<[{ policies: number | string }]>,
  ]);
  return { hosts, evaluatedHosts, policies: Number(policies) };
}
