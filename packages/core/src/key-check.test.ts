import { describe, expect, it } from 'vitest';
import { checkKey, type KeyCheckContext } from './key-check.js';
import { InMemoryKeyStore } from './memory-stores.js';
import type { AuditRateLimiter, RateLimitDecision } from './rate-limit.js';
import type { KeyStore } from './stores.js';
import { DependencyUnavailableError } from './unavailable.js';

const VALID_KEY = 'deadbeef-0000-0000-0000-000000000001';
const REVOKED_KEY = 'deadbeef-0000-0000-0000-00000000dead';
const ADDRESS = '192.0.2.7';

/** Remembers every call; the per-key decision is whatever the test sets. */
class RecordingLimiter implements AuditRateLimiter {
  readonly calls: string[] = [];
  keyDecision: RateLimitDecision = { allowed: true };
  async consumeRequest(address: string): Promise<RateLimitDecision> {
    this.calls.push(`request ${address}`);
    return { allowed: true };
  }
  async consumeKey(keyId: string): Promise<RateLimitDecision> {
    this.calls.push(`key ${keyId}`);
    return this.keyDecision;
  }
  async recordFailure(address: string): Promise<void> {
    this.calls.push(`failure ${address}`);
  }
}

function setUp(keyStore?: KeyStore): KeyCheckContext & { rateLimiter: RecordingLimiter } {
  const keys = new InMemoryKeyStore();
  keys.add(VALID_KEY, 'valid-key');
  keys.revoke(keys.add(REVOKED_KEY, 'revoked-key'));
  return { keyStore: keyStore ?? keys, rateLimiter: new RecordingLimiter() };
}

describe('checkKey', () => {
  it('passes a valid key and counts the request against that key, not a failure', async () => {
    const context = setUp();
    await expect(checkKey(context, VALID_KEY, ADDRESS)).resolves.toEqual({ state: 'valid', keyId: 'valid-key' });
    expect(context.rateLimiter.calls).toEqual(['key valid-key']);
  });

  it.each([
    ['an unknown key', 'deadbeef-0000-0000-0000-000000000002', 'unknown'],
    ['a revoked key', REVOKED_KEY, 'revoked-key'],
    ['an empty key', '', 'unknown'],
    ['no key', undefined, 'unknown'],
  ])('refuses %s and counts one failure against the address', async (_name, key, keyId) => {
    const context = setUp();
    await expect(checkKey(context, key, ADDRESS)).resolves.toEqual({ state: 'refused', keyId });
    expect(context.rateLimiter.calls).toEqual([`failure ${ADDRESS}`]);
  });

  it('counts no failure when the client address is unknown', async () => {
    const context = setUp();
    await expect(checkKey(context, REVOKED_KEY, undefined)).resolves.toMatchObject({ state: 'refused' });
    expect(context.rateLimiter.calls).toEqual([]);
  });

  it('never counts a failure when the key store fails: the key may be fine', async () => {
    const context = setUp({ lookup: () => Promise.reject(new Error('connection refused')) });
    const check = checkKey(context, VALID_KEY, ADDRESS);
    await expect(check).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(check).rejects.toMatchObject({ dependency: 'key store' });
    expect(context.rateLimiter.calls).toEqual([]);
  });

  it('says a valid key over its own limit is limited, with the wait', async () => {
    const context = setUp();
    context.rateLimiter.keyDecision = { allowed: false, retryAfterSeconds: 42 };
    await expect(checkKey(context, VALID_KEY, ADDRESS)).resolves.toEqual({ state: 'limited', keyId: 'valid-key', retryAfterSeconds: 42 });
    expect(context.rateLimiter.calls).toEqual(['key valid-key']);
  });

  it('checks keys without any rate limiter', async () => {
    const { keyStore } = setUp();
    await expect(checkKey({ keyStore }, VALID_KEY, ADDRESS)).resolves.toEqual({ state: 'valid', keyId: 'valid-key' });
    await expect(checkKey({ keyStore }, REVOKED_KEY, ADDRESS)).resolves.toEqual({ state: 'refused', keyId: 'revoked-key' });
  });
});
