import { hash, verify, type Options } from '@node-rs/argon2';
import type { Database } from '../database/dialect.js';
import { DomainError } from '../errors/domain-error.js';
import { findUserForSignIn, type UserSummary } from './user-records.js';

/** Shortest password accepted, in characters: length is what makes a password hard to guess. */
export const PASSWORD_MIN_LENGTH = 12;
/** Longest password accepted, in characters: a passphrase fits, a megabyte sent to make hashing costly does not. */
export const PASSWORD_MAX_LENGTH = 1024;

/**
 * The argon2id parameters, set here rather than left to the library's defaults so that an upgrade of the library
 * cannot weaken them unnoticed. They are OWASP's first recommendation for argon2id (Password Storage Cheat Sheet):
 * 19 MiB of memory, 2 passes, 1 lane; a 32-byte hash with the library's 16-byte random salt. One hash or check
 * takes some 10 ms of one core (8 ms measured on an x64 server) and 19 MiB while it runs, which the lockout against guessing keeps rare.
 * Each stored hash names its own parameters (`$argon2id$v=19$m=19456,t=2,p=1$…`), so raising them later still
 * verifies the passwords hashed before.
 */
export const ARGON2ID_OPTIONS: Options = {
  algorithm: 2, // Argon2id (the library's enum is a const enum, which isolated modules cannot read)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
};

/**
 * A hash of a password no account has, made with {@link ARGON2ID_OPTIONS}: checking a sign-in of an unknown or
 * disabled account against it costs the same as checking a real one, so the time of a failure does not tell
 * which emails have accounts.
 */
export const DUMMY_PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$4jILRo0TTJmKxNIrBOewng$1ZrRmiD0sk3xO6mqP28YepJ6Mo/7OOnkFp7KXOycMVo';

/** Why a sign-in failed, for the audit trail; the person signing in hears only that it failed. */
export type SignInFailure = 'unknown_user' | 'disabled' | 'wrong_password' | 'no_password';

export type CredentialCheck = { ok: true; user: UserSummary } | { ok: false; reason: SignInFailure };

// Control characters cannot be typed into a password field, and a terminal may act on them: refused.
// eslint-disable-next-line no-control-regex -- the point of the pattern is to find control characters
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Refuses, with an `invalid` {@link DomainError}, a password too short, too long or holding control characters. */
export function checkPasswordRules(password: string): void {
  const length = [...password].length; // characters, not UTF-16 units
  if (length < PASSWORD_MIN_LENGTH) throw new DomainError('invalid', `The password is too short: give at least ${PASSWORD_MIN_LENGTH} characters`);
  if (length > PASSWORD_MAX_LENGTH) throw new DomainError('invalid', `The password is too long: give at most ${PASSWORD_MAX_LENGTH} characters`);
  if (CONTROL_CHARACTER.test(password)) throw new DomainError('invalid', 'The password holds control characters (a line break, a tab, …): leave them out');
}

/** The argon2id hash (PHC string) of a password that follows the rules; the password itself is kept nowhere. */
export async function hashPassword(password: string): Promise<string> {
  checkPasswordRules(password);
  return hash(password, ARGON2ID_OPTIONS);
}

/** Whether `password` is the one `passwordHash` was made of; false, never an error, for a hash it cannot read. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * Checks an email and password. Every failure costs one argon2id check, the same as a success: an unknown or
 * disabled account is checked against {@link DUMMY_PASSWORD_HASH}, and a password beyond the length limit is not
 * hashed in full. Answers the account (never its hash) or why it failed; the caller counts failures against
 * guessing (see `sign-in-lockout.ts`) and tells the person only that the sign-in failed.
 */
export async function verifyCredentials(database: Database, email: string, password: string): Promise<CredentialCheck> {
  const found = await findUserForSignIn(database, email);
  const usable = found !== undefined && found.user.disabledAt === null && found.passwordHash !== null;
  const candidate = password.length > PASSWORD_MAX_LENGTH * 2 ? '' : password; // 2 UTF-16 units per character at most
  const matches = await verifyPassword(usable ? (found.passwordHash ?? DUMMY_PASSWORD_HASH) : DUMMY_PASSWORD_HASH, candidate);
  if (!found) return { ok: false, reason: 'unknown_user' };
  if (found.user.disabledAt !== null) return { ok: false, reason: 'disabled' };
  if (!usable) return { ok: false, reason: 'no_password' };
  return matches ? { ok: true, user: found.user } : { ok: false, reason: 'wrong_password' };
}
