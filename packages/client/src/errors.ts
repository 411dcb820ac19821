/** Why a request failed, as a stable code a caller can branch on (the CLI maps each to an exit code). */
export type AuditClientErrorCode = 'invalid-key' | 'rejected' | 'too-large' | 'rate-limited' | 'server' | 'network';

/** Base class of every error the client throws about a request; never carries the license key. */
export class AuditClientError extends Error {
  override name = 'AuditClientError';
  constructor(
    readonly code: AuditClientErrorCode,
    message: string,
    /** The HTTP status, when the server answered. */
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The server refused the license key (unknown, revoked, missing or empty). */
export class InvalidKeyError extends AuditClientError {
  override name = 'InvalidKeyError';
  constructor(status: number) {
    super('invalid-key', 'The server refused the license key (unknown, revoked or empty)', status);
  }
}

/** The server refused the request itself (400, 415, 422); `reason` is the server's one-line explanation. */
export class RequestRejectedError extends AuditClientError {
  override name = 'RequestRejectedError';
  constructor(
    status: number,
    readonly reason: string,
  ) {
    super('rejected', `The server rejected the request (${status}): ${reason}`, status);
  }
}

/** The request body was over the server's size limit (413). */
export class TooLargeError extends AuditClientError {
  override name = 'TooLargeError';
  constructor(readonly reason: string) {
    super('too-large', `The server refused the request as too large (413): ${reason}`, 413);
  }
}

/** The server is rate limiting this client (429); wait `retryAfterSeconds` (when it said) before trying again. */
export class RateLimitedError extends AuditClientError {
  override name = 'RateLimitedError';
  constructor(readonly retryAfterSeconds: number | undefined) {
    super(
      'rate-limited',
      `The server is rate limiting requests (429)${retryAfterSeconds === undefined ? '' : `; retry after ${retryAfterSeconds} s`}`,
      429,
    );
  }
}

/** The server answered something the contract does not describe (5xx, an unknown status or text). */
export class ServerError extends AuditClientError {
  override name = 'ServerError';
  constructor(status: number, detail: string) {
    super('server', `Unexpected answer from the server (${status}): ${detail}`, status);
  }
}

/** No answer at all: connection refused, TLS verification failed, timeout. */
export class NetworkError extends AuditClientError {
  override name = 'NetworkError';
  constructor(message: string, cause: unknown) {
    super('network', message, undefined, { cause });
  }
}
