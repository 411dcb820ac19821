import { randomUUID } from 'node:crypto';
import type { Waiver, WaiverInput } from '../generated/types.gen.js';
import type { WaiverRecord } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import { findPolicy } from './policy-records.js';

type WaiverRow = ReadRowOf<WaiverRecord>;

/** Saves a waiver after checking that its policy, rule and host exist and that it names a host or a group, not both. */
export async function createWaiver(database: Database, input: WaiverInput, createdBy: string | null, now = new Date()): Promise<Waiver> {
  const hostRecordId = input.hostRecordId ?? null;
  const group = input.group ?? null;
  if ((hostRecordId === null) === (group === null)) throw new DomainError('invalid', 'name exactly one of hostRecordId and group');
  const expiresAt = new Date(input.expiresAt);
  if (expiresAt <= now) throw new DomainError('invalid', `expiresAt: ${expiresAt.toISOString()} is already past`);
  const policy = await findPolicy(database, input.policyId);
  if (!policy) throw notFound('policy', input.policyId);
  const ruleId = input.ruleId ?? null;
  if (ruleId !== null && !policy.rules.some((rule) => rule.id === ruleId)) throw new DomainError('not_found', `The policy has no rule ${ruleId}`);
  const knex = database.em.getKnex();
  if (hostRecordId !== null && (await knex('host').select('id').where('id', hostRecordId)).length === 0) throw notFound('host', hostRecordId);
  const toTime = sqlDialectOf(database.em).toDatabaseTime;
  const id = randomUUID();
  await knex('waiver').insert({
    id,
    policy_id: policy.id,
    rule_id: ruleId,
    host_record_id: hostRecordId,
    group_name: group,
    reason: input.reason,
    expires_at: toTime(expiresAt),
    created_at: toTime(now),
    created_by: createdBy,
  });
  return (await listWaivers(database, { id }, now))[0]!;
}

/** Waivers, soonest expiry first; expired ones only when asked. */
export async function listWaivers(
  database: Database,
  filter: { id?: string; policyId?: string; includeExpired?: boolean },
  now = new Date(),
): Promise<Waiver[]> {
  const query = database.em.getKnex()('waiver').select('*').orderBy(['expires_at', 'id']);
  if (filter.id !== undefined) query.where('id', filter.id);
  if (filter.policyId !== undefined) query.where('policy_id', filter.policyId);
  if (!filter.includeExpired && filter.id === undefined) query.where('expires_at', '>', sqlDialectOf(database.em).toDatabaseTime(now));
  return ((await query) as WaiverRow[]).map(toWaiver);
}

/** Deletes a waiver; a `not_found` {@link DomainError} when there is none. */
export async function deleteWaiver(database: Database, id: string): Promise<void> {
  if ((await database.em.getKnex()('waiver').where('id', id).delete()) === 0) throw notFound('waiver', id);
}

function toWaiver(row: WaiverRow): Waiver {
  return {
    id: row.id,
    policyId: row.policy_id,
    ruleId: row.rule_id,
    hostRecordId: row.host_record_id,
    group: row.group_name,
    reason: row.reason,
    expiresAt: new Date(row.expires_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: row.created_by,
  };
}
