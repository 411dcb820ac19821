import { randomUUID } from 'node:crypto';
import type { Waiver, WaiverBulkInput, WaiverBulkResult, WaiverInput } from '../generated/types.gen.js';
import type { WaiverRecord } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import type { Database } from '../database/dialect.js';
import { chunks, MAX_PARAMETERS } from '../database/batches.js';
import { sqlDialectOf } from '../database/dialects.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import { selectHosts } from '../hosts/host-selection.js';
import { hostInScope, scopedHostIds } from '../hosts/host-scope.js';
import { isScoped, type AccessScope } from '../people/scope.js';
import { moveWaiversToHistory } from '../compliance/waiver-history.js';
import { findPolicy } from './policy-records.js';
import { DEFAULT_WAIVER_MAX_DAYS, MAX_BULK_WAIVER_HOSTS, type WaiverLimits } from './waiver-limits.js';

const DAY_MS = 86_400_000;

type WaiverRow = ReadRowOf<WaiverRecord> & { policy_name: string; hostname: string | null };

/**
 * Saves a waiver after checking that its policy, rule and host exist, that it names a host, a group or neither (the
 * fleet), not both, and that it expires within the server's maximum. A host out of `scope` is not found.
 */
export async function createWaiver(
  database: Database,
  scope: AccessScope,
  input: WaiverInput,
  createdBy: string | null,
  now = new Date(),
  limits: WaiverLimits = { maxDays: DEFAULT_WAIVER_MAX_DAYS },
): Promise<Waiver> {
  const hostRecordId = input.hostRecordId ?? null;
  const group = input.group ?? null;
  if (hostRecordId !== null && group !== null)
    throw new DomainError('invalid', 'name at most one of hostRecordId and group (neither: every host the policy covers)');
  if (hostRecordId === null && isScoped(scope)) throw beyondScope();
  const { policyId, ruleId, expiresAt } = await checkedTerms(database, input, now, limits, 'not_found');
  const knex = database.em.getKnex();
  if (hostRecordId !== null && !(await hostInScope(knex, scope, hostRecordId))) throw notFound('host', hostRecordId);
  const id = randomUUID();
  await knex('waiver').insert(waiverRow(database, { id, policyId, ruleId, hostRecordId, group, reason: input.reason, expiresAt, createdBy }, now));
  return (await listWaivers(database, scope, { id }, now))[0]!;
}

/**
 * One waiver per host selected (by id, or by the host list's filters), all in one transaction: all or none. A
 * selection of more than `maxHosts` hosts is refused (a group's or the fleet's waiver does that in one row). Only
 * hosts in `scope`: an id out of it is not found, filters select among its hosts.
 */
export async function createWaivers(
  database: Database,
  scope: AccessScope,
  input: WaiverBulkInput,
  createdBy: string | null,
  now = new Date(),
  limits: WaiverLimits = { maxDays: DEFAULT_WAIVER_MAX_DAYS },
): Promise<WaiverBulkResult> {
  const maxHosts = limits.maxHosts ?? MAX_BULK_WAIVER_HOSTS;
  const { policyId, ruleId, expiresAt } = await checkedTerms(database, input, now, limits, 'invalid');
  const knex = database.em.getKnex();
  const selected = await selectHosts(
    database,
    scope,
    input.hosts,
    { maxHosts, tooMany: 'waive the rule for a group or for every host (the fleet) instead' },
    now,
  );
  const rows = selected.map((hostRecordId) =>
    waiverRow(database, { id: randomUUID(), policyId, ruleId, hostRecordId, group: null, reason: input.reason, expiresAt, createdBy }, now),
  );
  await knex.transaction(async (trx) => {
    // Nine columns a row: as many rows a statement as SQLite's parameters allow.
    for (const batch of chunks(rows, Math.floor(MAX_PARAMETERS / 9))) await trx('waiver').insert(batch);
  });
  return { created: rows.length, hosts: selected.length };
}

/**
 * Waivers, soonest expiry first, with their policy's name and their host's current name; expired ones only when asked.
 * A scoped reader sees the waivers of its hosts and those of a group or of the fleet.
 */
export async function listWaivers(
  database: Database,
  scope: AccessScope,
  filter: { id?: string; policyId?: string; includeExpired?: boolean },
  now = new Date(),
): Promise<Waiver[]> {
  const query = database.em
    .getKnex()('waiver as w')
    .join('policy as p', 'p.id', 'w.policy_id')
    .leftJoin('host as h', 'h.id', 'w.host_record_id')
    .select('w.*', { policy_name: 'p.name', hostname: 'h.hostname' })
    .orderBy(['w.expires_at', 'w.id']);
  const hosts = scopedHostIds(database.em.getKnex(), scope);
  if (hosts) query.where((visible) => void visible.whereNull('w.host_record_id').orWhereIn('w.host_record_id', hosts));
  if (filter.id !== undefined) query.where('w.id', filter.id);
  if (filter.policyId !== undefined) query.where('w.policy_id', filter.policyId);
  if (!filter.includeExpired && filter.id === undefined) query.where('w.expires_at', '>', sqlDialectOf(database.em).toDatabaseTime(now));
  return ((await query) as WaiverRow[]).map(toWaiver);
}

/**
 * Deletes a waiver, kept in its history (compliance at a moment before still applies it); a `not_found`
 * {@link DomainError} when there is none, or it names a host out of `scope`.
 */
export async function deleteWaiver(database: Database, scope: AccessScope, id: string, now = new Date()): Promise<void> {
  const knex = database.em.getKnex();
  const hosts = scopedHostIds(knex, scope);
  if (hosts) {
    // A scoped reader sees group and fleet waivers, but they reach hosts beyond its scope: not its to delete.
    const [covers] = await knex('waiver').where('id', id).select<{ host_record_id: string | null }[]>('host_record_id');
    if (covers && covers.host_record_id === null) throw beyondScope();
  }
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  const deleted = await knex.transaction((trx) =>
    moveWaiversToHistory(
      trx,
      (waiver) => {
        waiver.where('id', id);
        if (hosts) waiver.whereIn('host_record_id', hosts);
      },
      time,
    ),
  );
  if (deleted === 0) throw notFound('waiver', id);
}

/** A group's or the fleet's waiver asked of a scoped actor: it would reach hosts it may not see. */
const beyondScope = () =>
  new DomainError(
    'invalid',
    'A person or token limited to some hosts may make and delete only waivers of its own hosts (name a hostRecordId); waivers of a group or of the fleet need an unscoped one',
  );

/**
 * The checked terms every waiver shares: an expiry in the future within `maxDays`, a policy that exists (else
 * not found) and a rule it has (else `unknownRule`: the single waiver answers 404 as it always has, the bulk one 400).
 */
async function checkedTerms(
  database: Database,
  input: Pick<WaiverInput, 'policyId' | 'ruleId' | 'expiresAt'>,
  now: Date,
  { maxDays }: WaiverLimits,
  unknownRule: 'not_found' | 'invalid',
): Promise<{ policyId: string; ruleId: string | null; expiresAt: Date }> {
  const expiresAt = new Date(input.expiresAt);
  if (!(expiresAt > now)) throw new DomainError('invalid', `expiresAt: ${input.expiresAt} is not in the future`);
  if (expiresAt.getTime() - now.getTime() > maxDays * DAY_MS)
    throw new DomainError(
      'invalid',
      `expiresAt: a waiver may run for at most ${maxDays} days (until ${new Date(now.getTime() + maxDays * DAY_MS).toISOString()})`,
    );
  const policy = await findPolicy(database, input.policyId);
  if (!policy) throw notFound('policy', input.policyId);
  const ruleId = input.ruleId ?? null;
  if (ruleId !== null && !policy.rules.some((rule) => rule.id === ruleId)) throw new DomainError(unknownRule, `The policy has no rule ${ruleId}`);
  return { policyId: policy.id, ruleId, expiresAt };
}

/** A waiver's row as stored. */
function waiverRow(
  database: Database,
  waiver: {
    id: string;
    policyId: string;
    ruleId: string | null;
    hostRecordId: string | null;
    group: string | null;
    reason: string;
    expiresAt: Date;
    createdBy: string | null;
  },
  now: Date,
) {
  const toTime = sqlDialectOf(database.em).toDatabaseTime;
  return {
    id: waiver.id,
    policy_id: waiver.policyId,
    rule_id: waiver.ruleId,
    host_record_id: waiver.hostRecordId,
    group_name: waiver.group,
    reason: waiver.reason,
    expires_at: toTime(waiver.expiresAt),
    created_at: toTime(now),
    created_by: waiver.createdBy,
  };
}

function toWaiver(row: WaiverRow): Waiver {
  return {
    id: row.id,
    policyId: row.policy_id,
    policyName: row.policy_name,
    ruleId: row.rule_id,
    hostRecordId: row.host_record_id,
    hostname: row.host_record_id === null ? null : row.hostname,
    group: row.group_name,
    reason: row.reason,
    expiresAt: new Date(row.expires_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: row.created_by,
  };
}
