import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApp } from '../http/app.js';
import { openDatabase, type Database } from '../database/open.js';
import { addUserWithPassword } from '../people/user-commands.js';
import { findUser, setUserDisabled, setUserRole } from '../people/user-records.js';
import { ProviderRefusedError, ProviderUnreachableError, type IdentityProvider, type ProviderIdentity } from '../sso/identity-provider.js';
import { parseRoleMap, type DefaultRole } from '../sso/role-mapping.js';
import type { SsoAttempt } from '../sso/sso-attempts.js';
import type { SsoSettings } from '../sso/sso-settings.js';
import { SingleSignOn } from '../sso/single-sign-on.js';
import { listAuditEvents } from '../audit/audit-query.js';
import { createAdminApi } from './api.js';

const ISSUER = 'https://id.example.org/realms/ops';
const PROVIDER_AUTHORIZE = 'https://id.example.org/realms/ops/protocol/openid-connect/auth';
const SESSION_COOKIE = /__Host-audit_session=([A-Za-z0-9_-]{43}); Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax/;
const SSO_COOKIE = /^__Host-audit_sso=([A-Za-z0-9_-]{43}); Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/;
const CLEARED_SSO_COOKIE = '__Host-audit_sso=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax';

/**
 * The provider's side, stubbed: it starts attempts as the real one does (fresh state, nonce, verifier) and, for the
 * code `good-code`, vouches for whoever `person` is; another code it refuses, as a provider refuses a forged one.
 */
class StubProvider implements IdentityProvider {
  person: ProviderIdentity = { issuer: ISSUER, subject: 'sub-grace', claims: { email: 'grace@example.org', name: 'Grace Hopper', groups: ['sec-ops'] } };
  reachable = true;
  seen: { parameters: string; attempt: SsoAttempt }[] = [];
  private count = 0;

  async start(redirectUrl: string) {
    if (!this.reachable) throw new ProviderUnreachableError('cannot discover the OpenID provider: fetch failed');
    this.count += 1;
    const attempt = { state: `state-${this.count}`, nonce: `nonce-${this.count}`, codeVerifier: `verifier-${this.count}`, redirectUrl };
    const url = new URL(PROVIDER_AUTHORIZE);
    url.search = new URLSearchParams({ state: attempt.state, redirect_uri: redirectUrl }).toString();
    return { attempt, authorizationUrl: url };
  }

  async finish(parameters: URLSearchParams, attempt: SsoAttempt) {
    this.seen.push({ parameters: parameters.toString(), attempt });
    if (!this.reachable) throw new ProviderUnreachableError('the OpenID provider cannot be reached: fetch failed');
    if (parameters.get('code') !== 'good-code') throw new ProviderRefusedError("the OpenID provider's answer was refused: invalid_grant");
    return this.person;
  }
}

describe.each(DIALECTS)('single sign-on through the admin API on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let provider: StubProvider;
  let logs: string[];
  let servers: Server[];

  beforeEach(async () => {
    database = await openDatabase(location.location);
    provider = new StubProvider();
    logs = [];
    servers = [];
  });
  afterEach(async () => {
    for (const server of servers) {
      server.close();
      server.closeAllConnections();
    }
    await database.close();
  });

  /** An admin API on loopback, with single sign-on unless `settings` is null. */
  async function serve(settings: Partial<SsoSettings> | null = {}, defaultRole: DefaultRole = 'none'): Promise<string> {
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void (logs.push(String(chunk)), done()) }));
    const sso =
      settings === null
        ? undefined
        : new SingleSignOn(
            {
              issuer: new URL(ISSUER),
              clientId: 'audit',
              clientSecret: 'client-secret-never-shown',
              roleClaim: 'groups',
              roleMap: parseRoleMap('sec-admins=admin,sec-ops=operator,auditors=viewer'),
              defaultRole,
              scopes: 'openid email profile',
              ...settings,
            },
            database,
            { provider },
          );
    const admin = await createAdminApi({ database, logger, sso });
    const server = createServer(createAdminApp(admin, logger));
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Starts an attempt: answers the cookie's attempt id and the state sent to the provider. */
  async function started(url: string): Promise<{ attemptId: string; state: string; location: URL }> {
    const response = await fetch(`${url}/api/admin/session/sso`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    const attemptId = SSO_COOKIE.exec(response.headers.get('set-cookie') ?? '')![1]!;
    return { attemptId, state: location.searchParams.get('state')!, location };
  }
  const callback = (url: string, query: Record<string, string>, attemptId?: string) =>
    fetch(`${url}/api/admin/session/sso/callback?${new URLSearchParams(query).toString()}`, {
      redirect: 'manual',
      headers: attemptId ? { cookie: `theme=dark; __Host-audit_sso=${attemptId}` } : {},
    });
  /** The whole round trip, as a browser makes it: answers the callback's response. */
  async function signInThroughProvider(url: string, extra: Record<string, string> = {}): Promise<Response> {
    const { attemptId, state } = await started(url);
    return callback(url, { code: 'good-code', state, ...extra }, attemptId);
  }
  const sessionOf = (response: Response) => SESSION_COOKIE.exec(response.headers.get('set-cookie') ?? '')?.[1];
  const whoAmI = (url: string, sessionId: string) => fetch(`${url}/api/admin/session`, { headers: { cookie: `__Host-audit_session=${sessionId}` } });

  it('tells the sign-in page whether single sign-on works, and its label', async () => {
    const off = await fetch(`${await serve(null)}/api/admin/session/options`);
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ sso: { enabled: false, label: null } });
    const on = await fetch(`${await serve({ label: 'Keycloak' })}/api/admin/session/options`);
    expect(await on.json()).toEqual({ sso: { enabled: true, label: 'Keycloak' } });
  });

  it("sends the browser to the provider with the admin API's own callback URL and binds the attempt to it by cookie", async () => {
    const url = await serve();
    const { attemptId, location } = await started(url);
    expect(location.origin + location.pathname).toBe(PROVIDER_AUTHORIZE);
    expect(location.searchParams.get('redirect_uri')).toBe(`${url}/api/admin/session/sso/callback`);
    expect(attemptId).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers 404 when single sign-on is not configured, and 503 when the provider cannot be reached', async () => {
    const off = await fetch(`${await serve(null)}/api/admin/session/sso`, { redirect: 'manual' });
    expect(off.status).toBe(404);
    expect((await off.json()) as unknown).toMatchObject({ detail: 'Single sign-on is not configured on this server' });
    provider.reachable = false;
    const down = await fetch(`${await serve()}/api/admin/session/sso`, { redirect: 'manual' });
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toBe('application/problem+json');
    expect(down.headers.get('retry-after')).toBe('30');
    expect(down.headers.get('set-cookie')).toBeNull();
    expect((await down.json()) as unknown).toMatchObject({ detail: 'The identity provider cannot be reached; try again later' });
  });

  it('creates the person at the first sign-in with the role of the claim, signs them in and goes to the dashboard', async () => {
    const url = await serve();
    const response = await signInThroughProvider(url, { iss: ISSUER, session_state: 'abc' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    expect(response.headers.get('set-cookie')).toContain(CLEARED_SSO_COOKIE);
    const sessionId = sessionOf(response)!;
    expect(await (await whoAmI(url, sessionId)).json()).toMatchObject({
      kind: 'user',
      email: 'grace@example.org',
      displayName: 'Grace Hopper',
      role: 'operator',
    });
    const user = await findUser(database, 'grace@example.org');
    expect(user).toMatchObject({ role: 'operator', hasPassword: false, hasSso: true });
    expect(user!.lastSignInAt).toBeInstanceOf(Date);
    // Every parameter the provider sent reaches the check (openid-client checks `iss`).
    expect(provider.seen[0]!.parameters).toBe(`code=good-code&state=state-1&iss=${encodeURIComponent(ISSUER)}&session_state=abc`);
    expect(provider.seen[0]!.attempt).toMatchObject({ state: 'state-1', nonce: 'nonce-1', codeVerifier: 'verifier-1' });
    // Neither the code, nor the session id, nor the client secret reaches the log.
    const log = logs.join('');
    expect(log).toContain('signed in through single sign-on');
    for (const secret of ['good-code', sessionId, 'client-secret-never-shown']) expect(log).not.toContain(secret);
  });

  it('refuses a tampered state, a missing cookie and a replayed callback, with no session', async () => {
    const url = await serve();
    const first = await started(url);
    const tampered = await callback(url, { code: 'good-code', state: `${first.state}x` }, first.attemptId);
    expect(tampered.headers.get('location')).toBe('/?sso_error=state');
    expect(sessionOf(tampered)).toBeUndefined();
    expect(tampered.headers.get('set-cookie')).toBe(CLEARED_SSO_COOKIE);
    // The attempt was used up by the tampered try: its right state fails too.
    expect((await callback(url, { code: 'good-code', state: first.state }, first.attemptId)).headers.get('location')).toBe('/?sso_error=state');
    const second = await started(url);
    expect((await callback(url, { code: 'good-code', state: second.state })).headers.get('location')).toBe('/?sso_error=state');
    const third = await started(url);
    expect((await callback(url, { code: 'good-code', state: third.state }, third.attemptId)).headers.get('location')).toBe('/');
    const replayed = await callback(url, { code: 'good-code', state: third.state }, third.attemptId);
    expect(replayed.headers.get('location')).toBe('/?sso_error=state');
    expect(sessionOf(replayed)).toBeUndefined();
    expect(provider.seen).toHaveLength(1);
    expect(logs.join('')).toContain('"reason":"state"');
    // The audit trail has each try, the refused ones with their reason, the one that signed in with its person.
    await expect
      .poll(async () =>
        (await listAuditEvents(database, { operation: 'finishSsoSignIn' }, { limit: 10 })).items.map((event) => [event.actor.name, event.changes]),
      )
      .toEqual([
        [null, { ssoError: 'state' }],
        ['grace@example.org', { accountCreated: true, role: 'operator' }],
        [null, { ssoError: 'state' }],
        [null, { ssoError: 'state' }],
        [null, { ssoError: 'state' }],
      ]);
  });

  it("refuses the provider's error and a code it does not accept", async () => {
    const url = await serve();
    const { attemptId, state } = await started(url);
    const refused = await callback(url, { error: 'access_denied', state }, attemptId);
    expect(refused.headers.get('location')).toBe('/?sso_error=provider');
    expect(sessionOf(refused)).toBeUndefined();
    const forged = await started(url);
    expect((await callback(url, { code: 'forged', state: forged.state }, forged.attemptId)).headers.get('location')).toBe('/?sso_error=provider');
    const down = await started(url);
    provider.reachable = false;
    expect((await callback(url, { code: 'good-code', state: down.state }, down.attemptId)).headers.get('location')).toBe('/?sso_error=unreachable');
    expect(await findUser(database, 'grace@example.org')).toBeUndefined();
  });

  it('refuses a person whose claim maps to no role, unless there is a default role', async () => {
    provider.person = { ...provider.person, claims: { email: 'mallory@example.org', groups: ['marketing'] } };
    const strict = await signInThroughProvider(await serve());
    expect(strict.headers.get('location')).toBe('/?sso_error=no_role');
    expect(await findUser(database, 'mallory@example.org')).toBeUndefined();
    const lenient = await signInThroughProvider(await serve({}, 'viewer'));
    expect(lenient.headers.get('location')).toBe('/');
    expect((await findUser(database, 'mallory@example.org'))?.role).toBe('viewer');
  });

  it('without a role map, gives new people the default role and keeps the role given here to the others', async () => {
    const url = await serve({ roleMap: new Map() }, 'viewer');
    expect((await signInThroughProvider(url)).headers.get('location')).toBe('/');
    expect((await findUser(database, 'grace@example.org'))?.role).toBe('viewer');
    await setUserRole(database, 'grace@example.org', 'admin');
    expect((await signInThroughProvider(url)).headers.get('location')).toBe('/');
    expect((await findUser(database, 'grace@example.org'))?.role).toBe('admin');
    // With no default either, only people who have an account here get in.
    const closed = await serve({ roleMap: new Map() }, 'none');
    expect((await signInThroughProvider(closed)).headers.get('location')).toBe('/');
    provider.person = { ...provider.person, subject: 'sub-ada', claims: { email: 'ada@example.org', groups: ['sec-admins'] } };
    expect((await signInThroughProvider(closed)).headers.get('location')).toBe('/?sso_error=no_role');
  });

  it('refuses a missing or unverified email', async () => {
    const url = await serve();
    provider.person = { ...provider.person, claims: { groups: ['sec-ops'] } };
    expect((await signInThroughProvider(url)).headers.get('location')).toBe('/?sso_error=email');
    provider.person = { ...provider.person, claims: { email: 'grace@example.org', email_verified: false, groups: ['sec-ops'] } };
    expect((await signInThroughProvider(url)).headers.get('location')).toBe('/?sso_error=email');
    expect(await findUser(database, 'grace@example.org')).toBeUndefined();
  });

  it('links an account of the same email, keeps its password, and refuses it when disabled', async () => {
    await addUserWithPassword(database, { email: 'Grace@example.org', role: 'viewer', name: 'G. Hopper' }, 'correct horse battery staple');
    const url = await serve();
    const response = await signInThroughProvider(url);
    expect(response.headers.get('location')).toBe('/');
    expect(await findUser(database, 'grace@example.org')).toMatchObject({ role: 'operator', hasPassword: true, hasSso: true, displayName: 'G. Hopper' });
    // Found by its identity from now on, even under another email.
    provider.person = { ...provider.person, claims: { ...provider.person.claims, email: 'grace.hopper@example.org' } };
    expect((await signInThroughProvider(url)).headers.get('location')).toBe('/');
    expect(await findUser(database, 'grace.hopper@example.org')).toBeUndefined();
    await setUserDisabled(database, 'grace@example.org', true);
    const disabled = await signInThroughProvider(url);
    expect(disabled.headers.get('location')).toBe('/?sso_error=disabled');
    expect(sessionOf(disabled)).toBeUndefined();
  });

  it('lets the last enabled admin keep the role when the claim maps to a lower one, and sign in', async () => {
    await addUserWithPassword(database, { email: 'grace@example.org', role: 'admin' }, 'correct horse battery staple');
    const response = await signInThroughProvider(await serve());
    expect(response.headers.get('location')).toBe('/');
    expect((await findUser(database, 'grace@example.org'))?.role).toBe('admin');
  });

  it("refuses to link an email whose account is another identity's", async () => {
    const url = await serve();
    await signInThroughProvider(url);
    provider.person = { ...provider.person, subject: 'sub-impostor' };
    expect((await signInThroughProvider(url)).headers.get('location')).toBe('/?sso_error=linked');
  });

  it('sets the role from the claim at every sign-in; a change ends the other sessions, none keeps them', async () => {
    const url = await serve();
    const first = sessionOf(await signInThroughProvider(url))!;
    const second = sessionOf(await signInThroughProvider(url))!;
    expect((await whoAmI(url, first)).status).toBe(200);
    provider.person = { ...provider.person, claims: { ...provider.person.claims, groups: ['auditors', 'sec-admins'] } };
    const third = sessionOf(await signInThroughProvider(url))!;
    expect((await findUser(database, 'grace@example.org'))?.role).toBe('admin');
    expect((await whoAmI(url, first)).status).toBe(401);
    expect((await whoAmI(url, second)).status).toBe(401);
    expect(await (await whoAmI(url, third)).json()).toMatchObject({ role: 'admin' });
  });
});
