import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { AdminTokenRecord, isRecordId, SessionRecord, UserRecord } from '../database/entities.js';
import { DomainError } from '../errors/domain-error.js';
import { parseRole, type AdminRole } from './roles.js';
import { normalizeScope, scopeColumns, scopeFromColumns, UNSCOPED, type AccessScope } from './scope.js';

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

/** The accounts that may sign in (not disabled), in the order of their emails: the people work can be given to. */
export async function listEnabledUsers(database: Database): Promise<UserSummary[]> {
  const records = await database.em.fork().find(UserRecord, { disabledAt: null }, { orderBy: { email: 'asc' } });
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

/** What may change of an account through the admin API: the fields given change, the others stay. */
export interface UserChange {
  displayName?: string | null;
  role?: AdminRole;
  scope?: Partial<AccessScope>;
  disabled?: boolean;
}

/** Gives the account of `email` another role; its sessions end, so that no one keeps a role given up. */
export const setUserRole = async (database: Database, email: string, role: AdminRole): Promise<UserSummary> =>
  changeUser(database, (await findUserOrFail(database, email)).id, { role: parseRole(role) });

/** Gives the account of `email` another scope (empty: every host); its sessions end. */
export const setUserScope = async (database: Database, email: string, scope: Partial<AccessScope>): Promise<UserSummary> =>
  changeUser(database, (await findUserOrFail(database, email)).id, { scope });

/**
 * Disables the account of `email` (it can no longer sign in and its sessions end; disabling twice keeps the first
 * time) or enables it again.
 */
export const setUserDisabled = async (database: Database, email: string, disabled: boolean): Promise<UserSummary> =>
  changeUser(database, (await findUserOrFail(database, email)).id, { disabled });

/** Replaces the password hash of the account of `email`; its sessions end, as someone may have learnt the old one. */
export const setUserPasswordHash = async (database: Database, email: string, passwordHash: string): Promise<UserSummary> =>
  writeUser(database, (await findUserOrFail(database, email)).id, { passwordHash, passwordChangedAt: new Date() }, { endSessions: true });

/** The account of this email, or a `not_found` {@link DomainError}. */
export async function findUserOrFail(database: Database, email: string): Promise<UserSummary> {
  const user = await findUser(database, email);
  if (!user) throw new DomainError('not_found', `No user with email ${normalizeEmail(email)}`);
  return user;
}

/** The account of this id, or a `not_found` {@link DomainError} (also for an id that is no id). */
export async function findUserByIdOrFail(database: Database, id: string): Promise<UserSummary> {
  const user = isRecordId(id) ? await findUserById(database, id) : undefined;
  if (!user) throw new DomainError('not_found', `No user with id ${id}`);
  return user;
}

/**
 * Changes the account of `id`. A change of role or scope, or disabling, ends its sessions (its personal tokens
 * follow from their next request, see `admin-tokens.ts`); a new name alone does not. The last enabled admin can be
 * neither demoted nor disabled: a `conflict` {@link DomainError}.
 */
export async function changeUser(database: Database, id: string, change: UserChange): Promise<UserSummary> {
  const current = await findUserByIdOrFail(database, id);
  const columns: Partial<UserRecord> = {};
  if (change.displayName !== undefined) columns.displayName = normalizeDisplayName(change.displayName ?? undefined);
  if (change.role !== undefined && change.role !== current.role) columns.role = parseRole(change.role);
  if (change.scope !== undefined) Object.assign(columns, scopeColumns(normalizeScope(change.scope)));
  if (change.disabled !== undefined && change.disabled !== (current.disabledAt !== null)) columns.disabledAt = change.disabled ? new Date() : null;
  const endSessions = 'role' in columns || 'scopeCustomers' in columns || 'disabledAt' in columns;
  const leavesAdmins = current.role === 'admin' && current.disabledAt === null && ('role' in columns || columns.disabledAt instanceof Date);
  return writeUser(database, id, columns, { endSessions, leavesAdmins });
}

/**
 * Deletes the account of `id` with its sessions and personal tokens; the last enabled admin cannot be deleted (a
 * `conflict` {@link DomainError}).
 */
export async function deleteUserById(database: Database, id: string): Promise<UserSummary> {
  const current = await findUserByIdOrFail(database, id);
  await database.em.fork().transactional(async (tx) => {
    if (current.role === 'admin' && current.disabledAt === null) await keepAnotherAdmin(tx, id, 'deleted');
    await tx.nativeDelete(SessionRecord, { userId: id });
    await tx.nativeDelete(AdminTokenRecord, { ownerUserId: id });
    await tx.nativeDelete(UserRecord, { id });
  });
  return current;
}

/** `users delete`: {@link deleteUserById} by email. */
export const deleteUser = async (database: Database, email: string): Promise<UserSummary> =>
  deleteUserById(database, (await findUserOrFail(database, email)).id);

/** Notes a successful sign-in's time; the account's sessions stay. */
export async function recordSignIn(database: Database, id: string, at = new Date()): Promise<void> {
  await database.em.fork().nativeUpdate(UserRecord, { id }, { lastSignInAt: at });
}

type Transaction = Parameters<Parameters<Database['em']['transactional']>[0]>[0];

/**
 * Refuses, with a `conflict` {@link DomainError}, to leave no enabled admin but `id`: someone must always be able to
 * manage the server. The enabled admins' rows are locked until the writing transaction ends, so that two admins
 * demoting each other at once cannot both pass: the second waits for the first and then sees it gone (SQLite lets
 * one writer in at a time anyway).
 */
async function keepAnotherAdmin(tx: Transaction, id: string, what: string): Promise<void> {
  const trx = tx.getTransactionContext<Knex.Transaction>()!;
  const admins = (await sqlDialectOf(tx).lockRows(trx('app_user').select('id').where('role', 'admin').whereNull('disabled_at').orderBy('id'))) as {
    id: string;
  }[];
  if (!admins.some((admin) => admin.id !== id)) throw new DomainError('conflict', `The last enabled admin cannot be ${what}: make another person admin first`);
}

/** Writes `columns` to the account of `id` (with `updatedAt`), ending its sessions when asked, in one transaction. */
async function writeUser(
  database: Database,
  id: string,
  columns: Partial<UserRecord>,
  options: { endSessions: boolean; leavesAdmins?: boolean },
): Promise<UserSummary> {
  const em = database.em.fork();
  if (Object.keys(columns).length > 0) {
    await em.transactional(async (tx) => {
      if (options.leavesAdmins) await keepAnotherAdmin(tx, id, columns.disabledAt ? 'disabled' : 'demoted');
      await tx.nativeUpdate(UserRecord, { id }, { ...columns, updatedAt: new Date() });
      if (options.endSessions) await tx.nativeDelete(SessionRecord, { userId: id });
    });
  }
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
