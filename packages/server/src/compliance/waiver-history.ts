// Deleted waivers are kept, so that the waivers in force at a past moment are known: a waiver was in force at T when
// it was created by T and neither expired nor deleted by then.
import type { Knex } from '@mikro-orm/knex';
import type { WaiverRecord } from '../database/entities.js';
import type { DatabaseTime } from '../database/dialect.js';
import type { ReadRowOf } from '../database/rows.js';
import { chunks, MAX_PARAMETERS } from '../database/batches.js';

/** A waiver as compliance at a moment applies it. */
export type WaiverTerms = Pick<ReadRowOf<WaiverRecord>, 'policy_id' | 'rule_id' | 'host_record_id' | 'group_name'>;

/** Whether a waiver covers the rule for the host: for it, for a group it has (ignoring case), or for every host. */
export function waiverCovers(waiver: WaiverTerms, ruleId: string, host: { hostRecordId: string; groups: readonly string[] }): boolean {
  if (waiver.rule_id !== null && waiver.rule_id !== ruleId) return false;
  if (waiver.host_record_id !== null) return waiver.host_record_id === host.hostRecordId;
  return waiver.group_name === null || host.groups.includes(waiver.group_name.toLowerCase());
}

const TERMS = ['policy_id', 'rule_id', 'host_record_id', 'group_name'] as const;

/**
 * Moves the waivers `where` selects (on `waiver`) to `waiver_history`, deleted at `time`: call in a transaction.
 * Resolves with how many it moved.
 */
export async function moveWaiversToHistory(trx: Knex, where: (waivers: Knex.QueryBuilder) => void, time: DatabaseTime): Promise<number> {
  const selected = trx('waiver').select('*');
  where(selected);
  const rows = (await selected) as ReadRowOf<WaiverRecord>[];
  // Eleven columns a row.
  for (const batch of chunks(rows, Math.floor(MAX_PARAMETERS / 11))) {
    await trx('waiver_history').insert(batch.map((row) => ({ ...row, deleted_at: time })));
    await trx('waiver')
      .whereIn(
        'id',
        batch.map((row) => row.id),
      )
      .delete();
  }
  return rows.length;
}

/** The waivers in force at `time`, kept or deleted since. */
export async function waiversInForce(knex: Knex, time: DatabaseTime): Promise<WaiverTerms[]> {
  const [kept, deleted] = await Promise.all([
    knex('waiver').select(TERMS).where('created_at', '<=', time).andWhere('expires_at', '>', time),
    knex('waiver_history').select(TERMS).where('created_at', '<=', time).andWhere('expires_at', '>', time).andWhere('deleted_at', '>', time),
  ]);
  return [...(kept as WaiverTerms[]), ...(deleted as WaiverTerms[])];
}
