// Which reports of a group commit the store takes: the host identity check and the quotas of new hosts per key; and
// the lifecycle events of the hosts it takes (first reports, hosts back from stale or decommissioned).
// Run inside the group's transaction, on rows it locks, so that concurrent groups and servers decide exactly.
import { ReportRefusedError } from '@org/audit-server-core';
import type { Knex } from '@mikro-orm/knex';
import type { Database, DatabaseTime, SqlDialect } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { isRecordId, type HostRecord, type KeyHostQuotaRecord, type LicenseKeyRecord } from '../database/entities.js';
import type { ReadRowOf, RowOf } from '../database/rows.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import type { HostSighting } from './host-records.js';
import { upsertNotices, type OutboxEvent } from '../webhooks/outbox.js';
import { arrivalEvents, type HostState } from './host-lifecycle.js';
import { findSurvivors, writeAliases, type IdentityMerge } from './host-identity-merge.js';
import { mergedEvent } from './host-merge.js';

/** What the store does with a report whose `hostid2` differs from its host's last one. */
export type HostIdentityMode = 'record' | 'strict';

/** The settings admission follows. */
export interface AdmissionSettings {
  /** `record` (default): store the report and flag the host; `strict`: refuse it until an operator accepts. */
  hostIdentity: HostIdentityMode;
  /** Most hosts new to a key per UTC day, for keys without a setting of their own. */
  newHostsPerDay: number;
  /**
   * `auto` (default): a report under a new `hostid` joins the one host of its key with its `hostid2` and machine id
   * (see `host-identity-merge.ts`); `off`: it stays a new host (fleets cloned from one image that kept its SSH host
   * keys and machine id). Merged `hostid`s join their host either way.
   */
  identityMerge?: 'auto' | 'off';
}

/** Default of {@link AdmissionSettings.newHostsPerDay}: a first enrollment of thousands of hosts in one day fits. */
export const DEFAULT_NEW_HOSTS_PER_DAY = 10_000;

/** What admission decided for a group: the refused reports (by index in the group), and the events it raises. */
export interface Admission {
  refused: Map<number, ReportRefusedError>;
  events: OutboxEvent[];
  /** Hosts whose identity flag changed: written by {@link writeIdentityFlags} once the group's hosts are upserted. */
  flagged: IdentityFlag[];
  /** The group's sightings as admitted, by index: those that join another host name it (its id and `hostid`). */
  sightings: HostSighting[];
  /** The reports that join another host (by index in the group): the id of that host, their `host_record_id`. */
  redirected: Map<number, string>;
  /** The identity merges made, for the audit trail once the group committed (`recordIdentityMerges`). */
  merges: IdentityMerge[];
}

/** A host's identity flag as admission leaves it. */
export type IdentityFlag = Pick<KnownHost, 'id' | 'identity_changed_at' | 'identity_from' | 'identity_to' | 'identity_refused'>;

/** The columns of a host's row the identity check reads. */
const KNOWN_COLUMNS = ['id', 'key_id', 'host_id', 'host_id2', 'identity_changed_at', 'identity_from', 'identity_to', 'identity_refused', 'state'] as const;

/** A host's row as the identity check reads it. */
type KnownHost = Pick<ReadRowOf<HostRecord>, (typeof KNOWN_COLUMNS)[number]>;
const DAY_MS = 86_400_000;

/**
 * Decides which of a group's reports are stored, in the caller's transaction and before its hosts are upserted:
 * 1. the group's known hosts are locked in id order (the order the upsert locks them in); a report under a
 *    `hostid` of no host joins the host that `hostid` was merged into, or the one host its identity names (an
 *    identity merge: `host-identity-merge.ts`), from then on counted and checked as that host's;
 * 2. for each key the group brings new hosts to, its `key_host_quota` row is locked (in key order), the hosts
 *    looked up again (one another server added meanwhile is known now), and new hosts beyond the key's quotas
 *    refused (`host-quota-exceeded`, 429), with one `key.quota_reached` event per key and UTC day;
 * 3. each known host's reports are compared, oldest first, with its last `hostid2`: a change is flagged on the
 *    host (with a `host.identity_changed` event, unless it is the change already flagged, either way round) and,
 *    in strict mode, the report refused (`host-identity-changed`, 409).
 * A host new to the key is checked too from its first report of the group on, as if it had been stored: two
 * reports of a new host with different `hostid2`s in one group are a change like any other. The caller upserts the
 * hosts of the reports not refused, then writes the flags ({@link writeIdentityFlags}).
 */
export async function admitReports(
  trx: Knex.Transaction,
  dialect: SqlDialect,
  offered: HostSighting[],
  settings: AdmissionSettings,
  now: Date,
): Promise<Admission> {
  const admission: Admission = { refused: new Map(), events: [], flagged: [], sightings: offered, redirected: new Map(), merges: [] };
  await dialect.startWriting(trx);
  const ids = [...new Set(offered.map((sighting) => sighting.id))].sort();
  const known = new Map((await lockHosts(trx, dialect, ids)).map((host) => [host.id, host]));
  const sightings = (admission.sightings = await joinSurvivors(trx, dialect, offered, known, admission, now, settings.identityMerge !== 'off'));
  const newIds = [...new Set(sightings.map((sighting) => sighting.id))].filter((id) => !known.has(id)).sort();
  if (newIds.length > 0) await admitNewHosts(trx, dialect, sightings, newIds, known, settings, now, admission);
  const states = new Map([...known.values()].map((host) => [host.id, host.state as HostState]));
  sightings.forEach((sighting, index) => {
    if (!known.has(sighting.id) && !admission.refused.has(index)) known.set(sighting.id, newHost(sighting));
  });
  checkIdentities(dialect, sightings, known, settings.hostIdentity, now, admission);
  admission.events.push(
    ...arrivalEvents(
      sightings.filter((_, index) => !admission.refused.has(index)),
      states,
      now,
    ),
  );
  return admission;
}

/**
 * Step 1's redirection: the sightings of `hostid`s of no host that join a survivor ({@link findSurvivors}) name it
 * from now on; the survivors are locked (after the group's own hosts, so out of id order: the rare deadlock this
 * can cause is run again by the store), and each identity merge's `hostid` becomes an alias, with its
 * `host.merged` event. A survivor deleted meanwhile leaves its sightings a new host.
 */
async function joinSurvivors(
  trx: Knex.Transaction,
  dialect: SqlDialect,
  sightings: HostSighting[],
  known: Map<string, KnownHost>,
  admission: Admission,
  now: Date,
  automatic: boolean,
): Promise<HostSighting[]> {
  const newIds = new Set(sightings.map((sighting) => sighting.id).filter((id) => !known.has(id)));
  const redirects = await findSurvivors(trx, sightings, newIds, automatic);
  if (redirects.size === 0) return sightings;
  const survivorIds = [...new Set([...redirects.values()].map(({ survivor }) => survivor.id))].filter((id) => !known.has(id)).sort();
  for (const host of await lockHosts(trx, dialect, survivorIds)) known.set(host.id, host);
  for (const [id, { survivor, automatic }] of redirects) {
    if (!known.has(survivor.id)) redirects.delete(id);
    else if (automatic) {
      const merged = sightings.find((sighting) => sighting.id === id)!;
      admission.merges.push({ survivor, hostId: merged.host_id, at: now });
      admission.events.push(mergedEvent(survivor, merged, true, now));
    }
  }
  await writeAliases(trx, admission.merges, dialect.toDatabaseTime(now));
  return sightings.map((sighting, index) => {
    const redirect = redirects.get(sighting.id);
    if (!redirect) return sighting;
    admission.redirected.set(index, redirect.survivor.id);
    // The survivor's key and hostid, so that the upsert's conflict on them finds its row (merged from another key too).
    return { ...sighting, id: redirect.survivor.id, key_id: redirect.survivor.key_id, host_id: redirect.survivor.host_id };
  });
}

/** A host the group adds, as the identity check starts from: no `hostid2` yet, no flag. */
const newHost = (sighting: HostSighting): KnownHost => ({
  id: sighting.id,
  key_id: sighting.key_id,
  host_id: sighting.host_id,
  host_id2: null,
  identity_changed_at: null,
  identity_from: null,
  identity_to: null,
  identity_refused: false,
  state: 'active',
});

/** Writes the identity flags admission changed, in the caller's transaction, after the group's hosts are upserted. */
export async function writeIdentityFlags(trx: Knex.Transaction, flagged: IdentityFlag[]): Promise<void> {
  for (const { id, identity_changed_at, identity_from, identity_to, identity_refused } of flagged) {
    await trx('host')
      .where('id', id)
      .update({ identity_changed_at, identity_from, identity_to, identity_refused: Boolean(identity_refused) });
  }
}

/** The hosts of `ids` that exist, locked until commit, in id order. */
async function lockHosts(trx: Knex.Transaction, dialect: SqlDialect, ids: string[]): Promise<KnownHost[]> {
  if (ids.length === 0) return [];
  return (await dialect.lockRows(trx('host').select(KNOWN_COLUMNS).whereIn('id', ids).orderBy('id'))) as KnownHost[];
}

/** Step 2 of {@link admitReports}: the quotas, per key in key order. */
async function admitNewHosts(
  trx: Knex.Transaction,
  dialect: SqlDialect,
  sightings: HostSighting[],
  newIds: string[],
  known: Map<string, KnownHost>,
  settings: AdmissionSettings,
  now: Date,
  admission: Admission,
): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  const newByKey = new Map<string, string[]>();
  const isNew = new Set(newIds);
  // In the order the group received them, so that the first new hosts are the ones admitted.
  for (const sighting of sightings) {
    if (!isNew.has(sighting.id)) continue;
    const hosts = newByKey.get(sighting.key_id) ?? [];
    if (!hosts.includes(sighting.id)) hosts.push(sighting.id);
    newByKey.set(sighting.key_id, hosts);
  }
  const keyIds = [...newByKey.keys()].sort();
  const quotas = new Map(
    (
      (await trx('license_key').select('id', 'new_hosts_per_day', 'max_hosts').whereIn('id', keyIds)) as Pick<
        RowOf<LicenseKeyRecord>,
        'id' | 'new_hosts_per_day' | 'max_hosts'
      >[]
    ).map((key) => [key.id, key]),
  );
  for (const keyId of keyIds) {
    const counted = await lockQuota(trx, dialect, keyId, day);
    // Hosts another transaction added while this one waited for the key's row are known now, and locked.
    for (const host of await lockHosts(trx, dialect, newByKey.get(keyId)!)) known.set(host.id, host);
    const fresh = newByKey.get(keyId)!.filter((id) => !known.has(id));
    if (fresh.length === 0) continue;
    const quota = quotas.get(keyId);
    const perDay = quota?.new_hosts_per_day ?? settings.newHostsPerDay;
    const today = counted.day === day ? counted.new_hosts : 0;
    let room = perDay - today;
    let limit = `enrolled its ${perDay} new hosts for today (UTC)`;
    if (quota?.max_hosts != null) {
      const [{ hosts }] = (await trx('host').where('key_id', keyId).count({ hosts: '*' })) as [{ hosts: number | string }];
      if (quota.max_hosts - Number(hosts) < room) {
        room = quota.max_hosts - Number(hosts);
        limit = `has its maximum of ${quota.max_hosts} hosts`;
      }
    }
    const admitted = fresh.slice(0, Math.max(0, room));
    const turnedAway = new Set(fresh.slice(admitted.length));
    await trx('key_host_quota')
      .where('key_id', keyId)
      .update({ day, new_hosts: today + admitted.length });
    if (turnedAway.size === 0) continue;
    const retryAfter = Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS - now.getTime()) / 1000);
    const error = new ReportRefusedError('host-quota-exceeded', 429, `Host quota exceeded: this license key ${limit}`, retryAfter);
    sightings.forEach((sighting, index) => {
      if (turnedAway.has(sighting.id)) admission.refused.set(index, error);
    });
    if (await firstNoticeToday(trx, dialect, keyId, day, now)) {
      admission.events.push({
        type: 'key.quota_reached',
        data: { keyId, day, newHostsPerDay: perDay, maxHosts: quota?.max_hosts ?? null, newHostsToday: today + admitted.length, at: now.toISOString() },
      });
    }
  }
}

/** A key's count of new hosts on a day. */
type QuotaCount = Pick<RowOf<KeyHostQuotaRecord>, 'day' | 'new_hosts'>;

/**
 * The key's count of new hosts, its row locked until commit (created at zero when missing): every transaction that
 * adds hosts to the key passes here first, so they count one after the other, on every server.
 */
async function lockQuota(trx: Knex.Transaction, dialect: SqlDialect, keyId: string, day: string): Promise<QuotaCount> {
  const [row] = await dialect.upsertReturning<QuotaCount>(
    trx,
    { table: 'key_host_quota', rows: [{ key_id: keyId, day, new_hosts: 0 }], conflict: ['key_id'], merge: { day: trx.raw('key_host_quota.day') } },
    ['day', 'new_hosts'],
  );
  return row!;
}

/** Whether the key's quota was not yet told of today; if so, it counts as told now (a `webhook_notice` row). */
async function firstNoticeToday(trx: Knex.Transaction, dialect: SqlDialect, keyId: string, day: string, now: Date): Promise<boolean> {
  const notice = (await trx('webhook_notice').first('notified_at').where({ kind: 'key.quota_reached', subject: keyId })) as
    { notified_at: DatabaseTime } | undefined;
  if (notice && new Date(notice.notified_at).toISOString().slice(0, 10) === day) return false;
  await upsertNotices(trx, 'key.quota_reached', [keyId], dialect.toDatabaseTime(now));
  return true;
}

/** Step 3 of {@link admitReports}: each known host's reports against its last `hostid2`, oldest first. */
function checkIdentities(
  dialect: SqlDialect,
  sightings: HostSighting[],
  known: Map<string, KnownHost>,
  mode: HostIdentityMode,
  now: Date,
  admission: Admission,
): void {
  const order = sightings
    .map((sighting, index) => ({ sighting, index }))
    .filter(({ sighting, index }) => known.has(sighting.id) && !admission.refused.has(index));
  order.sort((a, b) => a.sighting.receivedAt.getTime() - b.sighting.receivedAt.getTime() || a.index - b.index);
  const flagged = new Set<KnownHost>();
  for (const { sighting, index } of order) {
    const host = known.get(sighting.id)!;
    const offered = sighting.host_id2;
    if (host.host_id2 === null || offered === host.host_id2) {
      if (host.host_id2 === null) host.host_id2 = offered;
      continue;
    }
    const sameChange = host.identity_changed_at !== null && new Set([host.identity_from, host.identity_to, host.host_id2, offered]).size === 2;
    if (!sameChange || (mode === 'strict' && !host.identity_refused)) {
      const at = sameChange ? host.identity_changed_at! : dialect.toDatabaseTime(now);
      if (!sameChange) {
        admission.events.push({
          type: 'host.identity_changed',
          data: {
            hostRecordId: host.id,
            keyId: host.key_id,
            hostId: host.host_id,
            hostname: sighting.hostname,
            previousHostId2: host.host_id2,
            hostId2: offered,
            refused: mode === 'strict',
            at: now.toISOString(),
          },
        });
      }
      Object.assign(host, { identity_changed_at: at, identity_from: host.host_id2, identity_to: offered, identity_refused: mode === 'strict' });
      flagged.add(host);
    }
    if (mode === 'strict') {
      admission.refused.set(
        index,
        new ReportRefusedError('host-identity-changed', 409, "Host identity changed: hostid2 differs from the host's last one; an operator must accept it"),
      );
    } else host.host_id2 = offered;
  }
  admission.flagged = [...flagged];
}

/**
 * Accepts the `hostid2` a host's flagged change names: the flag is cleared and the host's `hostid2` becomes this one,
 * so that its next report with it is stored in strict mode too. A `conflict` {@link DomainError} when no flagged
 * change names `hostId2` (another operator accepted it, or a later change replaced it); `not_found` when there is no
 * such host. The host's row is locked while it is read and changed.
 */
export async function acceptHostIdentity(orm: Database, id: string, hostId2: string | null): Promise<void> {
  if (!isRecordId(id)) throw notFound('host', id);
  const dialect = sqlDialectOf(orm.em);
  await orm.em.getKnex().transaction(async (trx) => {
    await dialect.startWriting(trx);
    const [host] = await lockHosts(trx, dialect, [id]);
    if (!host) throw notFound('host', id);
    if (host.identity_changed_at === null || host.identity_to !== hostId2)
      throw new DomainError('conflict', 'The host has no identity change to this hostid2 waiting to be accepted');
    await trx('host').where('id', id).update({ host_id2: hostId2, identity_changed_at: null, identity_from: null, identity_to: null, identity_refused: false });
  });
}
