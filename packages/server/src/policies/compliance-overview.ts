import type { Overview } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { isScoped, type AccessScope } from '../people/scope.js';
import { fleetCompliance } from './policy-results.js';

type Trend = Overview['compliance']['trend'];

/**
 * The compliance of the hosts in `scope` now, and as measured on each day since `firstDay` (`YYYY-MM-DD`). The days
 * measured (`compliance_day`) are the fleet's: a scope's trend holds its measure of today alone, as no day before
 * was measured for it.
 */
export async function complianceOverview(database: Database, scope: AccessScope, now: Date, firstDay: string): Promise<Overview['compliance']> {
  const knex = database.em.getKnex();
  const [{ hosts, evaluatedHosts }, [{ policies }], days] = await Promise.all([
    fleetCompliance(database, scope, now),
    knex('policy').where('enabled', true).count({ policies: '*' }) as unknown as Promise<[{ policies: number | string }]>,
    isScoped(scope)
      ? Promise.resolve([])
      : (knex('compliance_day').select('*').where('day', '>=', firstDay).orderBy('day') as Promise<
          { day: string; pass: number; fail: number; error: number; waived: number }[]
        >),
  ]);
  const rateOf = (pass: number, evaluated: number) => (evaluated === 0 ? null : pass / evaluated);
  const trend: Trend = days.map((day) => {
    const evaluated = Number(day.pass) + Number(day.fail) + Number(day.error) + Number(day.waived);
    return { day: day.day, rate: rateOf(Number(day.pass), evaluated), evaluatedHosts: evaluated };
  });
  if (isScoped(scope) && evaluatedHosts > 0) trend.push({ day: now.toISOString().slice(0, 10), rate: rateOf(hosts.pass, evaluatedHosts), evaluatedHosts });
  return {
    policies: Number(policies),
    evaluatedHosts,
    hosts,
    rate: rateOf(hosts.pass, evaluatedHosts),
    trend,
  };
}
