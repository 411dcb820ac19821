// Open findings at a past moment, from their transitions: each finding in the state its latest transition by then
// entered.
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { FindingKind, OpenFindingsByKind } from '../generated/types.gen.js';
import { hostIdsAt, type HostSelection } from './hosts-at.js';

/** States a finding is still to handle in. */
const STILL_OPEN = ['open', 'acknowledged', 'regressed'];

type Count = number | string;

/**
 * The findings of each host counted at `moment` (`hosts-at.ts`) by kind: `warning` and `suggestion` open,
 * acknowledged or regressed then, `accepted` those of either kind accepted then. Hosts with none are left out.
 */
export async function openFindingsAt(database: Database, moment: Date, selection: HostSelection): Promise<Map<string, OpenFindingsByKind>> {
  const knex = database.em.getKnex();
  const time = sqlDialectOf(database.em).toDatabaseTime(moment);
  const latest = knex('finding_transition')
    .select('finding_id', 'to_state', knex.raw('row_number() over (partition by finding_id order by at desc, id desc) as newest'))
    .where('at', '<=', time);
  const rows: { host_record_id: string; kind: FindingKind; to_state: string; findings: Count }[] = await knex
    .from(latest.as('t'))
    .join('finding as f', 'f.id', 't.finding_id')
    .select('f.host_record_id', 'f.kind', 't.to_state')
    .count({ findings: '*' })
    .where('t.newest', 1)
    .whereIn('t.to_state', [...STILL_OPEN, 'accepted'])
    .whereIn('f.host_record_id', hostIdsAt(knex, time, selection))
    .groupBy('f.host_record_id', 'f.kind', 't.to_state');
  const byHost = new Map<string, OpenFindingsByKind>();
  for (const row of rows) {
    let counts = byHost.get(row.host_record_id);
    if (!counts) byHost.set(row.host_record_id, (counts = { warning: 0, suggestion: 0, accepted: 0 }));
    counts[row.to_state === 'accepted' ? 'accepted' : row.kind] += Number(row.findings);
  }
  return byHost;
}
