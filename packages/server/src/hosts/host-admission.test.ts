import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createAuditApi, type AuditApi, type ReportToStore } from '@org/audit-server-core';
import type { Host, HostDetail, LicenseKeyInfo, RejectionPage } from '../generated/types.gen.js';
import { minimalReport } from '@org/test-support/lynis-report';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { openDatabase, type Database } from '../database/open.js';
import type { AdmissionSettings } from './host-admission.js';
import { hostRecordId } from './host-records.js';
import { RejectionLog } from '../refusals/rejection-log.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { OrmKeyStore } from '../secrets/license-key-store.js';
import { createKey } from '../secrets/license-keys.js';
import { createWebhook } from '../webhooks/webhook-records.js';

const silent = pino({ level: 'silent' });
const VICTIM = 'a'.repeat(40);
const VICTIM_ID2 = '1'.repeat(64);
const ATTACKER_ID2 = 'f'.repeat(64);
/** The `hostid2` of the `n`th of many hosts: each a machine of its own, which one `hostid2` and host name would not be (identity merge). */
const ownId2 = (n: number) => String(n).padStart(64, '0');

describe.each(DIALECTS)('intake admission on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let keyStore: OrmKeyStore;
  let rejections: RejectionLog;
  let admin: AdminApi;
  let token: string;
  let key: { id: string; key: string };

  beforeEach(async () => {
    database = await openDatabase(location.location);
    keyStore = await OrmKeyStore.open(database);
    rejections = new RejectionLog(database, silent);
    admin = await createAdminApi({ database });
    ({ token } = await createAdminToken(database));
    key = await createKey(database, { label: 'fleet' });
    // Events are written only when a subscription wants them; this one is never delivered to.
    await createWebhook(database, { url: 'https://hooks.example.org/audit', events: ['host.identity_changed', 'key.quota_reached'] });
  });
  afterEach(async () => {
    await rejections.close();
    await keyStore.close();
    await database.close();
  });

  /** The collector API over the database's stores, refusals counted by the rejection log as the server does. */
  async function collector(admission: Partial<AdmissionSettings> = {}): Promise<AuditApi> {
    const reportStore = new OrmReportStore(database, { admission });
    return createAuditApi({ keyStore, reportStore, logger: silent, hooks: { onRequestRejected: (event) => rejections.record(event) } });
  }

  async function upload(api: AuditApi, hostid: string, hostid2: string, report = minimalReport('hostname=web-01')) {
    const body = new URLSearchParams({ data: report, licensekey: key.key, hostid, hostid2 }).toString();
    const response = (await api.handle({
      method: 'POST',
      path: '/api/audit/upload/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Readable.from([Buffer.from(body)]),
    }))!;
    return { status: response.status, body: response.body, retryAfter: response.headers['retry-after'] };
  }

  async function call<T>(method: string, path: string, value?: unknown, query: Record<string, string> = {}): Promise<{ status: number; body: T }> {
    const response = await admin.handle({
      method,
      path,
      query,
      headers: { authorization: `Bearer ${token}`, ...(value === undefined ? {} : { 'content-type': 'application/json' }) },
      body: value === undefined ? { kind: 'none' } : { kind: 'json', value },
    });
    // JSON answers are strings; only exports stream.
    if (typeof response.body !== 'string') throw new Error('expected a JSON answer');
    return { status: response.status, body: JSON.parse(response.body) as T };
  }

  const events = async (type: string) =>
    ((await database.em.getKnex()('webhook_event').select('data').where('type', type)) as { data: string }[]).map(
      (row) => JSON.parse(row.data) as Record<string, unknown>,
    );
  const refused = async () => {
    await rejections.flush();
    return (await call<RejectionPage>('GET', '/api/admin/rejections', undefined, { limit: '500' })).body.items;
  };
  const hostCount = async () => Number(((await database.em.getKnex()('host').count({ n: '*' })) as [{ n: number | string }])[0].n);

  it('refuses nothing but what is not a finished report, with 400 and the reason under refused uploads', async () => {
    const api = await collector();
    expect(await upload(api, VICTIM, VICTIM_ID2, 'x=1')).toMatchObject({ status: 400, body: 'Not a report: no report_version_major= or lynis_version= line' });
    expect(await hostCount()).toBe(0);
    expect(await refused()).toEqual([expect.objectContaining({ reason: 'not-a-report', hostId: VICTIM, keyId: key.id, count: 1 })]);
  });

  it('stores a report with another hostid2 for a known host, raising exactly one host.identity_changed event and flagging the host', async () => {
    const api = await collector();
    expect((await upload(api, VICTIM, VICTIM_ID2)).status).toBe(200);
    expect((await upload(api, VICTIM, ATTACKER_ID2, minimalReport('hostname=web-01', 'hardening_index=100'))).status).toBe(200);
    // The victim reports again, and the attacker again: back and forth between the same two raises nothing more.
    expect((await upload(api, VICTIM, VICTIM_ID2)).status).toBe(200);
    expect((await upload(api, VICTIM, ATTACKER_ID2)).status).toBe(200);
    const id = hostRecordId(key.id, VICTIM);
    expect(await events('host.identity_changed')).toEqual([
      expect.objectContaining({ hostRecordId: id, keyId: key.id, hostId: VICTIM, previousHostId2: VICTIM_ID2, hostId2: ATTACKER_ID2, refused: false }),
    ]);
    const change = { previousHostId2: VICTIM_ID2, hostId2: ATTACKER_ID2, at: expect.any(String), refused: false };
    expect((await call<HostDetail>('GET', `/api/admin/hosts/${id}`)).body.identityChange).toEqual(change);
    expect((await call<{ items: Host[] }>('GET', '/api/admin/hosts')).body.items).toEqual([expect.objectContaining({ id, identityChange: change })]);
    expect(await refused()).toEqual([]);

    // Accepting clears the flag; the same hostid2 then raises nothing.
    expect((await call('POST', `/api/admin/hosts/${id}/identity/accept`, { hostId2: VICTIM_ID2 })).status).toBe(409);
    const accepted = await call<Host>('POST', `/api/admin/hosts/${id}/identity/accept`, { hostId2: ATTACKER_ID2 });
    expect(accepted).toMatchObject({ status: 200, body: { hostId2: ATTACKER_ID2, identityChange: null } });
    expect((await upload(api, VICTIM, ATTACKER_ID2)).status).toBe(200);
    expect(await events('host.identity_changed')).toHaveLength(1);
  });

  it('in strict mode refuses the changed identity with 409 under refused uploads, keeps the host as it was, and takes it once accepted', async () => {
    const api = await collector({ hostIdentity: 'strict' });
    expect((await upload(api, VICTIM, VICTIM_ID2, minimalReport('hardening_index=56'))).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect(await upload(api, VICTIM, ATTACKER_ID2, minimalReport('hardening_index=100'))).toMatchObject({
        status: 409,
        body: expect.stringMatching(/^Host identity changed/),
      });
    }
    const id = hostRecordId(key.id, VICTIM);
    const host = (await call<HostDetail>('GET', `/api/admin/hosts/${id}`)).body;
    expect(host).toMatchObject({
      hostId2: VICTIM_ID2,
      latestHardeningIndex: 56,
      reportCount: 1,
      identityChange: { previousHostId2: VICTIM_ID2, hostId2: ATTACKER_ID2, refused: true },
    });
    expect(await events('host.identity_changed')).toEqual([expect.objectContaining({ hostId2: ATTACKER_ID2, refused: true })]);
    expect(await refused()).toEqual([expect.objectContaining({ reason: 'host-identity-changed', hostId: VICTIM, keyId: key.id, count: 3 })]);
    // The true host goes on reporting meanwhile.
    expect((await upload(api, VICTIM, VICTIM_ID2)).status).toBe(200);

    expect((await call('POST', `/api/admin/hosts/${id}/identity/accept`, { hostId2: ATTACKER_ID2 })).status).toBe(200);
    expect((await upload(api, VICTIM, ATTACKER_ID2, minimalReport('hardening_index=90'))).status).toBe(200);
    expect((await call<HostDetail>('GET', `/api/admin/hosts/${id}`)).body).toMatchObject({
      hostId2: ATTACKER_ID2,
      latestHardeningIndex: 90,
      identityChange: null,
    });
    expect((await call('POST', `/api/admin/hosts/${id}/identity/accept`, { hostId2: ATTACKER_ID2 })).status).toBe(409);
    expect((await call('POST', `/api/admin/hosts/${hostRecordId(key.id, 'nobody')}/identity/accept`, { hostId2: null })).status).toBe(404);
  });

  it('flags a new host whose first reports, committed in one group, carry two hostid2s', async () => {
    // One group at a time: while the first commits, the new host's three reports wait and are committed together.
    const store = new OrmReportStore(database, { admission: { hostIdentity: 'strict' }, concurrentGroups: 1 });
    const content = Buffer.from(minimalReport());
    const report = (hostId: string, hostId2: string, second: number): ReportToStore => ({
      keyId: key.id,
      hostId,
      hostId2,
      receivedAt: new Date(Date.UTC(2026, 10, 22, 13, 0, second)),
      encoding: 'raw',
      size: content.length,
      sha256: 'a'.repeat(64),
      content,
      summary: null,
    });
    const first = store.save(report('other-host', VICTIM_ID2, 0));
    const saves = await Promise.allSettled([VICTIM_ID2, ATTACKER_ID2, VICTIM_ID2].map((id2, i) => store.save(report(VICTIM, id2, i + 1))));
    await first;
    expect(saves.map((save) => save.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((saves[1] as PromiseRejectedResult).reason).toMatchObject({ reason: 'host-identity-changed', status: 409 });
    expect(await events('host.identity_changed')).toEqual([expect.objectContaining({ previousHostId2: VICTIM_ID2, hostId2: ATTACKER_ID2, refused: true })]);
    const host = (await call<HostDetail>('GET', `/api/admin/hosts/${hostRecordId(key.id, VICTIM)}`)).body;
    expect(host).toMatchObject({ hostId2: VICTIM_ID2, reportCount: 2, identityChange: { previousHostId2: VICTIM_ID2, hostId2: ATTACKER_ID2, refused: true } });
  });

  it('decides identity exactly when reports of one host race each other', async () => {
    const api = await collector({ hostIdentity: 'strict' });
    expect((await upload(api, VICTIM, VICTIM_ID2)).status).toBe(200);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upload(api, VICTIM, i % 2 ? ATTACKER_ID2 : VICTIM_ID2).then((answer) => answer.status)),
    );
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);
    expect(await events('host.identity_changed')).toHaveLength(1);
  });

  it("stops new hosts at the key's daily quota with 429 until the next UTC day, one key.quota_reached event, known hosts still taken", async () => {
    // The flood: 2,000 uploads with unique host ids, at once, against a quota of 1,500.
    const api = await collector({ newHostsPerDay: 1500 });
    const answers = await Promise.all(Array.from({ length: 2000 }, (_, i) => upload(api, `host-${i}`, ownId2(i))));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1500);
    const over = answers.filter((answer) => answer.status !== 200);
    expect(over).toHaveLength(500);
    for (const answer of over) {
      expect(answer).toMatchObject({ status: 429, body: 'Host quota exceeded: this license key enrolled its 1500 new hosts for today (UTC)' });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(86_400);
    }
    expect(await hostCount()).toBe(1500);
    expect(await events('key.quota_reached')).toEqual([expect.objectContaining({ keyId: key.id, newHostsPerDay: 1500, newHostsToday: 1500 })]);
    const groups = await refused();
    expect(groups.every((group) => group.reason === 'host-quota-exceeded' && group.keyId === key.id)).toBe(true);
    expect(groups.reduce((sum, group) => sum + group.count, 0)).toBe(500);
    // A host the key knows is never refused by the quota.
    const known = answers.findIndex((answer) => answer.status === 200);
    expect((await upload(api, `host-${known}`, ownId2(known))).status).toBe(200);
    expect(await events('key.quota_reached')).toHaveLength(1);
  });

  it("takes a key's own quotas from the admin API: new hosts per day and a maximum of hosts", async () => {
    const api = await collector();
    const patched = await call<LicenseKeyInfo>('PATCH', `/api/admin/keys/${key.id}`, { newHostsPerDay: 5, maxHosts: 3 });
    expect(patched).toMatchObject({ status: 200, body: { id: key.id, newHostsPerDay: 5, maxHosts: 3 } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await upload(api, `host-${i}`, ownId2(i))).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await upload(api, 'host-3', ownId2(3))).body).toBe('Host quota exceeded: this license key has its maximum of 3 hosts');
    expect((await call<LicenseKeyInfo>('PATCH', `/api/admin/keys/${key.id}`, { maxHosts: null })).body).toMatchObject({ newHostsPerDay: 5, maxHosts: null });
    expect((await upload(api, 'host-3', ownId2(3))).status).toBe(200);
    expect((await upload(api, 'host-4', ownId2(4))).status).toBe(200);
    expect((await upload(api, 'host-5', ownId2(5))).status).toBe(429);
    expect((await call('PATCH', `/api/admin/keys/${key.id}`, { newHostsPerDay: -1 })).status).toBe(400);
    expect((await call('PATCH', `/api/admin/keys/${hostRecordId(key.id, 'x')}`, { maxHosts: 1 })).status).toBe(404);
    const created = await call<{ key: LicenseKeyInfo }>('POST', '/api/admin/keys', { label: 'customer', newHostsPerDay: 20 });
    expect(created.body.key).toMatchObject({ newHostsPerDay: 20, maxHosts: null });
  });
});

describe('intake admission across two servers on postgresql', () => {
  const location = useTestDatabase('postgresql');

  it('counts one quota and raises one event when two servers commit new hosts of one key at once', async () => {
    const [first, second] = [await openDatabase(location.location), await openDatabase(location.location)];
    try {
      const key = await createKey(first, { label: 'fleet' });
      await createWebhook(first, { url: 'https://hooks.example.org/audit', events: ['key.quota_reached'] });
      const keyStores = await Promise.all([first, second].map((database) => OrmKeyStore.open(database)));
      const apis = await Promise.all(
        [first, second].map((database, i) =>
          createAuditApi({ keyStore: keyStores[i]!, reportStore: new OrmReportStore(database, { admission: { newHostsPerDay: 100 } }), logger: silent }),
        ),
      );
      const answers = await Promise.all(
        Array.from({ length: 300 }, async (_, i) => {
          const body = new URLSearchParams({ data: minimalReport(), licensekey: key.key, hostid: `host-${i % 250}` }).toString();
          const response = await apis[i % 2]!.handle({
            method: 'POST',
            path: '/api/audit/upload/',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: Readable.from([Buffer.from(body)]),
          });
          return response!.status;
        }),
      );
      expect(answers.every((status) => status === 200 || status === 429)).toBe(true);
      const knex = first.em.getKnex();
      expect(Number(((await knex('host').count({ n: '*' })) as [{ n: string }])[0].n)).toBe(100);
      expect(await knex('webhook_event').where('type', 'key.quota_reached').count({ n: '*' })).toEqual([{ n: '1' }]);
      for (const keyStore of keyStores) await keyStore.close();
    } finally {
      await first.close();
      await second.close();
    }
  });
});
