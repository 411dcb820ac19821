import { createHash, X509Certificate } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { createAuditApi, type AuditApi } from '@org/audit-server-core';
import { minimalReport } from '@org/test-support/lynis-report';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import type { Enrollment, Host, NewEnrollment } from '../generated/types.gen.js';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { openDatabase, type Database } from '../database/open.js';
import { loadTlsIdentity } from '../http/tls.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { OrmKeyStore } from '../secrets/license-key-store.js';
import { createKey, revokeKey } from '../secrets/license-keys.js';
import { publicKeyPin } from './enroll-command.js';
import { enrollmentForScript } from './enrollments.js';
import { hashLicenseKeyAlias, licenseKeyAlias } from './enrollment-secret.js';
import { enrollmentSettings } from './enrollment-settings.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const silent = pino({ level: 'silent' });
const DAY = 86_400_000;

describe('the enrollment secret and its alias of the key', () => {
  it('derives a key-shaped alias (lowercase hex and "-" only, 256 bits) that only the secret gives', () => {
    const secret = `enr_${'ab'.repeat(32)}`;
    const alias = licenseKeyAlias(secret);
    expect(alias).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{8}){7}$/);
    expect(licenseKeyAlias(secret)).toBe(alias);
    expect(licenseKeyAlias(`enr_${'ac'.repeat(32)}`)).not.toBe(alias);
    expect(hashLicenseKeyAlias(alias)).toBe(createHash('sha256').update(alias).digest('hex'));
  });
});

describe('the pin of the one-line command', () => {
  it("is curl's sha256// form of the certificate's SubjectPublicKeyInfo", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'enroll-pin-'));
    try {
      const { cert } = await loadTlsIdentity(dir);
      const spki = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
      expect(publicKeyPin(cert)).toBe(`sha256//${createHash('sha256').update(spki).digest('base64')}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.each(DIALECTS)('enrollments on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let keyStore: OrmKeyStore;
  let admin: AdminApi;
  let operator: string;
  let viewer: string;
  let key: { id: string; key: string };

  beforeEach(async () => {
    database = await openDatabase(location.location);
    keyStore = await OrmKeyStore.open(database);
    const dir = await mkdtemp(join(tmpdir(), 'enroll-cert-'));
    const tls = await loadTlsIdentity(dir);
    await rm(dir, { recursive: true, force: true });
    const enrollment = enrollmentSettings({ scheme: 'https', certificate: tls.cert, toolSegment: 'audit', intakePort: () => 8443, dashboardPort: () => 8443 });
    admin = await createAdminApi({ database, enrollment });
    ({ token: operator } = await createAdminToken(database, { label: 'ops', role: 'operator' }));
    ({ token: viewer } = await createAdminToken(database, { label: 'eyes', role: 'viewer' }));
    key = await createKey(database, { label: 'fleet' });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await keyStore.close();
    await database.close();
  });

  async function call<T>(method: string, path: string, value?: unknown, token = operator): Promise<{ status: number; body: T }> {
    const response = await admin.handle({
      method,
      path,
      query: {},
      origin: 'https://collector.example.org:8444',
      headers: { authorization: `Bearer ${token}`, ...(value === undefined ? {} : { 'content-type': 'application/json' }) },
      body: value === undefined ? { kind: 'none' } : { kind: 'json', value },
    });
    if (typeof response.body !== 'string') throw new Error('expected a JSON answer');
    return { status: response.status, body: (response.body === '' ? undefined : JSON.parse(response.body)) as T };
  }

  const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
  const create = (body: Record<string, unknown> = {}) =>
    call<NewEnrollment>('POST', '/api/admin/enrollments', {
      licenseKeyId: key.id,
      systemGroups: ['web'],
      tags: ['prod'],
      customer: 'acme',
      expiresAt: inDays(7),
      ...body,
    });

  async function upload(api: AuditApi, licensekey: string, hostid: string) {
    const body = new URLSearchParams({ data: minimalReport(`hostname=${hostid.slice(0, 6)}`), licensekey, hostid, hostid2: '1'.repeat(64) }).toString();
    const response = (await api.handle({
      method: 'POST',
      path: '/api/audit/upload/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Readable.from([Buffer.from(body)]),
    }))!;
    return response.status;
  }

  it('creates one: the secret and a pinned one-line command once, the enrollment as listed, never the secret again', async () => {
    const created = await create({ maxHosts: 2 });
    expect(created.status).toBe(201);
    const { enrollment, secret, command } = created.body;
    expect(secret).toMatch(/^enr_[0-9a-f]{64}$/);
    expect(command).toMatch(
      new RegExp(
        `^curl -fsS -k --pinnedpubkey 'sha256//[A-Za-z0-9+/]{43}=' -H 'Authorization: Bearer ${secret}' 'https://collector\\.example\\.org:8443/enroll\\.sh' \\| sudo sh$`,
      ),
    );
    expect(enrollment).toMatchObject({
      licenseKeyId: key.id,
      keyLabel: 'fleet',
      systemGroups: ['web'],
      tags: ['prod'],
      customer: 'acme',
      maxHosts: 2,
      hostCount: 0,
      state: 'active',
      createdBy: 'ops',
      revokedAt: null,
      lastUsedAt: null,
    });
    const listed = await call<{ items: Enrollment[] }>('GET', '/api/admin/enrollments', undefined, viewer);
    expect(listed.body.items).toEqual([enrollment]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const row = (await database.em.getKnex()('enrollment').select('*'))[0] as Record<string, unknown>;
    expect(JSON.stringify(row)).not.toContain(secret.slice(4));
    expect(JSON.stringify(row)).not.toContain(licenseKeyAlias(secret));
  });

  it('refuses an expiry past or beyond 90 days (400), an unknown key (404), a revoked key (409), a viewer (403)', async () => {
    expect((await create({ expiresAt: inDays(-1) })).status).toBe(400);
    expect((await create({ expiresAt: inDays(91) })).status).toBe(400);
    expect((await create({ licenseKeyId: '7c9e6679-7425-40de-944b-e07fc1f90ae7' })).status).toBe(404);
    expect((await create({ systemGroups: ['bad group!'] })).status).toBe(400);
    expect((await call('POST', '/api/admin/enrollments', { licenseKeyId: key.id, expiresAt: inDays(1) }, viewer)).status).toBe(403);
    await revokeKey(database, key.id);
    expect((await create()).status).toBe(409);
    expect((await call<{ items: Enrollment[] }>('GET', '/api/admin/enrollments')).body.items).toEqual([]);
  });

  it('takes the alias as the key: hosts count under the enrollment, and keep reporting after it is revoked, not after the key is', async () => {
    const { secret, enrollment } = (await create({ maxHosts: 2 })).body;
    const alias = licenseKeyAlias(secret);
    const api = await createAuditApi({ keyStore, reportStore: new OrmReportStore(database), logger: silent });
    expect(await keyStore.lookup(alias)).toEqual({ state: 'valid', keyId: key.id, enrollmentId: enrollment.id });
    expect(await upload(api, alias, 'a'.repeat(40))).toBe(200);
    expect(await upload(api, key.key, 'b'.repeat(40))).toBe(200); // the key itself: not the enrollment's host
    const hosts = (await call<{ items: Host[] }>('GET', '/api/admin/hosts')).body.items;
    expect(hosts.map((host) => host.keyId)).toEqual([key.id, key.id]);
    let listed = (await call<{ items: Enrollment[] }>('GET', '/api/admin/enrollments')).body.items[0]!;
    expect(listed).toMatchObject({ hostCount: 1, state: 'active' });

    expect(await upload(api, alias, 'c'.repeat(40))).toBe(200);
    listed = (await call<{ items: Enrollment[] }>('GET', '/api/admin/enrollments')).body.items[0]!;
    expect(listed).toMatchObject({ hostCount: 2, state: 'full' });
    expect(await enrollmentForScript(database, secret)).toEqual({ reason: 'full', enrollmentId: enrollment.id });

    expect((await call('POST', `/api/admin/enrollments/${enrollment.id}/revoke`)).status).toBe(204);
    expect((await call('POST', `/api/admin/enrollments/${enrollment.id}/revoke`)).status).toBe(204);
    const trail = (await database.em
      .getKnex()('audit_event')
      .select('operation', 'target_type', 'target_id')
      .whereIn('operation', ['createEnrollment', 'revokeEnrollment'])) as {
      operation: string;
      target_type: string;
      target_id: string;
    }[];
    expect(trail.map((entry) => `${entry.operation} ${entry.target_type} ${entry.target_id}`).sort()).toEqual([
      `createEnrollment enrollment ${enrollment.id}`,
      `revokeEnrollment enrollment ${enrollment.id}`,
      `revokeEnrollment enrollment ${enrollment.id}`,
    ]);
    expect((await call('POST', '/api/admin/enrollments/7c9e6679-7425-40de-944b-e07fc1f90ae7/revoke')).status).toBe(404);
    listed = (await call<{ items: Enrollment[] }>('GET', '/api/admin/enrollments')).body.items[0]!;
    expect(listed).toMatchObject({ state: 'revoked', revokedAt: expect.any(String) });
    expect(await upload(api, alias, 'a'.repeat(40))).toBe(200);

    await revokeKey(database, key.id);
    await keyStore.refresh();
    expect(await keyStore.lookup(alias)).toEqual({ state: 'revoked', keyId: key.id });
    expect(await upload(api, alias, 'a'.repeat(40))).toBe(401);
    expect(await keyStore.lookup('0123abcd-0123abcd')).toEqual({ state: 'unknown' });
  });

  it('serves the script to an active enrollment only, recording its last use; expired after its time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-01T00:00:00Z'));
    const { secret, enrollment } = (await create({ expiresAt: '2026-11-02T00:00:00.000Z' })).body;
    expect(await enrollmentForScript(database, `enr_${'0'.repeat(64)}`)).toEqual({ reason: 'unknown' });
    const served = await enrollmentForScript(database, secret);
    expect(served).toMatchObject({ enrollment: { id: enrollment.id, state: 'active' }, alias: licenseKeyAlias(secret) });
    const listed = (await call<{ items: Enrollment[] }>('GET', '/api/admin/enrollments')).body.items[0]!;
    expect(listed.lastUsedAt).toBe('2026-11-01T00:00:00.000Z');
    vi.setSystemTime(new Date('2026-11-02T00:00:00Z'));
    expect(await enrollmentForScript(database, secret)).toEqual({ reason: 'expired', enrollmentId: enrollment.id });
  });

  it('adds no query to a known key: the alias is looked up only when the key store misses', async () => {
    const { secret } = (await create()).body;
    const alias = licenseKeyAlias(secret);
    await keyStore.refresh(); // the key, made after the store opened, is in its snapshot now
    const queries: string[] = [];
    const connection = database.em.getConnection();
    const execute = connection.execute.bind(connection);
    vi.spyOn(connection, 'execute').mockImplementation(((...args: Parameters<typeof execute>) => {
      queries.push(typeof args[0] === 'string' ? args[0] : JSON.stringify(args[0]));
      return execute(...args);
    }) as typeof execute);
    expect(await keyStore.lookup(key.key)).toMatchObject({ state: 'valid' });
    expect(queries).toEqual([]);
    expect(await keyStore.lookup(alias)).toMatchObject({ state: 'valid' });
    expect(await keyStore.lookup(alias)).toMatchObject({ state: 'valid' }); // cached from then on
    expect(queries.filter((sql) => sql.includes('enrollment'))).toHaveLength(1);
  });
});
