import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redisUrl } from '@org/test-support/redis';
import { createRateLimiter, type ClosableRateLimiter, type RateLimitSettings } from '../http/rate-limiter-store.js';
import { createSignInLockout, DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './sign-in-lockout.js';

const OFF: RateLimitSettings = { perAddressPerMinute: 0, perKeyPerMinute: 0, failuresPer10Minutes: 0, redisPrefix: 'unused' };
const LIMITS: SignInLimits = { failuresPerAccount: 3, failuresPerAddress: 5, windowSeconds: 900 };
const ada = { email: 'ada@example.org', address: '192.0.2.1' };

/** A limiter in memory, or in Redis under a prefix of its own (no other test's counts). */
const limiterIn = async (store: 'memory' | 'redis', prefix = `audit-test-${randomUUID()}`): Promise<ClosableRateLimiter> =>
  createRateLimiter(store === 'memory' ? OFF : { ...OFF, redisUrl: redisUrl(), redisPrefix: prefix });

describe.each(['memory', 'redis'] as const)('the sign-in lockout, counted in %s', (store) => {
  it('locks an account out after its failures, from any address, with a retry-after of at most the window', async () => {
    const limiter = await limiterIn(store);
    try {
      const lockout = createSignInLockout(limiter, LIMITS);
      expect(await lockout.recordSignInFailure(ada)).toEqual({ allowed: true });
      expect(await lockout.recordSignInFailure({ ...ada, address: '192.0.2.2' })).toEqual({ allowed: true });
      expect(await lockout.checkSignInAllowed(ada)).toEqual({ allowed: true });
      const locking = await lockout.recordSignInFailure({ email: 'ADA@example.org', address: '192.0.2.3' }); // the same account
      expect(locking).toMatchObject({ allowed: false });
      const refused = await lockout.checkSignInAllowed({ ...ada, address: '198.51.100.7' });
      expect(refused).toMatchObject({ allowed: false });
      expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThan(LIMITS.windowSeconds - 10);
      expect(refused.allowed === false && refused.retryAfterSeconds).toBeLessThanOrEqual(LIMITS.windowSeconds);
      expect(await lockout.checkSignInAllowed({ email: 'bob@example.org', address: ada.address })).toEqual({ allowed: true });
    } finally {
      await limiter.close();
    }
  });

  it('locks an address out after failures across many accounts, other addresses still allowed', async () => {
    const limiter = await limiterIn(store);
    try {
      const lockout = createSignInLockout(limiter, LIMITS);
      for (let i = 0; i < LIMITS.failuresPerAddress; i++) await lockout.recordSignInFailure({ email: `user${i}@example.org`, address: ada.address });
      expect(await lockout.checkSignInAllowed({ email: 'new@example.org', address: ada.address })).toMatchObject({ allowed: false });
      expect(await lockout.checkSignInAllowed({ email: 'new@example.org', address: '192.0.2.99' })).toEqual({ allowed: true });
    } finally {
      await limiter.close();
    }
  });

  it("forgets an account's failures after a success, not the address's", async () => {
    const limiter = await limiterIn(store);
    try {
      const lockout = createSignInLockout(limiter, { ...LIMITS, failuresPerAddress: 4 });
      for (let i = 0; i < 2; i++) await lockout.recordSignInFailure(ada);
      await lockout.recordSignInSuccess(ada);
      expect(await lockout.recordSignInFailure(ada)).toEqual({ allowed: true }); // 1 of 3 for the account again
      expect(await lockout.recordSignInFailure(ada)).toMatchObject({ allowed: false }); // 4 of 4 for the address
    } finally {
      await limiter.close();
    }
  });
});

describe('the sign-in lockout in Redis', () => {
  it('is shared by every server on the same Redis', async () => {
    const prefix = `audit-test-${randomUUID()}`;
    const [a, b] = [await limiterIn('redis', prefix), await limiterIn('redis', prefix)];
    try {
      const [onA, onB] = [createSignInLockout(a, LIMITS), createSignInLockout(b, LIMITS)];
      await onA.recordSignInFailure(ada);
      await onB.recordSignInFailure(ada);
      expect(await onA.checkSignInAllowed(ada)).toEqual({ allowed: true });
      await onA.recordSignInFailure(ada);
      expect(await onB.checkSignInAllowed(ada)).toMatchObject({ allowed: false });
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('the default sign-in limits', () => {
  it('are 10 failures per account in 15 minutes, and more per address', async () => {
    expect(DEFAULT_SIGN_IN_LIMITS).toMatchObject({ failuresPerAccount: 10, windowSeconds: 900 });
    const limiter = await limiterIn('memory');
    const lockout = createSignInLockout(limiter);
    for (let i = 0; i < 9; i++) expect(await lockout.recordSignInFailure(ada)).toEqual({ allowed: true });
    expect(await lockout.recordSignInFailure(ada)).toMatchObject({ allowed: false });
    await limiter.close();
  });
});
