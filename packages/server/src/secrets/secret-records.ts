import type { SqlEntityManager } from '@mikro-orm/knex';
import { AdminTokenRecord, LicenseKeyRecord } from '../database/entities.js';
import { DomainError, isDomainError, type DomainErrorCode } from '../errors/domain-error.js';

/**
 * A failure of an operation on license keys and admin tokens: the message as the command line prints it, the
 * detail as a sentence for the admin API. The message never contains a secret.
 */
export function secretFailure(code: DomainErrorCode, message: string): DomainError {
  return new DomainError(code, message, { detail: message.charAt(0).toUpperCase() + message.slice(1) });
}

/** Resolves false for a `not_found` {@link DomainError}, rethrows anything else: for callers that only ask whether it existed. */
export function falseIfNotFound(error: unknown): false {
  if (isDomainError(error, 'not_found')) return false;
  throw error;
}

/** The part of a secret stored in clear to tell secrets apart: at most 8 characters, never more than a quarter of it. */
export const secretPrefix = (secret: string) => secret.slice(0, Math.min(8, Math.floor(secret.length / 4)));

/** Writes when a license key or admin token was last used, keeping a later time another server may have written. */
export async function recordLastUse(em: SqlEntityManager, entity: typeof LicenseKeyRecord | typeof AdminTokenRecord, id: string, at: Date): Promise<void> {
  // Both tables have `id` and `lastUsedAt`; the cast lets one statement serve either.
  await em.nativeUpdate(entity as typeof LicenseKeyRecord, { id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: at } }] }, { lastUsedAt: at });
}
