import { DIALECTS } from './dialects.js';

/** Seconds a client is told to wait (`Retry-After`) when the database is unavailable; as core's for its stores. */
export const DATABASE_RETRY_AFTER_SECONDS = 10;

/** Socket errors of a database server that is down or unreachable. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What the pg driver and knex's pool say when a connection dies or cannot be had (these errors carry no code). */
const LOST_CONNECTION = /Connection terminated|connection error and is not queryable|Timeout acquiring a connection|Unable to acquire a connection/i;

/**
 * Tells an error that means the database is unavailable right now (down, unreachable, full, read-only), as opposed
 * to a fault of the request or of the code. Looks through `cause` chains, as the ORM wraps driver errors.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (hasDriverCode(error, (code) => NETWORK_CODES.has(code) || DIALECTS.some((dialect) => dialect.isUnavailableCode(code)))) return true;
  for (const current of causesOf(error)) {
    if (current.name === 'KnexTimeoutError' || LOST_CONNECTION.test(current.message)) return true;
  }
  return false;
}

/** Whether an error or one of its causes carries a driver code that `test` accepts. */
export function hasDriverCode(error: unknown, test: (code: string) => boolean): boolean {
  for (const current of causesOf(error)) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && test(code)) return true;
  }
  return false;
}

/** An error and its `cause` chain, a few deep: the ORM wraps driver errors. */
function* causesOf(error: unknown): Generator<Error> {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) yield current;
}
