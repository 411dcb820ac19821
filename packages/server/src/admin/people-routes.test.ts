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
import { createSignInLockout } from '../people/sign-in-lockout.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import type { AdminSession, AdminTokenList, NewAdminToken, PersonList, User, UserList } from '../generated/types.gen.js';
import { createAdminApi } from './api.js';

type Problem = { status: number; detail: string };

const PASSWORD = 'correct horse battery staple';
const ADMIN = 'ada@example.org';
const COOKIE_PATTERN = /__Host-audit_session=([A-Za-z0-9_-]{43});/;
const UNSCOPED = { customers: [], groups: [] };

describe.each(DIALECTS)('people and their tokens through the admin API on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let server: Server;
  let url: string;
  let rateLimiter: ClosableRateLimiter;
  let logs: string[];
  let adminCookie: string;

  beforeEach(async () => {
    database = await openDatabase(location.location);
    await addUserWithPassword(database, { email: ADMIN, role: 'admin', name: 'Ada Lovelace' }, PASSWORD);
    rateLimiter = await createRateLimiter({ perAddressPerMinute: 0, perKeyPerMinute: 0, failuresPer10Minutes: 0, redisPrefix: 'test' });
    logs = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void (logs.push(String(chunk)), done()) }));
    const admin = await createAdminApi({ database, rateLimiter, logger, signInLockout: createSignInLockout(rateLimiter) });
    server = createServer(createAdminApp(admin, logger, {}));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    adminCookie = await signIn(ADMIN);
  });
  afterEach(async () => {
    server?.close();
    server?.closeAllConnections();
    await rateLimiter?.close();
    await database.close();
  });

  /** Signs in and answers the `Cookie` header that carries the session. */
  async function signIn(email: string, password = PASSWORD): Promise<string> {
    const response = await fetch(`${url}/api/admin/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(response.status, `signing in as ${email}`).toBe(204);
    return `__Host-audit_session=${COOKIE_PATTERN.exec(response.headers.get('set-cookie') ?? '')![1]!}`;
  }
  /** A request as a person (`cookie`) or a token (`adm_…`); changes carry the server's own origin. */
  const call = (as: string, method: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: {
        ...(as.startsWith('adm_') ? { authorization: `Bearer ${as}` } : { cookie: as, origin: url }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** The JSON answer, once its status is checked; its shape is the assertions' to check. */
  const json = async <T = Problem>(response: Response, status: number): Promise<T> => {
    expect(response.status, await response.clone().text()).toBe(status);
    return (await response.json()) as T;
  };
  const addPerson = (body: Record<string, unknown>) => call(adminCookie, 'POST', '/api/admin/users', body);
  const idOf = async (email: string) =>
    (await json<UserList>(await call(adminCookie, 'GET', '/api/admin/users'), 200)).items.find((user) => user.email === email)!.id;

  it('adds, lists, changes and deletes people; never answers a password or its hash', async () => {
    const grace = await json<User>(
      await addPerson({
        email: 'Grace@Example.org',
        displayName: 'Grace Hopper',
        role: 'operator',
        password: 'a long passphrase',
        scope: { customers: [' acme ', 'acme'], groups: [] },
      }),
      201,
    );
    expect(grace).toEqual({
      id: expect.any(String),
      email: 'grace@example.org',
      displayName: 'Grace Hopper',
      role: 'operator',
      scope: { customers: ['acme'], groups: [] },
      disabled: false,
      signIn: ['password'],
      createdAt: expect.any(String),
      lastSignInAt: null,
    });
    const ssoOnly = await json<User>(await addPerson({ email: 'sso@example.org', role: 'viewer' }), 201);
    expect(ssoOnly).toMatchObject({ signIn: [], scope: UNSCOPED });

    const listed = await json<UserList>(await call(adminCookie, 'GET', '/api/admin/users'), 200);
    expect(listed.items.map((user) => user.email)).toEqual([ADMIN, 'grace@example.org', 'sso@example.org']);
    expect(listed.items[0]).toMatchObject({ role: 'admin', signIn: ['password'], lastSignInAt: expect.any(String) });

    const changed = await json(
      await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, { displayName: null, role: 'viewer', scope: { customers: [], groups: ['web'] } }),
      200,
    );
    expect(changed).toMatchObject({ displayName: null, role: 'viewer', scope: { customers: [], groups: ['web'] } });
    expect(await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, { disabled: true }), 200)).toMatchObject({ disabled: true });

    expect((await call(adminCookie, 'DELETE', `/api/admin/users/${grace.id}`)).status).toBe(204);
    expect((await call(adminCookie, 'DELETE', `/api/admin/users/${grace.id}`)).status).toBe(404);
    expect((await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, { role: 'admin' })).status).toBe(404);

    const everything = [JSON.stringify(listed), JSON.stringify(grace), logs.join('\n')].join('\n');
    for (const secret of ['argon2', 'passwordHash', 'a long passphrase', PASSWORD]) expect(everything).not.toContain(secret);
  });

  it('lists the enabled people by email, with their id, email and name alone, to operators and not to viewers', async () => {
    const password = 'a long passphrase';
    const grace = await json<User>(await addPerson({ email: 'grace@example.org', displayName: 'Grace Hopper', role: 'operator', password }), 201);
    const vera = await json<User>(await addPerson({ email: 'vera@example.org', role: 'viewer', password, scope: { customers: ['acme'], groups: [] } }), 201);
    const gone = await json<User>(await addPerson({ email: 'bob@example.org', displayName: 'Bob', role: 'operator', password }), 201);
    await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${gone.id}`, { disabled: true }), 200);

    const operatorCookie = await signIn('grace@example.org', password);
    const people = await json<PersonList>(await call(operatorCookie, 'GET', '/api/admin/people'), 200);
    expect(people).toEqual({
      items: [
        { id: await idOf(ADMIN), email: ADMIN, name: 'Ada Lovelace' },
        { id: grace.id, email: 'grace@example.org', name: 'Grace Hopper' },
        { id: vera.id, email: 'vera@example.org', name: null },
      ],
    });
    expect(JSON.stringify(people)).not.toMatch(/role|scope|signIn|disabled|password|argon2|acme/);
    // An operator's personal token reads the list as its owner does.
    const token = (await json<NewAdminToken>(await call(operatorCookie, 'POST', '/api/admin/session/tokens', { label: 'picker' }), 201)).adminToken;
    expect(await json<PersonList>(await call(token, 'GET', '/api/admin/people'), 200)).toEqual(people);

    const viewerCookie = await signIn('vera@example.org', password);
    expect(await json(await call(viewerCookie, 'GET', '/api/admin/people'), 403)).toMatchObject({ status: 403 });
  });

  it('refuses a duplicate email (any case) with 409 and a short password with 400', async () => {
    const duplicate = await json<User>(await addPerson({ email: 'ADA@example.org', role: 'viewer', password: 'a long passphrase' }), 409);
    expect(duplicate).toMatchObject({ status: 409, detail: 'A user with email ada@example.org exists already' });
    expect(await json<User>(await addPerson({ email: 'bob@example.org', role: 'viewer', password: 'eleven char' }), 400)).toMatchObject({ status: 400 });
    expect(await json<User>(await addPerson({ email: 'not an email', role: 'viewer' }), 400)).toMatchObject({
      detail: expect.stringContaining('is not an email address'),
    });
    expect((await json<UserList>(await call(adminCookie, 'GET', '/api/admin/users'), 200)).items).toHaveLength(1);
  });

  it('keeps the last enabled admin: not demoted, disabled or deleted (409), through the API and the records alike', async () => {
    const adaId = await idOf(ADMIN);
    for (const [method, body] of [
      ['PATCH', { role: 'operator' }],
      ['PATCH', { disabled: true }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await json(await call(adminCookie, method, `/api/admin/users/${adaId}`, body), 409);
      expect(refused.detail).toMatch(/^The last enabled admin cannot be (demoted|disabled|deleted)/);
    }
    // A disabled admin does not count: it cannot manage the server.
    const other = await json<User>(await addPerson({ email: 'root@example.org', role: 'admin', password: 'a long passphrase' }), 201);
    await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${other.id}`, { disabled: true }), 200);
    expect((await call(adminCookie, 'PATCH', `/api/admin/users/${adaId}`, { role: 'viewer' })).status).toBe(409);
    await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${other.id}`, { disabled: false }), 200);
    expect(await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${adaId}`, { role: 'viewer' }), 200)).toMatchObject({ role: 'viewer' });
  });

  it("ends a person's sessions when the role or scope changes or the account is disabled, not for a new name", async () => {
    const grace = await json<User>(await addPerson({ email: 'grace@example.org', role: 'operator', password: 'a long passphrase' }), 201);
    const whoAmI = (cookie: string) => call(cookie, 'GET', '/api/admin/session');
    for (const change of [{ role: 'viewer' }, { scope: { customers: ['acme'], groups: [] } }, { disabled: true }]) {
      await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, { disabled: false }), 200);
      const cookie = await signIn('grace@example.org', 'a long passphrase');
      await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, { displayName: 'Grace' }), 200);
      expect((await whoAmI(cookie)).status).toBe(200);
      await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, change), 200);
      expect((await whoAmI(cookie)).status, JSON.stringify(change)).toBe(401);
    }
    // The scope a person has is what the session says.
    await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, { disabled: false }), 200);
    const cookie = await signIn('grace@example.org', 'a long passphrase');
    expect(await json<AdminSession>(await whoAmI(cookie), 200)).toMatchObject({
      kind: 'user',
      userId: grace.id,
      role: 'viewer',
      scope: { customers: ['acme'], groups: [] },
    });
  });

  it("caps a personal token at its owner's role, follows the owner's role and scope, and dies with the account", async () => {
    const grace = await json<User>(
      await addPerson({ email: 'grace@example.org', role: 'operator', password: 'a long passphrase', scope: { customers: ['acme'], groups: [] } }),
      201,
    );
    const graceCookie = await signIn('grace@example.org', 'a long passphrase');
    const tooHigh = await json(await call(graceCookie, 'POST', '/api/admin/session/tokens', { label: 'too much', role: 'admin' }), 400);
    expect(tooHigh.detail).toContain('at most its owner');
    const created = await json<NewAdminToken>(await call(graceCookie, 'POST', '/api/admin/session/tokens', { label: 'nightly export' }), 201);
    expect(created.adminToken).toMatch(/^adm_[0-9a-f]{64}$/);
    expect(created.token).toMatchObject({
      kind: 'personal',
      owner: { id: grace.id, email: 'grace@example.org' },
      serviceAccount: null,
      role: 'operator',
      scope: { customers: ['acme'], groups: [] },
      label: 'nightly export',
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    });
    const token = created.adminToken;
    const session = () => call(token, 'GET', '/api/admin/session');
    expect(await json<AdminSession>(await session(), 200)).toMatchObject({
      kind: 'token',
      role: 'operator',
      userId: grace.id,
      scope: { customers: ['acme'], groups: [] },
    });

    // Demoting the owner lowers the token; a new scope is the token's too.
    await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, { role: 'viewer', scope: { customers: [], groups: ['web'] } }), 200);
    expect(await json<AdminSession>(await session(), 200)).toMatchObject({ role: 'viewer', scope: { customers: [], groups: ['web'] } });
    expect((await call(token, 'POST', '/api/admin/waivers', {})).status).toBe(403);
    // Promoting the owner again gives the token back no more than it was given.
    await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, { role: 'admin' }), 200);
    expect(await json<AdminSession>(await session(), 200)).toMatchObject({ role: 'operator' });

    // Disabling the owner kills the token; enabling brings it back; deleting the owner deletes it.
    await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, { disabled: true }), 200);
    expect((await session()).status).toBe(401);
    await json<User>(await call(adminCookie, 'PATCH', `/api/admin/users/${grace.id}`, { disabled: false }), 200);
    expect((await session()).status).toBe(200);
    expect((await call(adminCookie, 'DELETE', `/api/admin/users/${grace.id}`)).status).toBe(204);
    expect((await session()).status).toBe(401);
    expect((await json<AdminTokenList>(await call(adminCookie, 'GET', '/api/admin/tokens'), 200)).items).toEqual([]);
  });

  it("manages one's own tokens only with a session: a token caller gets 409, another's token 404", async () => {
    const created = await json<NewAdminToken>(await call(adminCookie, 'POST', '/api/admin/session/tokens', { label: 'mine', role: 'viewer' }), 201);
    const token = created.adminToken;
    for (const [method, path, body] of [
      ['GET', '/api/admin/session/tokens', undefined],
      ['POST', '/api/admin/session/tokens', { label: 'from a token' }],
      ['POST', `/api/admin/session/tokens/${created.token.id}/revoke`, undefined],
    ] as const) {
      expect(await json(await call(token, method, path, body), 409)).toMatchObject({ detail: expect.stringContaining('Personal tokens belong to people') });
    }
    await json<User>(await addPerson({ email: 'grace@example.org', role: 'viewer', password: 'a long passphrase' }), 201);
    const graceCookie = await signIn('grace@example.org', 'a long passphrase');
    expect((await json<AdminTokenList>(await call(graceCookie, 'GET', '/api/admin/session/tokens'), 200)).items).toEqual([]);
    expect((await call(graceCookie, 'POST', `/api/admin/session/tokens/${created.token.id}/revoke`)).status).toBe(404);
    expect((await call(token, 'GET', '/api/admin/session')).status).toBe(200);

    const second = await json<NewAdminToken>(await call(adminCookie, 'POST', '/api/admin/session/tokens', { label: 'second' }), 201);
    const mine = await json<AdminTokenList>(await call(adminCookie, 'GET', '/api/admin/session/tokens'), 200);
    expect(mine.items.map((item) => item.label)).toEqual(['second', 'mine']);
    expect(second.token.role).toBe('admin');
    expect((await call(adminCookie, 'POST', `/api/admin/session/tokens/${created.token.id}/revoke`)).status).toBe(204);
    expect((await call(adminCookie, 'POST', `/api/admin/session/tokens/${created.token.id}/revoke`)).status).toBe(204);
    expect((await call(token, 'GET', '/api/admin/session')).status).toBe(401);
  });

  it('creates service tokens with a scope and an expiry, lists them, revokes any; stores only the SHA-256', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await json<NewAdminToken>(
      await call(adminCookie, 'POST', '/api/admin/tokens', {
        serviceAccount: 'siem',
        label: 'audit export',
        role: 'viewer',
        scope: { customers: ['acme'], groups: [] },
        expiresAt,
      }),
      201,
    );
    expect(created.token).toMatchObject({
      kind: 'service',
      owner: null,
      serviceAccount: 'siem',
      role: 'viewer',
      scope: { customers: ['acme'], groups: [] },
      expiresAt,
    });
    const token = created.adminToken;
    expect(await json<AdminSession>(await call(token, 'GET', '/api/admin/session'), 200)).toEqual({
      kind: 'token',
      tokenId: created.token.id,
      label: 'audit export',
      prefix: created.token.prefix,
      role: 'viewer',
      scope: { customers: ['acme'], groups: [] },
    });
    expect((await call(adminCookie, 'POST', '/api/admin/tokens', { serviceAccount: 'old', role: 'viewer', expiresAt: '2020-01-01T00:00:00Z' })).status).toBe(
      400,
    );
    expect((await call(adminCookie, 'POST', '/api/admin/tokens', { serviceAccount: ' ', role: 'viewer' })).status).toBe(400);
    expect((await call(token, 'GET', '/api/admin/tokens')).status).toBe(403);

    const listed = await json<AdminTokenList>(await call(adminCookie, 'GET', '/api/admin/tokens'), 200);
    expect(listed.items).toHaveLength(1);
    expect(Object.keys(listed.items[0]!).sort()).toEqual(
      ['createdAt', 'expiresAt', 'id', 'kind', 'label', 'lastUsedAt', 'owner', 'prefix', 'revokedAt', 'role', 'scope', 'serviceAccount'].sort(),
    );
    expect(listed.items[0]!.lastUsedAt).not.toBeNull();

    const rows = await database.em.getConnection().execute<{ token_hash: string }[]>('select * from admin_token');
    expect(rows.map((row) => row.token_hash)).toEqual([createHash('sha256').update(token).digest('hex')]);
    expect(JSON.stringify(rows)).not.toContain(token.slice(4));
    expect(logs.join('\n')).not.toContain(token);

    expect((await call(adminCookie, 'POST', `/api/admin/tokens/${created.token.id}/revoke`)).status).toBe(204);
    expect((await call(token, 'GET', '/api/admin/session')).status).toBe(401);
    expect((await json<AdminTokenList>(await call(adminCookie, 'GET', '/api/admin/tokens'), 200)).items[0]!.revokedAt).not.toBeNull();
    expect((await call(adminCookie, 'POST', '/api/admin/tokens/00000000-0000-4000-8000-000000000000/revoke')).status).toBe(404);
  });

  it('refuses an expired token with 401', async () => {
    const { id, token } = await createAdminToken(database, { serviceAccount: 'ci', role: 'viewer', expiresAt: new Date(Date.now() + 60_000) });
    expect((await call(token, 'GET', '/api/admin/session')).status).toBe(200);
    await database.em
      .getKnex()('admin_token')
      .where('id', id)
      .update({ expires_at: database.em.getKnex().raw('created_at') });
    const refused = await call(token, 'GET', '/api/admin/session');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ detail: 'The admin token is unknown or revoked' });
  });
});
