import { randomBytes } from 'node:crypto';
import type { Database } from '../database/dialect.js';
import { secretDigest } from '../secrets/secret-digest.js';
import { SsoAttemptRecord } from '../database/entities.js';

/** The cookie that binds a sign-in attempt to the browser that started it; `__Host-`: Secure, Path=/, no Domain. */
export const SSO_COOKIE = '__Host-audit_sso';

/** How long someone has at the provider before the attempt is forgotten. */
export const SSO_ATTEMPT_SECONDS = 600;

const ATTEMPT_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What the callback needs to check the provider's answer: kept on the server, never in the browser. */
export interface SsoAttempt {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The redirect URL sent to the provider: the code exchange must name the same. */
  redirectUrl: string;
}

/**
 * Pending single sign-on attempts in the database, so that the provider may send the browser back to any instance
 * sharing it. Each is used once, and only for {@link SSO_ATTEMPT_SECONDS}. `now` is injectable for tests.
 */
export class SsoAttemptStore {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Keeps an attempt: answers the random id (base64url) the cookie carries. Attempts past their time are deleted on the way. */
  async begin(attempt: SsoAttempt): Promise<string> {
    const attemptId = randomBytes(32).toString('base64url');
    const now = this.now();
    const em = this.database.em.fork();
    await em.nativeDelete(SsoAttemptRecord, { createdAt: { $lte: this.oldestLive(now) } });
    await em.insert(SsoAttemptRecord, { id: secretDigest(attemptId), ...attempt, createdAt: now });
    return attemptId;
  }

  /**
   * The attempt of this id, deleted as it is read, so that a second use (a replayed callback) finds nothing;
   * undefined for an unknown, used or expired id. Of two requests racing with the same id, only one gets it.
   */
  async take(attemptId: string | undefined): Promise<SsoAttempt | undefined> {
    if (attemptId === undefined || !ATTEMPT_ID_PATTERN.test(attemptId)) return undefined;
    const em = this.database.em.fork();
    const id = secretDigest(attemptId);
    const record = await em.findOne(SsoAttemptRecord, { id });
    if (!record) return undefined;
    const deleted = await em.nativeDelete(SsoAttemptRecord, { id });
    if (deleted !== 1 || record.createdAt <= this.oldestLive(this.now())) return undefined;
    return { state: record.state, nonce: record.nonce, codeVerifier: record.codeVerifier, redirectUrl: record.redirectUrl };
  }

  private oldestLive(now: Date): Date {
    return new Date(now.getTime() - SSO_ATTEMPT_SECONDS * 1000);
  }
}

/** The `Set-Cookie` value that hands an attempt's id to the browser for the attempt's lifetime. */
export const ssoAttemptCookie = (attemptId: string): string =>
  `${SSO_COOKIE}=${attemptId}; Max-Age=${SSO_ATTEMPT_SECONDS}; Path=/; HttpOnly; Secure; SameSite=Lax`;

/** The `Set-Cookie` value that makes the browser forget the attempt's cookie. */
export const CLEARED_SSO_COOKIE = `${SSO_COOKIE}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`;
