import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Database } from '../database/dialect.js';
import { SessionRecord, UserRecord } from '../database/entities.js';
import { DomainError } from '../errors/domain-error.js';
import { parseRole, type AdminRole } from './roles.js';
import { scopeColumns, scopeFromColumns, UNSCOPED, type AccessScope } from './scope.js';

/** Longest email accepted (RFC 5321's limit of a path). */
const EMAIL_MAX_LENGTH = 254;
const DISPLAY_NAME_MAX_LENGTH = 255;
// One @ with something on both sides, no white space or control characters: enough to catch a mistyped flag;
// whether mail reaches it is not this server's concern.
// eslint-disable-next-line no-control-regex -- control characters are what the pattern keeps out
const EMAIL_PATTERN = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+$/;
// eslint-disable-next-line no-control-regex -- control characters are what the pattern keeps out
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** An account as everyone but the password check sees it: never its password hash. */
export interface UserSummary {
  id: string;
  email: string;
  displayName: string | null;
  role: AdminRole;
  /** When the account was disabled; null while it may sign in. */
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  passwordChangedAt: Date;
  /** Which hosts the person may see (see `scope.ts`). */
  scope: AccessScope;
  /** Whether the person has a password (else it signs in through single sign-on only). */
  hasPassword: boolean;
  /** Whether the person has signed in through single sign-on. */
  hasSso: boolean;
  lastSignInAt: Date | null;
}

/** A new account: the password already hashed (see `passwords.ts`). */
export interface NewUser {
  email: string;
  role: AdminRole;
  displayName?: string;
  /** Null for single sign-on only. */
  passwordHash: string | null;
  scope?: AccessScope;
  /** The single sign-on identity of an account made at its first sign-in there. */
  oidc?: { issuer: string; subject: string };
}

/** `text` as the stored form of an email (trimmed, lowercased), or an `invalid` {@link DomainError}. */
export function normalizeEmail(text: string): string {
  const email = text.trim().toLowerCase();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
    throw new DomainError('invalid', `"${text}" is not an email address (like name@example.org, at most ${EMAIL_MAX_LENGTH} characters)`);
  }
  return email;
}

/** A display name trimmed, null when empty; an `invalid` {@link DomainError} when too long or holding control characters. */
export function normalizeDisplayName(text: string | undefined): string | null {
  const name = text?.trim() ?? '';
  if ([...name].length > DISPLAY_NAME_MAX_LENGTH) throw new DomainError('invalid', `The name is too long: at most ${DISPLAY_NAME_MAX_LENGTH} characters`);
  if (CONTROL_CHARACTER.test(name)) throw new DomainError('invalid', 'The name holds control characters: leave them out');
  return name === '' ? null : name;
}

/** Adds an account; a `conflict` {@link DomainError} when one has this email already, whatever its case. */
export async function addUser(database: Database, user: NewUser): Promise<UserSummary> {
  const email = normalizeEmail(user.email);
  const now = new Date();
  const record = {
    id: randomUUID(),
    email,
    displayName: normalizeDisplayName(user.displayName),
    role: parseRole(user.role),
    disabledAt: null,
    passwordHash: user.passwordHash,
    createdAt: now,
    updatedAt: now,
    passwordChangedAt: now,
    lastSignInAt: null,
    ...scopeColumns(user.scope ?? UNSCOPED),
    oidcIssuer: user.oidc?.issuer ?? null,
    oidcSubject: user.oidc?.subject ?? null,
  };
  try {
    await database.em.fork().insert(UserRecord, record);
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw new DomainError('conflict', `A user with email ${email} exists already`);
    throw error;
  }
  return summaryOf(record);
}

/** Every account, in the order of their emails. */
export async function listUsers(database: Database): Promise<UserSummary[]> {
  const records = await database.em.fork().find(UserRecord, {}, { orderBy: { email: 'asc' } });
  return records.map(summaryOf);
}

/** The account of this email (any case), or undefined. */
export async function findUser(database: Database, email: string): Promise<UserSummary | undefined> {
  return (await findUserForSignIn(database, email))?.user;
}

/** The account of this email with its password hash, for the password check alone; undefined for no account or a malformed email. */
export async function findUserForSignIn(database: Database, email: string): Promise<{ user: UserSummary; passwordHash: string | null } | undefined> {
  let normalized: string;
  try {
    normalized = normalizeEmail(email);
  } catch {
    return undefined;
  }
  const record = await database.em.fork().findOne(UserRecord, { email: normalized });
  return record ? { user: summaryOf(record), passwordHash: record.passwordHash ?? null } : undefined;
}

/** The account of this id, or undefined. */
export async function findUserById(database: Database, id: string): Promise<UserSummary | undefined> {
  const record = await database.em.fork().findOne(UserRecord, { id });
  return record ? summaryOf(record) : undefined;
}

/** Gives the account of `email` another role; its sessions end, so that no one keeps a role given up. */
export const setUserRole = (database: Database, email: string, role: AdminRole): Promise<UserSummary> => updateUser(database, email, { role: parseRole(role) });

/**
 * Disables the account of `email` (it can no longer sign in and its sessions end; disabling twice keeps the first
 * time) or enables it again.
 */
export async function setUserDisabled(database: Database, email: string, disabled: boolean): Promise<UserSummary> {
  const current = await findUserOrFail(database, email);
  if (disabled === (current.disabledAt !== null)) return current;
  return updateUser(database, email, { disabledAt: disabled ? new Date() : null });
}

/** Replaces the password hash of the account of `email`; its sessions end, as someone may have learnt the old one. */
export const setUserPasswordHash = (database: Database, email: string, passwordHash: string): Promise<UserSummary> =>
  updateUser(database, email, { passwordHash, passwordChangedAt: new Date() });

/** The account of this email, or a `not_found` {@link DomainError}. */
export async function findUserOrFail(database: Database, email: string): Promise<UserSummary> {
  const user = await findUser(database, email);
  if (!user) throw new DomainError('not_found', `No user with email ${normalizeEmail(email)}`);
  return user;
}

/** Every change (role, disabled, password) is one a signed-in session must not outlive: the account's sessions end with it. */
async function updateUser(database: Database, email: string, changes: Partial<Omit<UserRecord, 'id' | 'email' | 'createdAt'>>): Promise<UserSummary> {
  const { id } = await findUserOrFail(database, email);
  const em = database.em.fork();
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(UserRecord, { id }, { ...changes, updatedAt: new Date() });
    await tx.nativeDelete(SessionRecord, { userId: id });
  });
  return summaryOf(await em.findOneOrFail(UserRecord, { id }));
}

function summaryOf(record: UserRecord): UserSummary {
  return {
    id: record.id,
    email: record.email,
    displayName: record.displayName ?? null,
    role: parseRole(record.role),
    disabledAt: record.disabledAt ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    passwordChangedAt: record.passwordChangedAt,
    scope: scopeFromColumns(record.scopeCustomers, record.scopeGroups),
    hasPassword: record.passwordHash !== null && record.passwordHash !== undefined,
    hasSso: record.oidcSubject !== null && record.oidcSubject !== undefined,
    lastSignInAt: record.lastSignInAt ?? null,
  };
}
