import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApp } from '../http/app.js';
import { openDatabase, type Database } from '../database/open.js';
import { createRateLimiter, type ClosableRateLimiter } from '../http/rate-limiter-store.js';
import { addUserWithPassword } from '../people/user-commands.js';
import { setUserDisabled, setUserRole } from '../people/user-records.js';
import { createSignInLockout } from '../people/sign-in-lockout.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createAdminApi } from './api.js';

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'ada@example.org';
const MINUTE = 60_000;
const COOKIE_PATTERN = /^__Host-audit_session=([A-Za-z0-9_-]{43}); Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Lax$/;

describe.each(DIALECTS)('people signing in on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let server: Server;
  let url: string;
  let rateLimiter: ClosableRateLimiter;
  let clock: number;
  let logs: string[];

  beforeEach(async () => {
    database = await openDatabase(location.location);
    await addUserWithPassword(database, { email: EMAIL, role: 'admin', name: 'Ada Lovelace' }, PASSWORD);
    rateLimiter = await createRateLimiter({ perAddressPerMinute: 0, perKeyPerMinute: 0, failuresPer10Minutes: 0, redisPrefix: 'test' });
    clock = Date.parse('2026-01-05T09:00:00Z');
    logs = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void (logs.push(String(chunk)), done()) }));
    const admin = await createAdminApi({ database, rateLimiter, logger, signInLockout: createSignInLockout(rateLimiter), now: () => new Date(clock) });
    // Behind a proxy on loopback, as a TLS-terminating proxy with --trust-proxy would be.
    server = createServer(createAdminApp(admin, logger, { trustProxy: 'loopback' }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server?.close();
    server?.closeAllConnections();
    await rateLimiter?.close();
    await database.close();
  });

  const signIn = (email = EMAIL, password = PASSWORD, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/admin/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email, password }),
    });
  /** Signs in and answers the session id the cookie carries. */
  async function signedIn(): Promise<string> {
    const response = await signIn();
    expect(response.status).toBe(204);
    return COOKIE_PATTERN.exec(response.headers.get('set-cookie') ?? '')![1]!;
  }
  const withCookie = (sessionId: string, headers: Record<string, string> = {}) => ({ cookie: `theme=dark; __Host-audit_session=${sessionId}`, ...headers });
  const whoAmI = (sessionId: string) => fetch(`${url}/api/admin/session`, { headers: withCookie(sessionId) });
  const createKey = (headers: Record<string, string>) =>
    fetch(`${url}/api/admin/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ label: 'from a session' }),
    });

  it('signs in with a Secure, HttpOnly, SameSite=Lax host cookie and says who is signed in', async () => {
    const response = await signIn(' ADA@example.org ');
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(COOKIE_PATTERN);
    const sessionId = COOKIE_PATTERN.exec(response.headers.get('set-cookie')!)![1]!;
    const session = await whoAmI(sessionId);
    expect(session.status).toBe(200);
    expect(await session.json()).toEqual({
      kind: 'user',
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: EMAIL,
      displayName: 'Ada Lovelace',
      role: 'admin',
      scope: { customers: [], groups: [] },
    });
  });

  it('stores only the hash of the session id, and logs neither it nor the password', async () => {
    expect((await signIn(EMAIL, 'a wrong password')).status).toBe(401);
    const sessionId = await signedIn();
    expect((await whoAmI(sessionId)).status).toBe(200);
    expect(logs.join('\n')).toContain('signed in');
    for (const secret of [sessionId, PASSWORD, 'a wrong password']) expect(logs.join('\n')).not.toContain(secret);
    const rows = await database.em.getConnection().execute<{ id: string }[]>('select * from user_session');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(createHash('sha256').update(sessionId).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(sessionId);
  });

  it('answers the same 401 for an unknown email, a wrong password and a disabled account', async () => {
    await addUserWithPassword(database, { email: 'gone@example.org', role: 'viewer' }, PASSWORD);
    await setUserDisabled(database, 'gone@example.org', true);
    for (const [email, password] of [
      ['nobody@example.org', PASSWORD],
      [EMAIL, 'not the password'],
      ['gone@example.org', PASSWORD],
    ] as const) {
      const response = await signIn(email, password);
      expect(response.status).toBe(401);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.json()).toMatchObject({ status: 401, detail: 'Invalid credentials' });
    }
    expect((await signIn(EMAIL, '')).status).toBe(400);
  });

  it('ends a session left idle, and one past its lifetime however busy', async () => {
    const idle = await signedIn();
    clock += 31 * MINUTE;
    const busy = await signedIn();
    // The idle session, unseen since it ended, went when the next one started.
    expect(await database.em.getConnection().execute('select id from user_session')).toHaveLength(1);
    expect((await whoAmI(idle)).status).toBe(401);
    for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
      clock += 20 * MINUTE;
      expect((await whoAmI(busy)).status, `after ${elapsed + 20} minutes`).toBe(200);
    }
    clock += 20 * MINUTE;
    const ended = await whoAmI(busy);
    expect(ended.status).toBe(401);
    expect(await ended.json()).toMatchObject({ detail: 'The session has ended; sign in again' });
  });

  it('signs out: the cookie is cleared and the old id refused', async () => {
    const sessionId = await signedIn();
    const response = await fetch(`${url}/api/admin/session`, { method: 'DELETE', headers: withCookie(sessionId, { origin: url }) });
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toBe('__Host-audit_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax');
    expect((await whoAmI(sessionId)).status).toBe(401);
  });

  it("ends the account's sessions when its role changes or it is disabled", async () => {
    const first = await signedIn();
    // Another admin first: the last one cannot be demoted.
    await addUserWithPassword(database, { email: 'grace@example.org', role: 'admin' }, PASSWORD);
    await setUserRole(database, EMAIL, 'viewer');
    expect((await whoAmI(first)).status).toBe(401);
    const second = await signedIn();
    expect(await (await whoAmI(second)).json()).toMatchObject({ role: 'viewer' });
    const refused = await createKey(withCookie(second, { origin: url }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      code: 'forbidden',
      role: 'viewer',
      requiredRole: 'admin',
      detail: 'This operation requires the admin role; your account has the viewer role',
    });
    await setUserDisabled(database, EMAIL, true);
    expect((await whoAmI(second)).status).toBe(401);
  });

  it('refuses a change a cookie authorises unless it comes from this origin; bearer tokens need no Origin', async () => {
    const sessionId = await signedIn();
    const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, {}, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of foreign) {
      const refused = await createKey(withCookie(sessionId, headers));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'forbidden', detail: expect.stringContaining('CSRF') });
    }
    expect((await createKey(withCookie(sessionId, { origin: url }))).status).toBe(201);
    expect((await createKey(withCookie(sessionId, { 'sec-fetch-site': 'same-origin' }))).status).toBe(201);
    const { token } = await createAdminToken(database, { label: 'tests' });
    expect((await createKey({ authorization: `Bearer ${token}` })).status).toBe(201);
    // Reading needs no proof of origin, and signing in from another site's page is refused.
    expect((await fetch(`${url}/api/admin/keys`, { headers: withCookie(sessionId, { origin: 'https://evil.example' }) })).status).toBe(200);
    expect((await signIn(EMAIL, PASSWORD, { origin: 'https://evil.example' })).status).toBe(403);
  });

  it("takes the origin a trusted proxy names (X-Forwarded-Proto and -Host) as the server's own", async () => {
    const sessionId = await signedIn();
    const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'audit.example.org' };
    expect((await createKey(withCookie(sessionId, { ...proxied, origin: 'https://audit.example.org' }))).status).toBe(201);
    expect((await createKey(withCookie(sessionId, { ...proxied, origin: url }))).status).toBe(403);
  });

  it('locks the account after repeated wrong passwords, and the right one does not get in while locked', async () => {
    const answers: number[] = [];
    for (let attempt = 0; attempt < 20; attempt++) answers.push((await signIn(EMAIL, `wrong password ${attempt}`)).status);
    expect(answers.at(0)).toBe(401);
    expect(answers.at(-1)).toBe(429);
    const locked = await signIn();
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.headers.get('set-cookie')).toBeNull();
  });
});
