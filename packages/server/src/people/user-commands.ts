import { text } from 'node:stream/consumers';
import type { Database } from '../database/dialect.js';
import { DomainError } from '../errors/domain-error.js';
import { hashPassword } from './passwords.js';
import { parseRole } from './roles.js';
import { normalizeScope, type AccessScope } from './scope.js';
import { addUser, setUserPasswordHash, type UserSummary } from './user-records.js';

/** What `users add` reads from the command line, all but the password. */
export interface UserAddFlags extends ScopeFlags {
  email: string;
  role: string;
  name?: string;
}

/** The repeatable `--customer` and `--group` flags of a scope; none given: every host. */
export interface ScopeFlags {
  customer?: string[];
  group?: string[];
}

/** For commander: gathers every use of a repeatable flag. */
export const collectRepeated = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** The scope the flags give, normalised (see `scope.ts`). */
export const scopeOfFlags = (flags: ScopeFlags): AccessScope => normalizeScope({ customers: flags.customer, groups: flags.group });

/** A scope as one table cell: `customers:a,b groups:c`, or `all hosts`. */
export function scopeText(scope: AccessScope): string {
  const parts = [
    scope.customers.length > 0 ? `customers:${scope.customers.join(',')}` : '',
    scope.groups.length > 0 ? `groups:${scope.groups.join(',')}` : '',
  ].filter((part) => part !== '');
  return parts.length > 0 ? parts.join(' ') : 'all hosts';
}

/**
 * The password piped in on `input`, without the one line ending `echo` or a file adds. Refused from a terminal,
 * which would show it as it is typed, and when nothing came in. Never taken from the command line: other users
 * of the machine see a command's arguments, and shells keep them in their history.
 */
export async function readPasswordFrom(input: NodeJS.ReadableStream & { isTTY?: boolean }): Promise<string> {
  if (input.isTTY) {
    throw new DomainError('invalid', 'pipe the password in, it is not read from a terminal: read -rs PW && printf %s "$PW" | audit-server users …');
  }
  const password = (await text(input)).replace(/\r?\n$/, '');
  if (password === '') throw new DomainError('invalid', 'no password on stdin: pipe it in with --password-stdin');
  return password;
}

/** `users add`: an account with its password hashed. The first admin of a fresh install is made this way. */
export async function addUserWithPassword(database: Database, flags: UserAddFlags, password: string): Promise<UserSummary> {
  const role = parseRole(flags.role);
  return addUser(database, { email: flags.email, role, displayName: flags.name, passwordHash: await hashPassword(password), scope: scopeOfFlags(flags) });
}

/** `users reset-password`: a new password for the account of `email`. */
export async function resetUserPassword(database: Database, email: string, password: string): Promise<UserSummary> {
  return setUserPasswordHash(database, email, await hashPassword(password));
}

/** The columns of `users list`. */
export const USER_LIST_HEADER = ['ID', 'EMAIL', 'NAME', 'ROLE', 'SCOPE', 'STATE', 'CREATED', 'LAST SIGN-IN'];

/** The rows of `users list`, one per account. */
export const userListRows = (users: UserSummary[]): string[][] =>
  users.map((user) => [
    user.id,
    user.email,
    user.displayName ?? '-',
    user.role,
    scopeText(user.scope),
    user.disabledAt ? `disabled ${user.disabledAt.toISOString()}` : 'active',
    user.createdAt.toISOString(),
    user.lastSignInAt?.toISOString() ?? 'never',
  ]);
