import { randomBytes } from 'node:crypto';
import type { Database } from '../database/dialect.js';
import { secretDigest } from '../secrets/secret-digest.js';
import { SessionRecord } from '../database/entities.js';
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './session-limits.js';
import { findUserById, type UserSummary } from './user-records.js';

/** The cookie that carries a session's random id; `__Host-` makes browsers insist on Secure, Path=/ and no Domain. */
export const SESSION_COOKIE = '__Host-audit_session';

/** `last_seen_at` is written at most this often, so that a busy dashboard does not write on every request. */
const TOUCH_INTERVAL_MS = 60_000;
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** People's sessions in the database, so that every instance sharing it accepts them. `now` is injectable for tests. */
export class SessionStore {
  constructor(
    private readonly database: Database,
    readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Starts a session for the account: answers the random id (base64url) the cookie carries. Sessions that have
   * ended unseen (a browser closed without signing out) are deleted on the way, so the table holds live ones only.
   */
  async start(userId: string): Promise<string> {
    const sessionId = randomBytes(32).toString('base64url');
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.limits.maxHours * 3_600_000);
    const em = this.database.em.fork();
    const idleSince = new Date(now.getTime() - this.limits.idleMinutes * 60_000);
    await em.nativeDelete(SessionRecord, { $or: [{ expiresAt: { $lte: now } }, { lastSeenAt: { $lte: idleSince } }] });
    await em.insert(SessionRecord, { id: secretDigest(sessionId), userId, createdAt: now, lastSeenAt: now, expiresAt });
    return sessionId;
  }

  /**
   * The account a session id signs in, or undefined when the id is unknown, idle too long, past its lifetime, or
   * its account disabled; an ended session is deleted when met.
   */
  async resume(sessionId: string): Promise<UserSummary | undefined> {
    if (!SESSION_ID_PATTERN.test(sessionId)) return undefined;
    const em = this.database.em.fork();
    const id = secretDigest(sessionId);
    const session = await em.findOne(SessionRecord, { id });
    if (!session) return undefined;
    const now = this.now().getTime();
    const idleEnd = session.lastSeenAt.getTime() + this.limits.idleMinutes * 60_000;
    const user = now < idleEnd && now < session.expiresAt.getTime() ? await findUserById(this.database, session.userId) : undefined;
    if (!user || user.disabledAt !== null) {
      await em.nativeDelete(SessionRecord, { id });
      return undefined;
    }
    if (now - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) await em.nativeUpdate(SessionRecord, { id }, { lastSeenAt: new Date(now) });
    return user;
  }

  /** Ends the session of this id, if there is one. */
  async end(sessionId: string): Promise<void> {
    await this.database.em.fork().nativeDelete(SessionRecord, { id: secretDigest(sessionId) });
  }

  /** The `Set-Cookie` value that hands a new session's id to the browser, for its whole lifetime. */
  setCookie(sessionId: string): string {
    return `${SESSION_COOKIE}=${sessionId}; Max-Age=${this.limits.maxHours * 3600}; Path=/; HttpOnly; Secure; SameSite=Lax`;
  }
}

/** The `Set-Cookie` value that makes the browser forget the session cookie. */
export const CLEARED_SESSION_COOKIE = `${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`;

/** The session id a `Cookie` header carries, if any. */
export const sessionIdFromCookies = (cookieHeader: string | undefined): string | undefined => cookieValue(cookieHeader, SESSION_COOKIE);

/** The value of the cookie `cookieName` in a `Cookie` header, if it has one. */
export function cookieValue(cookieHeader: string | undefined, cookieName: string): string | undefined {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = pair.trim().split('=');
    if (name === cookieName) return value.join('=');
  }
  return undefined;
}
