import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/sqlite';
import { LICENSE_KEY_PATTERN, generateLicenseKey, hashLicenseKey } from '@org/audit-server-core';
import { LicenseKeyRecord, ReportRecord } from './entities.js';

/** A license key as operators see it: never the key itself. */
export interface KeySummary {
  id: string;
  label: string | null;
  prefix: string;
  state: 'valid' | 'revoked';
  createdAt: Date;
  lastUploadAt: Date | null;
}

/** Creates a key and returns it: the only moment the key exists outside its owner's hands. */
export async function createKey(orm: MikroORM, label?: string): Promise<{ id: string; key: string }> {
  const key = generateLicenseKey();
  return { id: await importKey(orm, key, label), key };
}

/** Stores an existing key (hashed) and returns its id. Refuses keys Lynis could not send unchanged. */
export async function importKey(orm: MikroORM, key: string, label?: string): Promise<string> {
  if (!LICENSE_KEY_PATTERN.test(key)) {
    throw new Error('A license key may use only a-f, 0-9 and "-": Lynis deletes every other character before sending it');
  }
  const id = randomUUID();
  await orm.em.fork().insert(LicenseKeyRecord, {
    id,
    keyHash: hashLicenseKey(key),
    prefix: key.slice(0, Math.min(8, Math.floor(key.length / 4))), // a hint, never more than a quarter of the key
    label: label ?? null,
    createdAt: new Date(),
    revokedAt: null,
  });
  return id;
}

/** All keys, oldest first, each with the time of its last accepted upload. */
export async function listKeys(orm: MikroORM): Promise<KeySummary[]> {
  const em = orm.em.fork();
  const keys = await em.find(LicenseKeyRecord, {}, { orderBy: { createdAt: 'asc' } });
  const lastUploads = await em
    .getConnection()
    .execute<{ key_id: string; last_upload: number | string }[]>('select key_id, max(received_at) as last_upload from report group by key_id');
  const lastUploadByKey = new Map(lastUploads.map((row) => [row.key_id, new Date(row.last_upload)]));
  return keys.map((record) => ({
    id: record.id,
    label: record.label ?? null,
    prefix: record.prefix,
    state: record.revokedAt ? 'revoked' : 'valid',
    createdAt: record.createdAt,
    lastUploadAt: lastUploadByKey.get(record.id) ?? null,
  }));
}

/** Revokes a key by id. Resolves false when no such key exists. */
export async function revokeKey(orm: MikroORM, id: string): Promise<boolean> {
  const changed = await orm.em.fork().nativeUpdate(LicenseKeyRecord, { id, revokedAt: null }, { revokedAt: new Date() });
  if (changed > 0) return true;
  return (await orm.em.fork().count(LicenseKeyRecord, { id })) > 0;
}
