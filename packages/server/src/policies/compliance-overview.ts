import type { Overview } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { fleetCompliance } from './policy-results.js';

/** The fleet's compliance now, and as measured on each day since `firstDay` (`YYYY-MM-DD`). */
export async function complianceOverview(database: Database, now: Date, firstDay: string): Promise<Overview['compliance']> {
  const knex = database.em.getKnex();
  const [{ hosts, evaluatedHosts }, [{ policies }], days] = await Promise.all([
    fleetCompliance(database, now),
    knex('policy').where('enabled', true).count({ policies: '*' }) as unknown as Promise<[{ policies: number | string }]>,
    knex('compliance_day').select('*').where('day', '>=', firstDay).orderBy('day') as Promise<
      { day: string; pass: number; fail: number; error: number; waived: number }[]
    >,
  ]);
  const rateOf = (pass: number, evaluated: number) => (evaluated === 0 ? null : pass / evaluated);
  return {
    policies: Number(policies),
    evaluatedHosts,
    hosts,
    rate: rateOf(hosts.pass, evaluatedHosts),
    trend: days.map((day) => {
      const evaluated = Number(day.pass) + Number(day.fail) + Number(day.error) + Number(day.waived);
      return { day: day.day, rate: rateOf(Number(day.pass), evaluated), evaluatedHosts: evaluated };
    }),
  };
}
