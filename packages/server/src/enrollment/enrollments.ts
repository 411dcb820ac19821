import { randomUUID } from 'node:crypto';
import type { Database } from '../database/dialect.js';
import { EnrollmentRecord, LicenseKeyRecord, isRecordId } from '../database/entities.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import type { Enrollment } from '../generated/types.gen.js';
import { findKey } from '../secrets/license-keys.js';
import { generateEnrollmentSecret, hashEnrollmentSecret, hashLicenseKeyAlias, licenseKeyAlias } from './enrollment-secret.js';

/** The furthest ahead an enrollment may expire: its command carries a secret, so it should not live long. */
export const MAX_ENROLLMENT_DAYS = 90;
const DAY_MS = 86_400_000;

/** An enrollment as operators see it: never its secret. */
export interface EnrollmentSummary {
  id: string;
  licenseKeyId: string;
  keyLabel: string | null;
  systemGroups: string[];
  tags: string[];
  customer: string | null;
  expiresAt: Date;
  maxHosts: number | null;
  /** Hosts whose first report came with its alias of the key. */
  hostCount: number;
  state: Enrollment['state'];
  createdAt: Date;
  createdBy: string | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** What a new enrollment is made of. */
export interface NewEnrollmentOptions {
  licenseKeyId: string;
  systemGroups?: string[];
  tags?: string[];
  customer?: string | null;
  expiresAt: Date;
  maxHosts?: number | null;
  /** Who creates it (see `admin/actor.ts`). */
  createdBy: string | null;
}

/**
 * Creates an enrollment and returns its secret: the only moment it exists outside its owner's hands. An `invalid`
 * {@link DomainError} for an expiry past or more than {@link MAX_ENROLLMENT_DAYS} ahead, `not_found` for an unknown
 * key, `conflict` for a revoked or expired one.
 */
export async function createEnrollment(database: Database, options: NewEnrollmentOptions, now: Date = new Date()): Promise<{ id: string; secret: string }> {
  const { expiresAt } = options;
  if (expiresAt.getTime() <= now.getTime()) throw new DomainError('invalid', `expiresAt: ${expiresAt.toISOString()} is already past`);
  if (expiresAt.getTime() > now.getTime() + MAX_ENROLLMENT_DAYS * DAY_MS) {
    throw new DomainError('invalid', `expiresAt: an enrollment expires at most ${MAX_ENROLLMENT_DAYS} days ahead`);
  }
  const key = await findKey(database, options.licenseKeyId, now);
  if (!key) throw notFound('license key', options.licenseKeyId);
  if (key.state !== 'valid') throw new DomainError('conflict', `License key ${key.id} is ${key.state}: hosts could not report with it`);
  const secret = generateEnrollmentSecret();
  const id = randomUUID();
  await database.em.fork().insert(EnrollmentRecord, {
    id,
    secretHash: hashEnrollmentSecret(secret),
    aliasHash: hashLicenseKeyAlias(licenseKeyAlias(secret)),
    licenseKeyId: key.id,
    systemGroups: JSON.stringify(options.systemGroups ?? []),
    tags: JSON.stringify(options.tags ?? []),
    customer: options.customer ?? null,
    expiresAt,
    maxHosts: options.maxHosts ?? null,
    createdAt: now,
    createdBy: options.createdBy,
    revokedAt: null,
    lastUsedAt: null,
  });
  return { id, secret };
}

/** Every enrollment, newest first (or the one with `id`). */
export async function listEnrollments(database: Database, now: Date = new Date(), id?: string): Promise<EnrollmentSummary[]> {
  if (id !== undefined && !isRecordId(id)) return [];
  const em = database.em.fork();
  const records = await em.find(EnrollmentRecord, id === undefined ? {} : { id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  if (records.length === 0) return [];
  const keyIds = [...new Set(records.map((record) => record.licenseKeyId))];
  const labels = new Map((await em.find(LicenseKeyRecord, { id: { $in: keyIds } }, { fields: ['id', 'label'] })).map((key) => [key.id, key.label ?? null]));
  const counts = await hostCounts(database, id);
  return records.map((record) => summaryOf(record, labels.get(record.licenseKeyId) ?? null, counts.get(record.id) ?? 0, now));
}

/** One enrollment, or a `not_found` {@link DomainError}. */
export async function findEnrollmentOrFail(database: Database, id: string, now: Date = new Date()): Promise<EnrollmentSummary> {
  const [found] = await listEnrollments(database, now, id);
  if (!found) throw notFound('enrollment', id);
  return found;
}

/** Hosts per enrollment (of the one with `id`, or of all): one grouped read of `host`'s index on `enrollment_id`. */
async function hostCounts(database: Database, id: string | undefined): Promise<Map<string, number>> {
  const query = database.em.getKnex()('host').select('enrollment_id').count({ hosts: '*' }).groupBy('enrollment_id');
  const rows = (await (id === undefined ? query.whereNotNull('enrollment_id') : query.where('enrollment_id', id))) as {
    enrollment_id: string;
    hosts: number | string;
  }[];
  return new Map(rows.map((row) => [row.enrollment_id, Number(row.hosts)]));
}

function summaryOf(record: EnrollmentRecord, keyLabel: string | null, hostCount: number, now: Date): EnrollmentSummary {
  const maxHosts = record.maxHosts ?? null;
  const revokedAt = record.revokedAt ?? null;
  const state: Enrollment['state'] = revokedAt
    ? 'revoked'
    : record.expiresAt <= now
      ? 'expired'
      : maxHosts !== null && hostCount >= maxHosts
        ? 'full'
        : 'active';
  return {
    id: record.id,
    licenseKeyId: record.licenseKeyId,
    keyLabel,
    systemGroups: JSON.parse(record.systemGroups) as string[],
    tags: JSON.parse(record.tags) as string[],
    customer: record.customer ?? null,
    expiresAt: record.expiresAt,
    maxHosts,
    hostCount,
    state,
    createdAt: record.createdAt,
    createdBy: record.createdBy ?? null,
    revokedAt,
    lastUsedAt: record.lastUsedAt ?? null,
  };
}

/** Revokes an enrollment: its script is refused from now on, its hosts keep reporting. Revoking twice changes nothing. */
export async function revokeEnrollmentOrFail(database: Database, id: string, now: Date = new Date()): Promise<void> {
  if (!isRecordId(id)) throw notFound('enrollment', id);
  const em = database.em.fork();
  const changed = await em.nativeUpdate(EnrollmentRecord, { id, revokedAt: null }, { revokedAt: now });
  if (changed === 0 && (await em.count(EnrollmentRecord, { id })) === 0) throw notFound('enrollment', id);
}

/** Why a script fetch gets no script: no such secret, or the enrollment's state. */
export type ScriptRefusal = { reason: 'unknown' } | { reason: Exclude<Enrollment['state'], 'active'>; enrollmentId: string };

/**
 * The active enrollment whose secret this is, with its alias of the key, its last use recorded; or why there is
 * none. Looked up by the secret's SHA-256, so no secret is compared byte by byte.
 */
export async function enrollmentForScript(
  database: Database,
  secret: string,
  now: Date = new Date(),
): Promise<{ enrollment: EnrollmentSummary; alias: string } | ScriptRefusal> {
  const em = database.em.fork();
  const record = await em.findOne(EnrollmentRecord, { secretHash: hashEnrollmentSecret(secret) }, { fields: ['id'] });
  if (!record) return { reason: 'unknown' };
  const enrollment = await findEnrollmentOrFail(database, record.id, now);
  if (enrollment.state !== 'active') return { reason: enrollment.state, enrollmentId: enrollment.id };
  await em.nativeUpdate(EnrollmentRecord, { id: enrollment.id }, { lastUsedAt: now });
  return { enrollment, alias: licenseKeyAlias(secret) };
}

/**
 * The enrollment and license key an alias stands for, by the alias' SHA-256 (`alias_hash`'s unique index), or
 * undefined. Whatever the enrollment's state: enrolled hosts keep reporting after it expires or is revoked.
 */
export async function findAlias(database: Database, aliasHash: string): Promise<{ enrollmentId: string; keyId: string } | undefined> {
  const record = await database.em.fork().findOne(EnrollmentRecord, { aliasHash }, { fields: ['id', 'licenseKeyId'] });
  return record ? { enrollmentId: record.id, keyId: record.licenseKeyId } : undefined;
}
