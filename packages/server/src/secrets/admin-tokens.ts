import { randomBytes, randomUUID } from 'node:crypto';
import { secretDigest } from './secret-digest.js';
import type { FilterQuery } from '@mikro-orm/core';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { AdminTokenRecord, isRecordId, UserRecord } from '../database/entities.js';
import { DomainError } from '../errors/domain-error.js';
import { DEFAULT_ADMIN_ROLE, isAdminRole, parseRole, roleAllows, type AdminRole } from '../people/roles.js';
import { normalizeScope, scopeColumns, scopeFromColumns, UNSCOPED, type AccessScope } from '../people/scope.js';
import { findUserByIdOrFail, normalizeDisplayName } from '../people/user-records.js';
import { falseIfNotFound, secretFailure, recordLastUse, secretPrefix } from './secret-records.js';

/** How often, at most, one server writes a token's last-use time: an admin request costs one read, not a write. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/** What every admin token starts with, so that people and secret scanners recognise one. */
export const ADMIN_TOKEN_PREFIX = 'adm_';
/** An admin token: the prefix, then 256 bits from the CSPRNG as 64 hex digits. */
export const ADMIN_TOKEN_PATTERN = /^adm_[0-9a-f]{64}$/;

/** `personal`: a person's, never above its owner's role nor beyond its scope; `service`: a named service account's. */
export type AdminTokenKind = 'personal' | 'service';

/** An admin token as operators see it: never the token itself. */
export interface AdminTokenSummary {
  id: string;
  label: string | null;
  /** The first characters of the token, `adm_` included, to tell tokens apart. */
  prefix: string;
  kind: AdminTokenKind;
  /** The person a personal token belongs to; null for a service account's. */
  owner: { id: string; email: string } | null;
  /** The service account's name; null for a personal token. */
  serviceAccount: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  /** The role the token was given (a personal one acts with at most its owner's current role). */
  role: AdminRole;
  /** Which hosts it may see: a personal token's is its owner's, as it is now. */
  scope: AccessScope;
}

/** A valid admin token as a request presents it: its id and what it may do. */
export interface AdminTokenIdentity {
  tokenId: string;
  role: AdminRole;
  /** Which hosts the token may see. */
  scope: AccessScope;
}

/** SHA-256 (hex) of an admin token: the only form in which the database keeps it. */
export function hashAdminToken(token: string): string {
  return secretDigest(token);
}

/** What every new token is given. */
interface NewToken {
  label?: string | null;
  role: AdminRole;
  /** When it stops working; null or absent for never. */
  expiresAt?: Date | null;
}

/** A new service account's token; `role` is `admin` when not given, as every token made before roles existed. */
export interface NewServiceToken extends Partial<NewToken> {
  serviceAccount: string;
  scope?: Partial<AccessScope>;
}

/** A new personal token of the account `ownerUserId`; `role` is the owner's when not given. */
export interface NewPersonalToken extends Partial<NewToken> {
  ownerUserId: string;
}

/**
 * Creates a token for a service account and returns it: the only moment the token exists outside its owner's
 * hands. An `invalid` {@link DomainError} for an empty account name or an expiry already past.
 */
export async function createServiceToken(database: Database, options: NewServiceToken): Promise<{ id: string; token: string }> {
  const serviceAccount = normalizeDisplayName(options.serviceAccount);
  if (serviceAccount === null) throw new DomainError('invalid', 'The service account needs a name');
  return insertToken(
    database,
    { label: options.label, role: options.role ?? DEFAULT_ADMIN_ROLE, expiresAt: options.expiresAt },
    {
      kind: 'service',
      ownerUserId: null,
      serviceAccount,
      ...scopeColumns(normalizeScope(options.scope)),
    },
  );
}

/**
 * Creates a personal token of an account: its role at most the owner's (an `invalid` {@link DomainError} for a
 * higher one), its scope always the owner's as it is when the token is used, so none is stored.
 */
export async function createPersonalToken(database: Database, options: NewPersonalToken): Promise<{ id: string; token: string }> {
  const owner = await findUserByIdOrFail(database, options.ownerUserId);
  const role = options.role ?? owner.role;
  if (!roleAllows(owner.role, role))
    throw new DomainError('invalid', `A personal token's role is at most its owner's: ${owner.email} is ${owner.role}, not ${role}`);
  return insertToken(
    database,
    { label: options.label, role, expiresAt: options.expiresAt },
    {
      kind: 'personal',
      ownerUserId: owner.id,
      serviceAccount: null,
      ...scopeColumns(UNSCOPED),
    },
  );
}

/**
 * A service account's token named after its label (or "admin token"), for the callers that knew only labels and
 * roles; `admin` unless `role` says otherwise.
 */
export const createAdminToken = (database: Database, options: Partial<NewServiceToken> = {}): Promise<{ id: string; token: string }> =>
  createServiceToken(database, { ...options, serviceAccount: options.serviceAccount ?? options.label ?? 'admin token' });

type OwnerColumns = Pick<AdminTokenRecord, 'kind' | 'ownerUserId' | 'serviceAccount' | 'scopeCustomers' | 'scopeGroups'>;

async function insertToken(database: Database, fields: NewToken, owner: OwnerColumns): Promise<{ id: string; token: string }> {
  const expiresAt = fields.expiresAt ?? null;
  if (expiresAt !== null && expiresAt.getTime() <= Date.now()) throw new DomainError('invalid', 'The expiry is in the past: give a time to come');
  const secret = randomBytes(32).toString('hex');
  const token = `${ADMIN_TOKEN_PREFIX}${secret}`;
  const id = randomUUID();
  await database.em.fork().insert(AdminTokenRecord, {
    id,
    tokenHash: hashAdminToken(token),
    prefix: secretPrefix(secret), // 32 of the 256 bits: enough to tell tokens apart, too few to matter
    label: normalizeDisplayName(fields.label ?? undefined),
    role: parseRole(fields.role),
    createdAt: new Date(),
    revokedAt: null,
    lastUsedAt: null,
    expiresAt,
    ...owner,
  });
  return { id, token };
}

/** All admin tokens (or the one with `id`), oldest first. */
export async function listAdminTokens(database: Database, id?: string): Promise<AdminTokenSummary[]> {
  if (id !== undefined && !isRecordId(id)) return [];
  return readTokens(database, id === undefined ? {} : { id }, 'asc');
}

/** The personal tokens of the account `ownerUserId`, newest first. */
export const listPersonalTokens = (database: Database, ownerUserId: string): Promise<AdminTokenSummary[]> =>
  readTokens(database, { ownerUserId, kind: 'personal' }, 'desc');

/** One admin token as operators see it, or undefined when no token has this id. */
export async function findAdminToken(database: Database, id: string): Promise<AdminTokenSummary | undefined> {
  return (await listAdminTokens(database, id))[0];
}

/** The tokens `where` selects, by creation time, with their owners read in one more query. */
async function readTokens(database: Database, where: FilterQuery<AdminTokenRecord>, order: 'asc' | 'desc'): Promise<AdminTokenSummary[]> {
  const em = database.em.fork();
  const records = await em.find(AdminTokenRecord, where, { orderBy: { createdAt: order, id: order } });
  const ownerIds = [...new Set(records.flatMap((record) => (record.ownerUserId ? [record.ownerUserId] : [])))];
  const owners = new Map(
    ownerIds.length === 0
      ? []
      : (await em.find(UserRecord, { id: { $in: ownerIds } }, { fields: ['id', 'email', 'scopeCustomers', 'scopeGroups'] })).map((user) => [user.id, user]),
  );
  return records.map((record) => {
    const owner = record.ownerUserId ? owners.get(record.ownerUserId) : undefined;
    const personal = record.kind === 'personal';
    return {
      id: record.id,
      label: record.label ?? null,
      prefix: `${ADMIN_TOKEN_PREFIX}${record.prefix}`,
      kind: personal ? 'personal' : 'service',
      owner: owner ? { id: owner.id, email: owner.email } : null,
      serviceAccount: record.serviceAccount ?? null,
      createdAt: record.createdAt,
      revokedAt: record.revokedAt ?? null,
      lastUsedAt: record.lastUsedAt ?? null,
      expiresAt: record.expiresAt ?? null,
      role: storedRole(record.role),
      scope: personal ? ownerScope(owner) : scopeFromColumns(record.scopeCustomers, record.scopeGroups),
    };
  });
}

/** A personal token's scope: its owner's; an owner gone sees nothing (its token is refused anyway). */
const ownerScope = (owner: Pick<UserRecord, 'scopeCustomers' | 'scopeGroups'> | undefined): AccessScope =>
  owner ? scopeFromColumns(owner.scopeCustomers, owner.scopeGroups) : { customers: ['\u0000no owner'], groups: [] };

/**
 * Revokes an admin token by id; it is refused from the next request on (revoking twice changes nothing). Rejects
 * with a `not_found` {@link DomainError} when no token has this id.
 */
export async function revokeAdminTokenOrFail(database: Database, id: string): Promise<void> {
  const notFound = secretFailure('not_found', `No admin token with id ${id}`);
  if (!isRecordId(id)) throw notFound;
  const em = database.em.fork();
  const changed = await em.nativeUpdate(AdminTokenRecord, { id, revokedAt: null }, { revokedAt: new Date() });
  if (changed === 0 && (await em.count(AdminTokenRecord, { id })) === 0) throw notFound;
}

/**
 * Revokes a personal token of the account `ownerUserId` (revoking twice changes nothing); a `not_found`
 * {@link DomainError} when the account has no token with this id, whoever else's it may be.
 */
export async function revokePersonalTokenOrFail(database: Database, ownerUserId: string, id: string): Promise<void> {
  const notFound = secretFailure('not_found', `You have no token with id ${id}`);
  if (!isRecordId(id)) throw notFound;
  const em = database.em.fork();
  const changed = await em.nativeUpdate(AdminTokenRecord, { id, ownerUserId, revokedAt: null }, { revokedAt: new Date() });
  if (changed === 0 && (await em.count(AdminTokenRecord, { id, ownerUserId })) === 0) throw notFound;
}

/** {@link revokeAdminTokenOrFail} for scripts that only ask whether the token existed: resolves false when none has this id. */
export const revokeAdminToken = (database: Database, id: string): Promise<boolean> => revokeAdminTokenOrFail(database, id).then(() => true, falseIfNotFound);

/** A stored role; one this server does not know (written by a newer one) counts as the lowest, never as more. */
const storedRole = (role: string): AdminRole => (isAdminRole(role) ? role : 'viewer');

/**
 * Finds valid admin tokens: by SHA-256 digest (so no secret is compared byte by byte), refused once revoked. Every
 * check reads the table, so a revocation counts from the next check on, on every server. Records each token's last
 * use at most once a minute per process.
 */
export class AdminTokenVerifier {
  /** When this process last wrote each token's last-use time (epoch ms). */
  #lastWritten = new Map<string, number>();

  constructor(
    private readonly database: Database,
    private readonly onWriteFailure: (error: unknown) => void = () => {},
  ) {}

  /**
   * The id, role and scope of a valid token, or undefined when the token is unknown, revoked or expired, or is a
   * personal one whose owner is disabled or gone. A personal token acts with the lower of its role and its owner's
   * current one, within the owner's current scope: read with the token in one query, so a request costs one read.
   */
  async verify(token: string): Promise<AdminTokenIdentity | undefined> {
    const knex = this.database.em.getKnex();
    const now = sqlDialectOf(this.database.em).toDatabaseTime(new Date());
    const row = (await knex('admin_token as t')
      .leftJoin('app_user as u', 'u.id', 't.owner_user_id')
      .first(
        't.id',
        't.role',
        't.kind',
        't.scope_customers',
        't.scope_groups',
        'u.id as owner_id',
        'u.role as owner_role',
        'u.disabled_at as owner_disabled_at',
        'u.scope_customers as owner_scope_customers',
        'u.scope_groups as owner_scope_groups',
      )
      .where('t.token_hash', hashAdminToken(token))
      .whereNull('t.revoked_at')
      .andWhere((unexpired) => void unexpired.whereNull('t.expires_at').orWhere('t.expires_at', '>', now))) as VerifiedRow | undefined;
    const identity = row ? identityOf(row) : undefined;
    if (identity) await this.#noteUse(identity.tokenId);
    return identity;
  }

  /** Writes the last-use time at most once a minute per token; a failed write never fails the check. */
  async #noteUse(id: string): Promise<void> {
    const now = Date.now();
    if (now - (this.#lastWritten.get(id) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    this.#lastWritten.set(id, now);
    try {
      await recordLastUse(this.database.em.fork(), AdminTokenRecord, id, new Date(now));
    } catch (error) {
      this.onWriteFailure(error);
    }
  }
}

/** The columns {@link AdminTokenVerifier.verify} reads: the token's, and its owner's when it has one. */
interface VerifiedRow {
  id: string;
  role: string;
  kind: string;
  scope_customers: string | null;
  scope_groups: string | null;
  owner_id: string | null;
  owner_role: string | null;
  owner_disabled_at: unknown;
  owner_scope_customers: string | null;
  owner_scope_groups: string | null;
}

/** What a token found may do; undefined for a personal token whose owner is disabled or gone (or one of an unknown kind). */
function identityOf(row: VerifiedRow): AdminTokenIdentity | undefined {
  const role = storedRole(row.role);
  if (row.kind === 'service') return { tokenId: row.id, role, scope: scopeFromColumns(row.scope_customers, row.scope_groups) };
  if (row.kind !== 'personal' || row.owner_id === null || row.owner_role === null || row.owner_disabled_at !== null) return undefined;
  const ownerRole = storedRole(row.owner_role);
  return {
    tokenId: row.id,
    role: roleAllows(ownerRole, role) ? role : ownerRole,
    scope: scopeFromColumns(row.owner_scope_customers, row.owner_scope_groups),
  };
}
