// Where a report under a `hostid` new to its key goes instead of a new host: the host that `hostid` was merged into
// (`host_alias`), or the one host of the key the report names by its identity (identity merge). Run by admission
// inside the upload's transaction; the audit trail's entries of identity merges are written once it committed.
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { Logger } from 'pino';
import { describeFailure } from '@org/audit-server-core';
import { appendAuditEvent } from '../audit/audit-append.js';
import { systemActor } from '../audit/audit-entry.js';
import type { Database, DatabaseTime } from '../database/dialect.js';
import type { HostRow, HostSighting } from './host-records.js';

/** The host a sighting joins, as the sighting then names it. */
export type Survivor = Pick<HostRow, 'id' | 'key_id' | 'host_id' | 'hostname'>;

/** A sighting's way to a host it joins: by an earlier merge (an alias) or by its identity (`automatic`). */
export interface Redirect {
  survivor: Survivor;
  automatic: boolean;
}

/** An identity merge admission made, for the audit trail once the upload committed. */
export interface IdentityMerge {
  survivor: Survivor;
  /** The `hostid` the report came with, which joined the survivor. */
  hostId: string;
  at: Date;
}

type Candidate = Survivor & Pick<HostRow, 'host_id2' | 'machine_id'>;

/**
 * The hosts the sightings of `newIds` (ids of no host) join, by id: first the host their `hostid` was merged into;
 * else the one host of the same key whose `hostid2` and machine id (`machineid=`, `/etc/machine-id`) both equal the
 * report's, or, for a report without a machine id, whose `hostid2` and host name do. Two sightings of an id take
 * the group's first one's identity; only the first when `automatic` is false. Rows are read, not locked: the
 * caller locks the survivors.
 */
export async function findSurvivors(
  trx: Knex.Transaction,
  sightings: HostSighting[],
  newIds: ReadonlySet<string>,
  automatic = true,
): Promise<Map<string, Redirect>> {
  const firstOf = new Map<string, HostSighting>();
  for (const sighting of sightings) if (newIds.has(sighting.id) && !firstOf.has(sighting.id)) firstOf.set(sighting.id, sighting);
  if (firstOf.size === 0) return new Map();
  const redirects = await aliasSurvivors(trx, [...firstOf.values()]);
  // With automatic merge off (`--identity-merge off`), only merged `hostid`s join their host.
  const unmatched = automatic ? [...firstOf.values()].filter((sighting) => !redirects.has(sighting.id) && sighting.host_id2 !== null) : [];
  if (unmatched.length === 0) return redirects;
  const candidates = (await trx('host')
    .select('id', 'key_id', 'host_id', 'hostname', 'host_id2', 'machine_id')
    .whereIn('key_id', [...new Set(unmatched.map((sighting) => sighting.key_id))])
    .whereIn('host_id2', [...new Set(unmatched.map((sighting) => sighting.host_id2!))])) as Candidate[];
  for (const sighting of unmatched) {
    const matches = candidates.filter(
      (host) =>
        host.key_id === sighting.key_id &&
        host.host_id2 === sighting.host_id2 &&
        (sighting.machine_id !== null ? host.machine_id === sighting.machine_id : sighting.hostname !== null && host.hostname === sighting.hostname),
    );
    // Several hosts alike (cloned machines, say): which one is this machine cannot be told, so it stays a new host.
    if (matches.length === 1) redirects.set(sighting.id, { survivor: matches[0]!, automatic: true });
  }
  return redirects;
}

/** The hosts the sightings' `hostid`s were merged into, by the sightings' ids. */
async function aliasSurvivors(trx: Knex.Transaction, sightings: HostSighting[]): Promise<Map<string, Redirect>> {
  const aliases = (await trx('host_alias')
    .select('key_id', 'host_id', 'host_record_id')
    .whereIn('key_id', [...new Set(sightings.map((sighting) => sighting.key_id))])
    .whereIn('host_id', [...new Set(sightings.map((sighting) => sighting.host_id))])) as { key_id: string; host_id: string; host_record_id: string }[];
  if (aliases.length === 0) return new Map();
  const hosts = new Map(
    (
      (await trx('host')
        .select('id', 'key_id', 'host_id', 'hostname')
        .whereIn('id', [...new Set(aliases.map((alias) => alias.host_record_id))])) as Survivor[]
    ).map((host) => [host.id, host]),
  );
  const redirects = new Map<string, Redirect>();
  for (const sighting of sightings) {
    const alias = aliases.find((row) => row.key_id === sighting.key_id && row.host_id === sighting.host_id);
    const survivor = alias && hosts.get(alias.host_record_id);
    if (survivor) redirects.set(sighting.id, { survivor, automatic: false });
  }
  return redirects;
}

/** Records identity merges' `hostid`s as aliases of their survivors, in the upload's transaction. */
export async function writeAliases(trx: Knex.Transaction, merges: IdentityMerge[], time: DatabaseTime): Promise<void> {
  for (const { survivor, hostId } of merges) {
    await trx('host_alias')
      .insert({ key_id: survivor.key_id, host_id: hostId, host_record_id: survivor.id, merged_at: time })
      .onConflict(['key_id', 'host_id'])
      .merge(['host_record_id', 'merged_at']);
  }
}

/**
 * The audit trail's entries of identity merges, by the server itself, written after the upload committed: a
 * failure is logged and the upload, stored already, stands.
 */
export async function recordIdentityMerges(database: Database, merges: IdentityMerge[], logger?: Pick<Logger, 'error'>): Promise<void> {
  for (const { survivor, hostId, at } of merges) {
    try {
      await appendAuditEvent(
        database,
        {
          actor: systemActor('identity merge'),
          operation: 'mergeHosts',
          target: { type: 'host', id: survivor.id },
          changes: { hostId: { before: hostId, after: survivor.host_id } },
          outcome: 'success',
          status: 200,
          sourceAddress: null,
          userAgent: null,
          requestId: randomUUID(),
        },
        at,
      );
    } catch (error) {
      logger?.error({ hostRecordId: survivor.id, error: describeFailure(error) }, 'recording an identity merge in the audit trail failed');
    }
  }
}
