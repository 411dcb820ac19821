import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApp } from '../http/app.js';
import { openDatabase, type Database } from '../database/open.js';
import { createRateLimiter, type ClosableRateLimiter } from '../http/rate-limiter-store.js';
import { addUserWithPassword } from '../people/user-commands.js';
import { createSignInLockout } from '../people/sign-in-lockout.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createAdminApi } from '../admin/api.js';
import type { AuditEvent, AuditEventPage } from '../generated/types.gen.js';
import { appendAuditEvent } from './audit-append.js';
import { anonymousActor } from './audit-entry.js';
import { GENESIS_HASH } from './audit-hash.js';
import { deleteExpiredAuditEvents } from './audit-retention.js';
import { verifyAuditChain } from './audit-verify.js';

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'ada@example.org';
const DAY_MS = 86_400_000;

describe.each(DIALECTS)('the audit trail on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let server: Server;
  let url: string;
  let rateLimiter: ClosableRateLimiter;
  let token: string;
  let tokenId: string;

  beforeEach(async () => {
    database = await openDatabase(location.location);
    await addUserWithPassword(database, { email: EMAIL, role: 'admin', name: 'Ada Lovelace' }, PASSWORD);
    ({ token, id: tokenId } = await createAdminToken(database, { label: 'ci robot' }));
    rateLimiter = await createRateLimiter({ perAddressPerMinute: 0, perKeyPerMinute: 0, failuresPer10Minutes: 0, redisPrefix: 'test' });
    const admin = await createAdminApi({ database, rateLimiter, signInLockout: createSignInLockout(rateLimiter), webhookAllowPrivate: true });
    server = createServer(createAdminApp(admin, pino({ level: 'silent' })));
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

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'user-agent': 'audit-test/1',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const page = async (query = ''): Promise<AuditEventPage> => {
    const response = await call('GET', `/api/admin/audit-events${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as AuditEventPage;
  };
  const signIn = (password: string) =>
    fetch(`${url}/api/admin/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password }) });
  const rawRows = async () => (await database.em.getKnex()('audit_event').select('*').orderBy('sequence')) as Record<string, unknown>[];

  it('records a change with its actor, target, changes, outcome and chain, and lists it newest first', async () => {
    const created = await call('POST', '/api/admin/keys', { label: 'web servers' });
    expect(created.status).toBe(201);
    const keyId = ((await created.json()) as { key: { id: string } }).key.id;
    expect((await call('PATCH', `/api/admin/keys/${keyId}`, { maxHosts: 10 })).status).toBe(200);
    expect((await call('POST', '/api/admin/keys/00000000-0000-4000-8000-000000000000/revoke')).status).toBe(404);

    const { items, nextBefore } = await page();
    expect(nextBefore).toBeNull();
    expect(items.map((item) => [item.operation, item.outcome, item.status])).toEqual([
      ['revokeLicenseKey', 'failure', 404],
      ['updateLicenseKey', 'success', 200],
      ['createLicenseKey', 'success', 201],
    ]);
    const [, update, create] = items as [AuditEvent, AuditEvent, AuditEvent];
    expect(create.actor).toEqual({ kind: 'token', id: tokenId, name: 'ci robot', role: 'admin' });
    expect(create.target).toEqual({ type: 'license-key', id: keyId });
    expect(update.target).toEqual({ type: 'license-key', id: keyId });
    expect(update.changes).toEqual({ maxHosts: { before: null, after: 10 } });
    expect(create.changes).toMatchObject({ label: { before: null, after: 'web servers' } });
    expect(create).toMatchObject({ sequence: 1, previousHash: GENESIS_HASH, sourceAddress: '127.0.0.1', userAgent: 'audit-test/1' });
    expect(update.previousHash).toBe(create.hash);
    expect(create.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('filters by actor, operation, outcome and time, and pages with before', async () => {
    for (const label of ['a', 'b', 'c']) expect((await call('POST', '/api/admin/keys', { label })).status).toBe(201);
    expect((await signIn('wrong')).status).toBe(401);

    const first = await page('?limit=2');
    expect(first.items.map((item) => item.sequence)).toEqual([4, 3]);
    expect(first.nextBefore).toBe(3);
    const second = await page(`?limit=2&before=${first.nextBefore}`);
    expect(second.items.map((item) => item.sequence)).toEqual([2, 1]);
    expect(second.nextBefore).toBeNull();

    expect((await page('?actor=ci%20robot')).items).toHaveLength(3);
    expect((await page(`?actor=${tokenId}`)).items).toHaveLength(3);
    expect((await page(`?actor=${encodeURIComponent(EMAIL)}`)).items.map((item) => item.operation)).toEqual(['signIn']);
    expect((await page('?operation=signIn&outcome=failure')).items).toHaveLength(1);
    expect((await page('?outcome=denied')).items).toHaveLength(0);
    expect((await page(`?targetType=license-key`)).items).toHaveLength(3);
    expect((await page(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).items).toHaveLength(0);
    expect((await page(`?until=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).items).toHaveLength(4);
    expect((await call('GET', '/api/admin/audit-events?outcome=maybe')).status).toBe(400);
  });

  it('records signing in, failed and locked out, with the email tried and never the password', async () => {
    for (let attempt = 0; attempt < 20; attempt++) expect([401, 429]).toContain((await signIn(`wrong-${attempt}`)).status);
    const entries = (await page('?operation=signIn&limit=50')).items.reverse();
    expect(entries).toHaveLength(20);
    expect(entries.every((entry) => entry.actor.kind === 'anonymous' && entry.actor.name === EMAIL)).toBe(true);
    const outcomes = entries.map((entry) => entry.outcome);
    const firstDenied = outcomes.indexOf('denied');
    expect(firstDenied).toBeGreaterThan(0);
    expect(outcomes.slice(0, firstDenied).every((outcome) => outcome === 'failure')).toBe(true);
    expect(outcomes.slice(firstDenied).every((outcome) => outcome === 'denied')).toBe(true);
    expect(entries.map((entry) => entry.status).slice(firstDenied)).toEqual(Array(20 - firstDenied).fill(429));
    expect(JSON.stringify(await rawRows())).not.toContain('wrong-');
  });

  it('names the person who signed in and out', async () => {
    await rateLimiter.close();
    const response = await signIn(PASSWORD);
    expect(response.status).toBe(204);
    const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${url}/api/admin/session`, { method: 'DELETE', headers: { cookie, origin: url } })).status).toBe(204);
    const [signOut, signedIn] = (await page()).items as [AuditEvent, AuditEvent];
    expect(signedIn).toMatchObject({ operation: 'signIn', outcome: 'success', actor: { kind: 'user', name: EMAIL, role: 'admin' } });
    expect(signOut).toMatchObject({ operation: 'signOut', outcome: 'success', actor: { kind: 'user', name: EMAIL, role: 'admin' } });
    expect(JSON.stringify(await rawRows())).not.toContain(cookie.split('=')[1]);
  });

  it('says what changed of an account: its role and disabled, never its password', async () => {
    const created = await call('POST', '/api/admin/users', { email: 'grace@example.org', role: 'viewer', password: 'a long enough passphrase' });
    expect(created.status).toBe(201);
    const userId = ((await created.json()) as { id: string }).id;
    expect((await call('PATCH', `/api/admin/users/${userId}`, { role: 'operator', disabled: true })).status).toBe(200);
    const [update, create] = (await page()).items as [AuditEvent, AuditEvent];
    expect(update).toMatchObject({ operation: 'updateUser', target: { type: 'user', id: userId } });
    expect(update.changes).toEqual({ role: { before: 'viewer', after: 'operator' }, disabled: { before: false, after: true } });
    expect(create).toMatchObject({ operation: 'createUser', target: { type: 'user', id: userId } });
    expect(create.changes).toMatchObject({ email: { before: null, after: 'grace@example.org' }, role: { before: null, after: 'viewer' } });
    expect(JSON.stringify(await rawRows())).not.toContain('a long enough passphrase');
  });

  it('says which policy enabling the baseline made, with its name and rules', async () => {
    const enabled = await call('POST', '/api/admin/policies/baseline');
    expect(enabled.status).toBe(201);
    const policyId = ((await enabled.json()) as { id: string }).id;
    const [entry] = (await page()).items as [AuditEvent];
    expect(entry).toMatchObject({ operation: 'enableBaselinePolicy', target: { type: 'policy', id: policyId }, outcome: 'success' });
    expect(entry.changes).toMatchObject({ name: { before: null, after: 'Baseline' }, enabled: { before: null, after: true } });
  });

  it('records refusals as denied: no token, a wrong one, a role too low', async () => {
    const viewer = await createAdminToken(database, { label: 'viewer', role: 'viewer' });
    expect((await call('POST', '/api/admin/keys', { label: 'x' }, { authorization: '' })).status).toBe(401);
    expect((await call('POST', '/api/admin/keys', { label: 'x' }, { authorization: `Bearer adm_${'0'.repeat(64)}` })).status).toBe(401);
    expect((await call('POST', '/api/admin/keys', { label: 'x' }, { authorization: `Bearer ${viewer.token}` })).status).toBe(403);
    const entries = (await page()).items;
    expect(entries.map((entry) => [entry.outcome, entry.status, entry.actor.kind])).toEqual([
      ['denied', 403, 'token'],
      ['denied', 401, 'anonymous'],
      ['denied', 401, 'anonymous'],
    ]);
    expect(entries[0]!.actor).toMatchObject({ id: viewer.id, role: 'viewer' });
  });

  it('keeps no secret: keys, tokens, passwords and webhook secrets never reach a row', async () => {
    const key = (await (await call('POST', '/api/admin/keys', { label: 'k' })).json()) as { key: { id: string }; licenseKey: string };
    const rotated = (await (await call('POST', `/api/admin/keys/${key.key.id}/rotate`, {})).json()) as { licenseKey: string };
    const hook = (await (
      await call('POST', '/api/admin/webhooks', { url: 'http://receiver:s3cret-in-url@127.0.0.1:9/hook', events: ['audit.event'] })
    ).json()) as {
      webhook: { id: string };
      secret: string;
    };
    expect((await signIn('not-the-password')).status).toBe(401);
    const stored = JSON.stringify(await rawRows());
    for (const secret of [key.licenseKey, rotated.licenseKey, hook.secret, token, PASSWORD, 'not-the-password', 's3cret-in-url']) {
      expect(secret).toBeTruthy();
      expect(stored).not.toContain(secret);
    }
    expect(stored).toContain(hook.webhook.id);
    const [created] = (await page('?operation=createWebhook')).items as [AuditEvent];
    expect(created.changes).toMatchObject({ url: { before: null, after: 'http://127.0.0.1:9' }, events: { before: null, after: ['audit.event'] } });
  });

  it('offers every entry to webhooks as audit.event', async () => {
    const hook = await call('POST', '/api/admin/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['audit.event'] });
    expect(hook.status).toBe(201);
    expect((await call('POST', '/api/admin/keys', { label: 'told' })).status).toBe(201);
    const events = await database.em.getKnex()<{ type: string; data: string }>('webhook_event').select('type', 'data');
    const told = events.filter((event) => event.type === 'audit.event').map((event) => JSON.parse(event.data) as AuditEvent);
    // The webhook's own creation was written before it existed as a subscription; the key's after.
    expect(told.map((event) => event.operation)).toContain('createLicenseKey');
    const [entry] = (await page('?operation=createLicenseKey')).items;
    expect(told.find((event) => event.operation === 'createLicenseKey')).toEqual(entry);
  });

  it('exports the entries oldest first as JSON Lines and as CSV, and records the export with its filters', async () => {
    for (const label of ['=cmd|calc', 'plain']) expect((await call('POST', '/api/admin/keys', { label })).status).toBe(201);
    const jsonl = await call('GET', '/api/admin/exports/audit-events?format=jsonl&operation=createLicenseKey');
    expect(jsonl.status).toBe(200);
    expect(jsonl.headers.get('content-type')).toMatch(/^application\/jsonl/);
    const lines = (await jsonl.text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEvent);
    expect(lines.map((line) => line.sequence)).toEqual([1, 2]);
    const csv = await (await call('GET', '/api/admin/exports/audit-events')).text();
    const [header, ...rows] = csv.trimEnd().split('\n');
    expect(header).toBe(
      'sequence,id,at,actorKind,actorId,actorName,actorRole,operation,targetType,targetId,changes,outcome,status,sourceAddress,userAgent,requestId,previousHash,hash',
    );
    expect(rows).toHaveLength(3); // two creates and the JSON Lines export
    const exported = (await page('?operation=exportAuditEvents')).items;
    expect(exported.map((entry) => entry.changes)).toEqual([{ filters: {} }, { filters: { format: 'jsonl', operation: 'createLicenseKey' } }]);
  });

  it('verifies an intact chain, and names the entry altered or whose predecessor was removed', async () => {
    for (let n = 0; n < 7; n++) await appendAuditEvent(database, entry(`n${n}`));
    expect(await verifyAuditChain(database, 3)).toEqual({ intact: true, checked: 7 });

    const knex = database.em.getKnex();
    await knex('audit_event').where('sequence', 4).update({ outcome: 'success' });
    expect(await verifyAuditChain(database, 3)).toMatchObject({ intact: false, sequence: 4, checked: 3 });
    await knex('audit_event').where('sequence', 4).update({ outcome: 'failure' });
    expect(await verifyAuditChain(database, 3)).toEqual({ intact: true, checked: 7 });

    await knex('audit_event').where('sequence', 5).delete();
    expect(await verifyAuditChain(database, 3)).toMatchObject({ intact: false, sequence: 6, problem: expect.stringContaining('removed') });
  });

  it('finds the newest entries removed', async () => {
    for (let n = 0; n < 3; n++) await appendAuditEvent(database, entry(`n${n}`));
    await database.em.getKnex()('audit_event').where('sequence', 3).delete();
    expect(await verifyAuditChain(database)).toMatchObject({ intact: false, sequence: 3 });
  });

  it('retention deletes the oldest entries only, and the rest still verifies from its new start', async () => {
    const now = Date.now();
    for (const age of [500, 450, 10, 401, 1]) await appendAuditEvent(database, entry(`${age} days`), new Date(now - age * DAY_MS));
    // The entry 401 days old comes after one of 10 days: it stays, so the chain is never cut in the middle.
    expect(await deleteExpiredAuditEvents(database, 400, new Date(now))).toBe(2);
    expect((await rawRows()).map((row) => row['sequence'])).toEqual([3, 4, 5]);
    expect(await verifyAuditChain(database)).toEqual({ intact: true, checked: 3 });
    await appendAuditEvent(database, entry('after'));
    expect(await verifyAuditChain(database)).toEqual({ intact: true, checked: 4 });
  });
});

const entry = (name: string) => ({
  actor: anonymousActor(name),
  operation: 'signIn',
  target: null,
  changes: null,
  outcome: 'failure' as const,
  status: 401,
  sourceAddress: '192.0.2.1',
  userAgent: null,
  requestId: null,
});
