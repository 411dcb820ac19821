/** The outcome of counting one request against a limit. */
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Request limits the handlers apply; the host builds one over the store it likes (memory, Redis, …).
 * Core only asks; counting and sharing between instances is the implementation's business.
 */
export interface AuditRateLimiter {
  /** Counts a request from a client address before its body is read; refuses it too after too many failed key checks. */
  consumeRequest(clientAddress: string): Promise<RateLimitDecision>;
  /** Counts a request that came with a valid key. */
  consumeKey(keyId: string): Promise<RateLimitDecision>;
  /** Counts a failed key check (unknown, revoked, missing or empty key) against a client address. */
  recordFailure(clientAddress: string): Promise<void>;
}

/** Allowed, for the common case. */
export const ALLOWED: RateLimitDecision = { allowed: true };
