import { ALLOWED, type RateLimitDecision } from '@org/audit-server-core';
import type { ClosableRateLimiter } from '../http/rate-limiter-store.js';

/** How many failed sign-ins lock an account or an address out, and for how long they count. */
export interface SignInLimits {
  /** Failures per window for one email, known or not: an account under attack stays locked whatever the attacker's address. */
  failuresPerAccount: number;
  /** Failures per window from one client address, whatever the email: one address guessing across many accounts. */
  failuresPerAddress: number;
  windowSeconds: number;
}

/**
 * 10 guesses per account in 15 minutes is some 1,000 a day, nothing against a 12-character password; an address
 * gets more, since an office behind one address has many people mistyping.
 */
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { failuresPerAccount: 10, failuresPerAddress: 50, windowSeconds: 15 * 60 };

/** Who is signing in: the email as typed and the client address. */
export interface SignInAttempt {
  email: string;
  address: string;
}

export interface SignInLockout {
  /** Refused (with a retry-after) while the account or the address is locked out: then the password is not even checked. */
  checkSignInAllowed(attempt: SignInAttempt): Promise<RateLimitDecision>;
  /** Counts a failed sign-in against the account and the address; refused when this failure locked either out. */
  recordSignInFailure(attempt: SignInAttempt): Promise<RateLimitDecision>;
  /** Forgets the account's failures after a successful sign-in (the address's keep counting). */
  recordSignInSuccess(attempt: SignInAttempt): Promise<void>;
}

/**
 * The lockout against guessing passwords, on the server's rate limiter: counted in Redis when one is configured
 * (so every instance sees the same counts), in memory otherwise.
 */
export function createSignInLockout(rateLimiter: Pick<ClosableRateLimiter, 'lockout'>, limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS): SignInLockout {
  const perAccount = rateLimiter.lockout('sign-in-account', limits.failuresPerAccount, limits.windowSeconds);
  const perAddress = rateLimiter.lockout('sign-in-address', limits.failuresPerAddress, limits.windowSeconds);
  // Emails are compared as stored (lowercased), so that changing the case of an email does not reset its count.
  const accountOf = (attempt: SignInAttempt) => attempt.email.trim().toLowerCase();
  return {
    async checkSignInAllowed(attempt) {
      return longestWait([await perAccount.check(accountOf(attempt)), await perAddress.check(attempt.address)]);
    },
    async recordSignInFailure(attempt) {
      return longestWait([await perAccount.record(accountOf(attempt)), await perAddress.record(attempt.address)]);
    },
    async recordSignInSuccess(attempt) {
      await perAccount.clear(accountOf(attempt));
    },
  };
}

/** Allowed when every decision allows; otherwise the refusal with the longest wait. */
function longestWait(decisions: RateLimitDecision[]): RateLimitDecision {
  let longest = ALLOWED;
  for (const decision of decisions) {
    if (!decision.allowed && (longest.allowed || decision.retryAfterSeconds > longest.retryAfterSeconds)) longest = decision;
  }
  return longest;
}
