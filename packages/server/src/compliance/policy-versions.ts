// Every version of every policy, so that compliance at a past moment counts the policies, rules and scopes in force
// then. Each write that raises a policy's revision records its version in the same transaction.
import type { Knex } from '@mikro-orm/knex';
import type { PolicyScope, Rule } from '../generated/types.gen.js';
import type { PolicyRecord, PolicyVersionRecord } from '../database/entities.js';
import type { DatabaseTime } from '../database/dialect.js';
import type { ReadRowOf } from '../database/rows.js';

/** A policy as it was in force at some moment. */
export interface PolicyVersion {
  policyId: string;
  revision: number;
  name: string;
  scope: Required<PolicyScope>;
  rules: Rule[];
}

const VERSION_COLUMNS = ['revision', 'name', 'enabled', 'scope_key_id', 'scope_group', 'scope_tag', 'scope_hostname', 'rules'] as const;

/** Records the policy's current row as its version saved at `time`; call in the transaction that changed it. */
export async function recordPolicyVersion(trx: Knex, policyId: string, time: DatabaseTime): Promise<void> {
  const [row] = (await trx('policy').select(VERSION_COLUMNS).where('id', policyId)) as Pick<ReadRowOf<PolicyRecord>, (typeof VERSION_COLUMNS)[number]>[];
  if (row) await trx('policy_version').insert({ policy_id: policyId, ...row, saved_at: time, deleted: false });
}

/** Records the deletion of a policy as its last version (marked deleted); call in the transaction that deletes it, before. */
export async function recordPolicyDeletion(trx: Knex, policyId: string, time: DatabaseTime): Promise<void> {
  const [row] = (await trx('policy').select(VERSION_COLUMNS).where('id', policyId)) as Pick<ReadRowOf<PolicyRecord>, (typeof VERSION_COLUMNS)[number]>[];
  if (row) await trx('policy_version').insert({ policy_id: policyId, ...row, revision: Number(row.revision) + 1, saved_at: time, deleted: true });
}

/**
 * The policies in force at `time` (one, when `policyId` is given): for each policy, its newest version saved by
 * then, when that version is enabled and not a deletion.
 */
export async function policiesInForce(knex: Knex, time: DatabaseTime, policyId?: string): Promise<PolicyVersion[]> {
  const newest = knex('policy_version as v')
    .select('v.*')
    .where('v.saved_at', '<=', time)
    .whereNotExists(
      knex('policy_version as later')
        .select(knex.raw('1'))
        .whereRaw('later.policy_id = v.policy_id and later.revision > v.revision')
        .andWhere('later.saved_at', '<=', time),
    );
  if (policyId !== undefined) newest.andWhere('v.policy_id', policyId);
  const rows = (await newest) as ReadRowOf<PolicyVersionRecord>[];
  return rows
    .filter((row) => Boolean(row.enabled) && !row.deleted)
    .map((row) => ({
      policyId: row.policy_id,
      revision: Number(row.revision),
      name: row.name,
      scope: { keyId: row.scope_key_id, group: row.scope_group, tag: row.scope_tag, hostname: row.scope_hostname },
      rules: JSON.parse(row.rules) as Rule[],
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
