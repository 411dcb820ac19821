// Results as operators read them: each stored result with the waiver that covers it, if any, applied.
import type { Knex } from '@mikro-orm/knex';
import type { RuleStatus } from '../generated/types.gen.js';
import type { Database as OpenDatabase } from '../database/dialect.js';
import type { PolicyResultRecord } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import { sqlDialectOf } from '../database/dialects.js';

/** What these queries need of an open database: its entity manager (or a fork of it). */
type Database = Pick<OpenDatabase, 'em'>;

/** A result with its waiver applied, and its host's `hostid` (`effectiveResults`). */
export type EffectiveRow = Omit<ReadRowOf<PolicyResultRecord>, 'status' | 'nameless'> & { status: RuleStatus; waiver_id: string | null; host_id: string };

/**
 * Results as operators see them: a `fail` or `error` that an unexpired waiver covers (for the host, or for a group
 * its latest report names) reads `waived`. Waivers apply when read, so creating, deleting or outliving one changes
 * results at once, without evaluating anything again. The host name is the one in the report evaluated.
 */
export function effectiveResults(database: Database, now: Date): Knex.QueryBuilder {
  const knex = database.em.getKnex();
  const waiver = coveringWaivers(database, now).orderBy('w.id').limit(1);
  const withWaiver = knex('policy_result as r')
    .join('host as h', 'h.id', 'r.host_record_id')
    .select(
      'r.policy_id',
      'r.rule_id',
      'r.host_record_id',
      'r.value',
      'r.message',
      'r.report_id',
      'r.evaluated_at',
      'r.since',
      'r.hostname',
      'r.policy_revision',
      'h.host_id',
    )
    .select({ raw_status: 'r.status' })
    .select(knex.raw('(?) as waiver_id', [waiver]));
  return knex
    .from(withWaiver.as('x'))
    .select('x.*')
    .select(knex.raw("case when x.raw_status <> 'pass' and x.waiver_id is not null then 'waived' else x.raw_status end as status"));
}

/**
 * The unexpired waivers (`w`) that cover the result `r` of an outer query: for its host, for a group its latest
 * report names (compared case-insensitively), or for every host (neither named); of one policy when given.
 */
export function coveringWaivers(database: Database, now: Date, policyId?: string): Knex.QueryBuilder {
  const knex = database.em.getKnex();
  const query = knex('waiver as w')
    .select('w.id')
    .whereRaw('w.policy_id = r.policy_id')
    .andWhere((rule) => {
      rule.whereNull('w.rule_id').orWhereRaw('w.rule_id = r.rule_id');
    })
    .andWhere('w.expires_at', '>', sqlDialectOf(database.em).toDatabaseTime(now))
    .andWhere((who) => {
      who
        .whereRaw('w.host_record_id is null and w.group_name is null')
        .orWhereRaw('w.host_record_id = r.host_record_id')
        .orWhereExists(
          knex('host_label as l')
            .select(knex.raw('1'))
            .whereRaw("l.host_record_id = r.host_record_id and l.kind = 'group' and lower(l.value) = lower(w.group_name)"),
        );
    });
  if (policyId !== undefined) query.andWhere('w.policy_id', policyId);
  return query;
}
