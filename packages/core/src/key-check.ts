import { ALLOWED, type AuditRateLimiter } from './rate-limit.js';
import { rejectRequest, type RejectionContext, type RequestInfo } from './reject-request.js';
import { tooManyRequests, type AuditResponse } from './responses.js';
import type { KeyLookup, KeyStore } from './stores.js';
import { callDependency } from './unavailable.js';

/** What checking a key needs: the store, and the limiter that counts failures and requests per key. */
export interface KeyCheckContext {
  keyStore: KeyStore;
  rateLimiter?: AuditRateLimiter;
}

/** The outcome of checking a request's key, with the failure and per-key limits applied. */
export type KeyCheck =
  | { state: 'valid'; keyId: string; enrollmentId?: string }
  | { state: 'refused'; keyId: string }
  | { state: 'limited'; keyId: string; retryAfterSeconds: number };

/**
 * Looks a key up (none when missing or malformed), counts a failure against the client, or the request against
 * the key. A store or limiter that fails throws a `DependencyUnavailableError` and counts nothing.
 */
export async function checkKey(context: KeyCheckContext, licenseKey: string | undefined, remoteAddress: string | undefined): Promise<KeyCheck> {
  const { keyStore, rateLimiter } = context;
  const lookup = licenseKey ? await callDependency('key store', () => keyStore.lookup(licenseKey)) : undefined;
  if (lookup?.state !== 'valid') {
    await recordKeyFailure(context, remoteAddress);
    return { state: 'refused', keyId: keyIdOf(lookup) };
  }
  const decision = rateLimiter ? await callDependency('rate limiter', () => rateLimiter.consumeKey(lookup.keyId)) : ALLOWED;
  if (!decision.allowed) return { state: 'limited', keyId: lookup.keyId, retryAfterSeconds: decision.retryAfterSeconds };
  return lookup.enrollmentId === undefined
    ? { state: 'valid', keyId: lookup.keyId }
    : { state: 'valid', keyId: lookup.keyId, enrollmentId: lookup.enrollmentId };
}

/** Counts a failed key check against the client, for the brute-force limit; only when its address is known. */
export async function recordKeyFailure(context: Pick<KeyCheckContext, 'rateLimiter'>, remoteAddress: string | undefined): Promise<void> {
  const { rateLimiter } = context;
  if (rateLimiter && remoteAddress) await callDependency('rate limiter', () => rateLimiter.recordFailure(remoteAddress));
}

/** Answers a request whose key is over its per-key limit. */
export function refuseLimitedKey(
  context: RejectionContext,
  request: RequestInfo,
  key: { keyId: string; retryAfterSeconds: number },
  hostId?: unknown,
): AuditResponse {
  return rejectRequest(context, request, 'rate-limited', { keyId: key.keyId, hostId }, tooManyRequests(key.retryAfterSeconds));
}

/** The key record to name in a log line: never the key itself. */
export function keyIdOf(lookup: KeyLookup | undefined): string {
  return lookup && lookup.state !== 'unknown' ? lookup.keyId : 'unknown';
}
