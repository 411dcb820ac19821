import type { SqlEntityManager } from '@mikro-orm/knex';
import { AdminTokenRecord, LicenseKeyRecord } from '../database/entities.js';

/** What went wrong with an operation on a secret: bad input, no such secret, or a state that forbids the operation. */
export type SecretErrorCode = 'invalid' | 'not-found' | 'conflict';

/**
 * How every operation on license keys and admin tokens reports failure; the admin API and the command line each
 * turn it into their answer in one place. The message never contains a secret.
 */
export class SecretError extends Error {
  override name = 'SecretError';

  constructor(
    message: string,
    readonly code: SecretErrorCode = 'invalid',
  ) {
    super(message);
  }

  /** The message as a sentence, for operators. */
  get detail(): string {
    return this.message.charAt(0).toUpperCase() + this.message.slice(1);
  }
}

/** Resolves false for a `not-found` {@link SecretError}, rethrows anything else: for callers that only ask whether it existed. */
export function falseIfNotFound(error: unknown): false {
  if (error instanceof SecretError && error.code === 'not-found') return false;
  throw error;
}

/** The part of a secret stored in clear to tell secrets apart: at most 8 characters, never more than a quarter of it. */
export const secretPrefix = (secret: string) => secret.slice(0, Math.min(8, Math.floor(secret.length / 4)));

/** Writes when a license key or admin token was last used, keeping a later time another server may have written. */
export async function recordLastUse(em: SqlEntityManager, entity: typeof LicenseKeyRecord | typeof AdminTokenRecord, id: string, at: Date): Promise<void> {
  // Both tables have `id` and `lastUsedAt`; the cast lets one statement serve either.
  await em.nativeUpdate(entity as typeof LicenseKeyRecord, { id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: at } }] }, { lastUsedAt: at });
}
