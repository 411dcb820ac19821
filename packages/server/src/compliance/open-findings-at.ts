// Open findings at a past moment, from their transitions: each finding in the state its latest transition by then
// entered.
import type { Knex } from '@mikro-orm/knex';
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
  const counted = (query: Knex.QueryBuilder, state: string) =>
    query
      .select('f.host_record_id', 'f.kind', { state })
      .count({ findings: '*' })
      .whereIn(state, [...STILL_OPEN, 'accepted'])
      .whereIn('f.host_record_id', hostIdsAt(knex, time, selection))
      .groupBy('f.host_record_id', 'f.kind', state);
  // A finding in its state since `time` or before was in it then (`state_since` is its latest transition's time);
  // only the others' transitions are read.
  const unchanged = counted(knex('finding as f').where('f.state_since', '<=', time), 'f.state');
  const latest = knex('finding_transition')
    .select('finding_id', 'to_state', knex.raw('row_number() over (partition by finding_id order by at desc, id desc) as newest'))
    .where('at', '<=', time)
    .whereIn('finding_id', knex('finding').select('id').where('state_since', '>', time));
  const changed = counted(knex.from(latest.as('t')).join('finding as f', 'f.id', 't.finding_id').where('t.newest', 1), 't.to_state');
  const rows = (await Promise.all([unchanged, changed])).flat() as { host_record_id: string; kind: FindingKind; state: string; findings: Count }[];
  const byHost = new Map<string, OpenFindingsByKind>();
  for (const row of rows) {
    let counts = byHost.get(row.host_record_id);
    if (!counts) byHost.set(row.host_record_id, (counts = { warning: 0, suggestion: 0, accepted: 0 }));
    counts[row.state === 'accepted' ? 'accepted' : row.kind] += Number(row.findings);
  }
  return byHost;
}
