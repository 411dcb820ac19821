import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../database/dialect.js';
import { AdminTokenRecord, isRecordId } from '../database/entities.js';

/** What every admin token starts with, so that people and secret scanners recognise one. */
export const ADMIN_TOKEN_PREFIX = 'adm_';
/** An admin token: the prefix, then 256 bits from the CSPRNG as 64 hex digits. */
export const ADMIN_TOKEN_PATTERN = /^adm_[0-9a-f]{64}$/;


/** An admin token as operators see it: never the token itself. */
export interface AdminTokenSummary {
  id: string;
  label: string | null;
  /** The first characters of the token, `adm_` included, to tell tokens apart. */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** SHA-256 (hex) of an admin token: the only form in which the database keeps it. */
export function hashAdminToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Creates an admin token and returns it: the only moment the token exists outside its owner's hands. */
export async function createAdminToken(database: Database, options: { label?: string } = {}): Promise<{ id: string; token: string }> {
  const secret = randomBytes(32).toString('hex');
  const token = `${ADMIN_TOKEN_PREFIX}${secret}`;
  const id = randomUUID();
  await database.em.fork().insert(AdminTokenRecord, {
    id,
    tokenHash: hashAdminToken(token),
    prefix: secret.slice(0, 8), // 32 of the 256 bits: enough to tell tokens apart, too few to matter
    label: options.label ?? null,
    createdAt: new Date(),
    revokedAt: null,
    lastUsedAt: null,
  });
  return { id, token };
}

/** All admin tokens, oldest first. */
export async function listAdminTokens(database: Database): Promise<AdminTokenSummary[]> {
  const records = await database.em.fork().find(AdminTokenRecord, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return records.map((record) => ({
    id: record.id,
    label: record.label ?? null,
    prefix: `${ADMIN_TOKEN_PREFIX}${record.prefix}`,
    createdAt: record.createdAt,
    revokedAt: record.revokedAt ?? null,
    lastUsedAt: record.lastUsedAt ?? null,
  }));
}

/** Revokes an admin token by id; it is refused from the next request on. Resolves false when no such token exists. */
export async function revokeAdminToken(database: Database, id: string): Promise<boolean> {
  if (!isRecordId(id)) return false;
  const em = database.em.fork();
  const changed = await em.nativeUpdate(AdminTokenRecord, { id, revokedAt: null }, { revokedAt: new Date() });
  return changed > 0 || (await em.count(AdminTokenRecord, { id })) > 0;
}
