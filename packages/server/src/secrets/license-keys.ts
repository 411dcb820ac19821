import { randomUUID } from 'node:crypto';
import type { SqlEntityManager } from '@mikro-orm/knex';
import { LICENSE_KEY_PATTERN, generateLicenseKey, hashLicenseKey } from '@org/audit-server-core';
import type { LicenseKeyInfo } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { LicenseKeyRecord, isRecordId } from '../database/entities.js';
import { falseIfNotFound, secretFailure, secretPrefix } from './secret-records.js';

/** A license key as operators see it: never the key itself. */
export interface KeySummary {
  id: string;
  label: string | null;
  prefix: string;
  state: LicenseKeyInfo['state'];
  createdAt: Date;
  expiresAt: Date | null;
  /** Last valid license check or upload, as last written by a server (servers write in batches). */
  lastUsedAt: Date | null;
  lastUploadAt: Date | null;
  /** Hosts new to the key per UTC day; null: the server's default. */
  newHostsPerDay: number | null;
  /** Most hosts of the key; null: no maximum. */
  maxHosts: number | null;
}

/** A key's quotas of hosts (see `hosts/host-admission.ts`); null: the server's default, or no maximum. */
export interface KeyQuotas {
  newHostsPerDay?: number | null;
  maxHosts?: number | null;
}

/** What a new key may carry besides the secret. */
export interface NewKeyOptions extends KeyQuotas {
  label?: string;
  /** After this time the key counts as revoked. */
  expiresAt?: Date;
}

const SHAPE_PROBLEM = 'a license key may use only a-f, 0-9 and "-": Lynis deletes every other character before sending it';

/** Creates a key (192 bits from the CSPRNG) and returns it: the only moment the key exists outside its owner's hands. */
export async function createKey(orm: Database, options: NewKeyOptions = {}): Promise<{ id: string; key: string }> {
  const key = generateLicenseKey();
  const [id] = await importKeys(orm, [key], options);
  return { id: id!, key };
}

/** Stores one existing key (hashed) and returns its id. Refuses keys Lynis could not send unchanged. */
export async function importKey(orm: Database, key: string, options: NewKeyOptions = {}): Promise<string> {
  const [id] = await importKeys(orm, [key], options);
  return id!;
}

/**
 * Stores existing keys (hashed), all or none, and returns their ids in order. Refuses the whole batch, naming
 * the position (never the key), when one is malformed, repeated, or already known.
 */
export async function importKeys(orm: Database, keys: string[], options: NewKeyOptions = {}): Promise<string[]> {
  const hashes = keys.map((key, i) => {
    if (!LICENSE_KEY_PATTERN.test(key)) throw secretFailure('invalid', `key ${i + 1}: ${SHAPE_PROBLEM}`);
    return hashLicenseKey(key);
  });
  const firstAt = new Map<string, number>();
  hashes.forEach((hash, i) => {
    const earlier = firstAt.get(hash);
    if (earlier !== undefined) throw secretFailure('invalid', `key ${i + 1}: the same key as key ${earlier + 1}`);
    firstAt.set(hash, i);
  });
  return orm.em.fork().transactional(async (em) => {
    await serialiseKeyChanges(em);
    for (let start = 0; start < hashes.length; start += 500) {
      // In slices: SQLite takes only so many parameters in one statement.
      const known = await em.find(LicenseKeyRecord, { keyHash: { $in: hashes.slice(start, start + 500) } }, { fields: ['keyHash'] });
      if (known.length > 0) throw secretFailure('conflict', `key ${firstAt.get(known[0]!.keyHash)! + 1}: this key is already stored`);
    }
    const now = new Date();
    const ids: string[] = [];
    for (const [i, key] of keys.entries()) {
      const id = randomUUID();
      await em.insert(LicenseKeyRecord, {
        id,
        keyHash: hashes[i]!,
        prefix: secretPrefix(key),
        label: options.label ?? null,
        createdAt: now,
        revokedAt: null,
        expiresAt: options.expiresAt ?? null,
        lastUsedAt: null,
        revision: 0,
        ...quotaColumns(options),
      });
      ids.push(id);
    }
    await markNewKeysChanged(em);
    return ids;
  });
}

/**
 * Reads keys for an import: one per line; blank lines and `#` comments skipped, surrounding whitespace dropped.
 * Errors name the line, never its content.
 */
export function parseKeyList(text: string): string[] {
  const keys: string[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (!LICENSE_KEY_PATTERN.test(line)) throw secretFailure('invalid', `line ${i + 1}: ${SHAPE_PROBLEM}`);
    keys.push(line);
  }
  if (keys.length === 0) throw secretFailure('invalid', 'no keys given: one key per line expected');
  return keys;
}

/** All keys, oldest first, each with its state, last use and the time of its last accepted upload. */
export function listKeys(orm: Database, now: Date = new Date()): Promise<KeySummary[]> {
  return readKeys(orm, undefined, now);
}

/** One key, as {@link listKeys} describes it, or undefined when no key has this id. */
export async function findKey(orm: Database, id: string, now: Date = new Date()): Promise<KeySummary | undefined> {
  return isRecordId(id) ? (await readKeys(orm, id, now))[0] : undefined;
}

/** Every key, or the one with `id`, oldest first. */
async function readKeys(orm: Database, id: string | undefined, now: Date): Promise<KeySummary[]> {
  const em = orm.em.fork();
  const keys = await em.find(LicenseKeyRecord, id === undefined ? {} : { id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const lastUploads = await em
    .getConnection()
    .execute<{ key_id: string; last_upload: number | string }[]>(
      `select key_id, max(received_at) as last_upload from report ${id === undefined ? '' : 'where key_id = ? '}group by key_id`,
      id === undefined ? [] : [id],
    );
  const lastUploadByKey = new Map(lastUploads.map((row) => [row.key_id, new Date(row.last_upload)]));
  return keys.map((record) => ({
    id: record.id,
    label: record.label ?? null,
    prefix: record.prefix,
    state: record.revokedAt ? 'revoked' : record.expiresAt && record.expiresAt <= now ? 'expired' : 'valid',
    createdAt: record.createdAt,
    expiresAt: record.expiresAt ?? null,
    lastUsedAt: record.lastUsedAt ?? null,
    lastUploadAt: lastUploadByKey.get(record.id) ?? null,
    newHostsPerDay: record.newHostsPerDay ?? null,
    maxHosts: record.maxHosts ?? null,
  }));
}

/**
 * The quota columns of a new key, only those set: a key created on a database not yet migrated to them (the
 * upgrade tests do) names none.
 */
function quotaColumns(quotas: KeyQuotas): KeyQuotas {
  return Object.fromEntries(Object.entries(quotas).filter(([, value]) => value !== undefined && value !== null));
}

/** Most a quota may be set to, as the contract allows. */
const MAX_QUOTA = 100_000_000;

/** A quota as a command line gives it: a whole number, or `unsetWord` for null. Names `flag` when it is neither. */
export function parseQuota(text: string, unsetWord: string, flag: string): number | null {
  if (text === unsetWord) return null;
  if (!/^\d+$/.test(text) || Number(text) > MAX_QUOTA) throw new Error(`${flag}: give a whole number from 0 to ${MAX_QUOTA}, or "${unsetWord}"`);
  return Number(text);
}

/** A key's settings to change: its quotas, and its expiry (null: none; a past time expires it at once). */
export interface KeySettings extends KeyQuotas {
  expiresAt?: Date | null;
}

/**
 * Sets a key's settings (those given; a null quota returns to the default). Quotas are read by every commit of
 * new hosts, so they need no revision; an expiry is read by the key checks' cache, so changing it marks the key
 * changed, as revoking does. Rejects with a `not_found` {@link DomainError} when no key has this id, and with a
 * `conflict` one when the expiry of a revoked key is to change (it stays revoked whatever its expiry says).
 */
export async function setKeySettings(orm: Database, id: string, settings: KeySettings): Promise<void> {
  const notFound = secretFailure('not_found', `No license key with id ${id}`);
  if (!isRecordId(id)) throw notFound;
  const changes = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
  await orm.em.fork().transactional(async (em) => {
    await serialiseKeyChanges(em);
    const key = await em.findOne(LicenseKeyRecord, { id }, { fields: ['revokedAt'] });
    if (!key) throw notFound;
    if (settings.expiresAt !== undefined && key.revokedAt) throw secretFailure('conflict', `key ${id} is revoked: its expiry no longer matters`);
    if (Object.keys(changes).length > 0) await em.nativeUpdate(LicenseKeyRecord, { id }, changes);
    if (settings.expiresAt !== undefined) await markChanged(em, id);
  });
}

/** Revokes a key by id (revoking twice changes nothing). Rejects with a `not_found` {@link DomainError} when no key has this id. */
export async function revokeKeyOrFail(orm: Database, id: string): Promise<void> {
  const notFound = secretFailure('not_found', `No license key with id ${id}`);
  if (!isRecordId(id)) throw notFound;
  await orm.em.fork().transactional(async (em) => {
    await serialiseKeyChanges(em);
    const changed = await em.nativeUpdate(LicenseKeyRecord, { id, revokedAt: null }, { revokedAt: new Date() });
    if (changed > 0) await markChanged(em, id);
    else if ((await em.count(LicenseKeyRecord, { id })) === 0) throw notFound;
  });
}

/** {@link revokeKeyOrFail} for scripts that only ask whether the key existed: resolves false when no key has this id. */
export const revokeKey = (orm: Database, id: string): Promise<boolean> => revokeKeyOrFail(orm, id).then(() => true, falseIfNotFound);

/**
 * Issues a new key with the old one's label; the old key keeps working for `graceMs`, then counts as revoked
 * (an earlier expiry it had stays). Refuses keys already revoked or expired.
 */
export async function rotateKey(orm: Database, id: string, graceMs: number): Promise<{ id: string; key: string; oldExpiresAt: Date }> {
  if (!isRecordId(id)) throw secretFailure('not_found', `no key with id ${id}`);
  const key = generateLicenseKey();
  return orm.em.fork().transactional(async (em) => {
    await serialiseKeyChanges(em);
    const old = await em.findOne(LicenseKeyRecord, { id });
    const now = new Date();
    if (!old) throw secretFailure('not_found', `no key with id ${id}`);
    if (old.revokedAt || (old.expiresAt && old.expiresAt <= now)) throw secretFailure('conflict', `key ${id} is already revoked or expired`);
    const graceEnd = new Date(now.getTime() + graceMs);
    const oldExpiresAt = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
    await em.nativeUpdate(LicenseKeyRecord, { id }, { expiresAt: oldExpiresAt });
    await markChanged(em, id);
    const newId = randomUUID();
    await em.insert(LicenseKeyRecord, {
      id: newId,
      keyHash: hashLicenseKey(key),
      prefix: secretPrefix(key),
      label: old.label ?? null,
      createdAt: now,
      revokedAt: null,
      expiresAt: null,
      lastUsedAt: null,
      revision: 0,
      // The hosts move to the new key as new hosts: its quotas are the old one's.
      ...quotaColumns({ newHostsPerDay: old.newHostsPerDay, maxHosts: old.maxHosts }),
    });
    await markNewKeysChanged(em);
    return { id: newId, key, oldExpiresAt };
  });
}

/**
 * Makes key changes wait for each other until commit, so that revision numbers rise in commit order and a server
 * that read the keys at revision n never misses a change numbered n.
 */
async function serialiseKeyChanges(em: SqlEntityManager): Promise<void> {
  await sqlDialectOf(em).serialiseKeyChanges(em);
}

/** Gives a key the next revision number, so that running servers reread the keys. */
async function markChanged(em: SqlEntityManager, id: string): Promise<void> {
  await sqlDialectOf(em).setToNextNumber(em, 'license_key', 'revision', { sql: 'id = ?', bindings: [id] });
}

/**
 * Gives the keys inserted in this transaction (revision 0) the next revision number, in one statement however
 * many they are. Key changes are serialised, so no other writer's new keys can be among them.
 */
async function markNewKeysChanged(em: SqlEntityManager): Promise<void> {
  await sqlDialectOf(em).setToNextNumber(em, 'license_key', 'revision', { sql: 'revision = 0', bindings: [] });
}
