/** Seconds a client is told to wait (`Retry-After`) when the database is unavailable; as core's for its stores. */
export const DATABASE_RETRY_AFTER_SECONDS = 10;

/** Socket errors of a database server that is down or unreachable. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLite result codes of a full disk, an I/O error, a locked or read-only database. */
const SQLITE_CODES = new Set(['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_NOMEM']);
/**
 * PostgreSQL SQLSTATE classes and codes of a server that cannot serve now: 08 connection exception, 53 insufficient
 * resources (53100 disk full), 57P01–57P03 shutting down or starting, 58 system error, 25006 read-only (a standby).
 */
const POSTGRES_STATE = /^(08|53|58|57P0[123]$|25006$)/;
/** What the pg driver and knex's pool say when a connection dies or cannot be had (these errors carry no code). */
const LOST_CONNECTION = /Connection terminated|connection error and is not queryable|Timeout acquiring a connection|Unable to acquire a connection/i;

/**
 * Tells an error that means the database is unavailable right now (down, unreachable, full, read-only), as opposed
 * to a fault of the request or of the code. Looks through `cause` chains, as the ORM wraps driver errors.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLITE_CODES.has(code) || POSTGRES_STATE.test(code))) return true;
    if (current.name === 'KnexTimeoutError' || LOST_CONNECTION.test(current.message)) return true;
  }
  return false;
}
