import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../database/dialect.js';
import { AdminTokenRecord, isRecordId } from '../database/entities.js';
import { DEFAULT_ADMIN_ROLE, isAdminRole, type AdminRole } from '../people/roles.js';
import { scopeFromColumns, type AccessScope } from '../people/scope.js';
import { falseIfNotFound, secretFailure, recordLastUse, secretPrefix } from './secret-records.js';

/** How often, at most, one server writes a token's last-use time: an admin request costs one read, not a write. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

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
  role: AdminRole;
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
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Creates an admin token and returns it: the only moment the token exists outside its owner's hands. Its role is
 * `admin` unless `role` says otherwise.
 */
export async function createAdminToken(database: Database, options: { label?: string; role?: AdminRole } = {}): Promise<{ id: string; token: string }> {
  const secret = randomBytes(32).toString('hex');
  const token = `${ADMIN_TOKEN_PREFIX}${secret}`;
  const id = randomUUID();
  await database.em.fork().insert(AdminTokenRecord, {
    id,
    tokenHash: hashAdminToken(token),
    prefix: secretPrefix(secret), // 32 of the 256 bits: enough to tell tokens apart, too few to matter
    label: options.label ?? null,
    role: options.role ?? DEFAULT_ADMIN_ROLE,
    createdAt: new Date(),
    revokedAt: null,
    lastUsedAt: null,
  });
  return { id, token };
}

/** All admin tokens (or the one with `id`), oldest first. */
export async function listAdminTokens(database: Database, id?: string): Promise<AdminTokenSummary[]> {
  const records = await database.em.fork().find(AdminTokenRecord, id === undefined ? {} : { id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return records.map((record) => ({
    id: record.id,
    label: record.label ?? null,
    prefix: `${ADMIN_TOKEN_PREFIX}${record.prefix}`,
    createdAt: record.createdAt,
    revokedAt: record.revokedAt ?? null,
    lastUsedAt: record.lastUsedAt ?? null,
    role: storedRole(record.role),
  }));
}

/** One admin token as operators see it, or undefined when no token has this id. */
export async function findAdminToken(database: Database, id: string): Promise<AdminTokenSummary | undefined> {
  return (await listAdminTokens(database, id))[0];
}

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

  /** The id and role of a valid token, or undefined when the token is unknown or revoked. */
  async verify(token: string): Promise<AdminTokenIdentity | undefined> {
    const em = this.database.em.fork();
    const record = await em.findOne(
      AdminTokenRecord,
      { tokenHash: hashAdminToken(token), revokedAt: null },
      { fields: ['id', 'role', 'scopeCustomers', 'scopeGroups'] },
    );
    if (!record) return undefined;
    await this.#noteUse(record.id);
    return { tokenId: record.id, role: storedRole(record.role), scope: scopeFromColumns(record.scopeCustomers, record.scopeGroups) };
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
