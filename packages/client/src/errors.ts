import type { Problem } from './generated/types.gen.js';

/** Why a request failed, as a stable code a caller can branch on (the CLI maps each to an exit code). */
export type AuditClientErrorCode =
  'invalid-key' | 'invalid-token' | 'not-found' | 'conflict' | 'rejected' | 'too-large' | 'rate-limited' | 'unavailable' | 'server' | 'network';

/** Base class of every error the clients throw about a request; never carries a license key or admin token. */
export class AuditClientError extends Error {
  override name = 'AuditClientError';
  /** The server's RFC 9457 problem details (`type`, `title`, `status`, `detail`), when it answered with them. */
  readonly problem?: Problem;
  constructor(
    readonly code: AuditClientErrorCode,
    message: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    options?: ErrorOptions & { problem?: Problem },
  ) {
    super(message, options);
    if (options?.problem) this.problem = options.problem;
  }
}

/** The server refused the license key (unknown, revoked, missing or empty). */
export class InvalidKeyError extends AuditClientError {
  override name = 'InvalidKeyError';
  constructor(status: number) {
    super('invalid-key', 'The server refused the license key (unknown, revoked or empty)', status);
  }
}

/** The admin API refused the admin token (401: none, unknown or revoked). */
export class InvalidAdminTokenError extends AuditClientError {
  override name = 'InvalidAdminTokenError';
  constructor(problem?: Problem) {
    super('invalid-token', 'The server refused the admin token (401: missing, unknown or revoked)', 401, { problem });
  }
}

/** Nothing on the server has the id asked for (404); the problem's `detail` says what was looked for. */
export class NotFoundError extends AuditClientError {
  override name = 'NotFoundError';
  constructor(
    readonly reason: string,
    problem?: Problem,
  ) {
    super('not-found', `Not found (404): ${reason}`, 404, { problem });
  }
}

/** The request conflicts with the current state (409), e.g. rotating a key that is already revoked. */
export class ConflictError extends AuditClientError {
  override name = 'ConflictError';
  constructor(
    readonly reason: string,
    problem?: Problem,
  ) {
    super('conflict', `The server refused the request as conflicting with the current state (409): ${reason}`, 409, { problem });
  }
}

/** The server refused the request itself (400, 415, 422); `reason` is the server's one-line explanation. */
export class RequestRejectedError extends AuditClientError {
  override name = 'RequestRejectedError';
  constructor(
    status: number,
    readonly reason: string,
    problem?: Problem,
  ) {
    super('rejected', `The server rejected the request (${status}): ${reason}`, status, { problem });
  }
}

/** The request body was over the server's size limit (413). */
export class TooLargeError extends AuditClientError {
  override name = 'TooLargeError';
  constructor(
    readonly reason: string,
    problem?: Problem,
  ) {
    super('too-large', `The server refused the request as too large (413): ${reason}`, 413, { problem });
  }
}

/** The server is rate limiting this client (429); wait `retryAfterSeconds` (when it said) before trying again. */
export class RateLimitedError extends AuditClientError {
  override name = 'RateLimitedError';
  constructor(
    readonly retryAfterSeconds: number | undefined,
    problem?: Problem,
  ) {
    super('rate-limited', `The server is rate limiting requests (429)${retryAfterSeconds === undefined ? '' : `; retry after ${retryAfterSeconds} s`}`, 429, {
      problem,
    });
  }
}

/**
 * The server cannot take the request now (503): its intake is full, or its database is unavailable. The client
 * is not at fault; wait `retryAfterSeconds` (when it said) before trying again.
 */
export class ServiceUnavailableError extends AuditClientError {
  override name = 'ServiceUnavailableError';
  constructor(
    readonly retryAfterSeconds: number | undefined,
    reason: string,
    problem?: Problem,
  ) {
    super(
      'unavailable',
      `The server cannot take the request now (503): ${reason}${retryAfterSeconds === undefined ? '' : `; retry after ${retryAfterSeconds} s`}`,
      503,
      { problem },
    );
  }
}

/** The server answered something the contract does not describe (5xx, an unknown status or text). */
export class ServerError extends AuditClientError {
  override name = 'ServerError';
  constructor(status: number, detail: string, problem?: Problem) {
    super('server', `Unexpected answer from the server (${status}): ${detail}`, status, { problem });
  }
}

/** No answer at all: connection refused, TLS verification failed, timeout. */
export class NetworkError extends AuditClientError {
  override name = 'NetworkError';
  constructor(message: string, cause: unknown) {
    super('network', message, undefined, { cause });
  }
}
