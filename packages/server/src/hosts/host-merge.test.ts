import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createAuditApi, type AuditApi } from '@org/audit-server-core';
import type { FindingGroupPage, Host, ReportPage, WaiverList } from '../generated/types.gen.js';
import { minimalReport } from '@org/test-support/lynis-report';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { listAuditEvents } from '../audit/audit-query.js';
import { openDatabase, type Database } from '../database/open.js';
import { createPolicy } from '../policies/policy-records.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { OrmKeyStore } from '../secrets/license-key-store.js';
import { createKey } from '../secrets/license-keys.js';
import { createWebhook } from '../webhooks/webhook-records.js';
import { hostRecordId } from './host-records.js';

const silent = pino({ level: 'silent' });
const hostid = (digit: string) => digit.repeat(40);
const hostid2 = (digit: string) => digit.repeat(64);

describe.each(DIALECTS)('host merge on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let keyStore: OrmKeyStore;
  let admin: AdminApi;
  let collector: AuditApi;
  let token: string;
  let key: { id: string; key: string };

  beforeEach(async () => {
    database = await openDatabase(location.location);
    keyStore = await OrmKeyStore.open(database);
    admin = await createAdminApi({ database });
    ({ token } = await createAdminToken(database));
    key = await createKey(database, { label: 'fleet' });
    collector = await createAuditApi({ keyStore, reportStore: new OrmReportStore(database), logger: silent });
    // Events are written only when a subscription wants them; this one is never delivered to.
    await createWebhook(database, { url: 'https://hooks.example.org/audit', events: ['host.merged', 'host.enrolled'] });
  });
  afterEach(async () => {
    await keyStore.close();
    await database.close();
  });

  const id = (digit: string) => hostRecordId(key.id, hostid(digit));

  async function upload(digit: string, id2: string, ...lines: string[]) {
    await uploadWith(key.key, digit, id2, ...lines);
  }
  async function uploadWith(licensekey: string, digit: string, id2: string, ...lines: string[]) {
    const body = new URLSearchParams({ data: minimalReport(...lines), licensekey, hostid: hostid(digit), hostid2: id2 }).toString();
    const response = (await collector.handle({
      method: 'POST',
      path: '/api/audit/upload/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Readable.from([Buffer.from(body)]),
    }))!;
    expect(response.status).toBe(200);
  }

  async function call<T>(method: string, path: string, value?: unknown, bearer = token): Promise<{ status: number; body: T }> {
    const response = await admin.handle({
      method,
      path,
      query: {},
      headers: { authorization: `Bearer ${bearer}`, ...(value === undefined ? {} : { 'content-type': 'application/json' }) },
      body: value === undefined ? { kind: 'none' } : { kind: 'json', value },
    });
    const text = typeof response.body === 'string' ? response.body : '';
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }
  const ok = async <T>(path: string) => {
    const answer = await call<T>('GET', path);
    expect(answer.status, path).toBe(200);
    return answer.body;
  };

  const events = async (type: string) =>
    ((await database.em.getKnex()('webhook_event').select('data').where('type', type)) as { data: string }[]).map(
      (row) => JSON.parse(row.data) as Record<string, unknown>,
    );
  const hostCount = async () => Number(((await database.em.getKnex()('host').count({ n: '*' })) as [{ n: number | string }])[0].n);
  const findings = async () =>
    Object.fromEntries((await ok<FindingGroupPage>('/api/admin/findings')).items.map((item) => [`${item.kind}:${item.testId}`, item.hosts]));

  describe('by an operator', () => {
    beforeEach(async () => {
      await upload('a', hostid2('1'), 'hostname=web-old', 'warning[]=W-1|A warning|-|-|', 'warning[]=W-OLD|Gone since|-|-|');
      await upload('b', hostid2('2'), 'hostname=web-new', 'warning[]=W-1|A warning|-|-|');
      await upload('b', hostid2('2'), 'hostname=web-new', 'warning[]=W-1|A warning|-|-|', 'warning[]=W-2|New|-|-|');
    });

    it('moves the other host into the survivor: reports, waivers, one set of findings, one event, one audit entry', async () => {
      const { id: policyId } = await createPolicy(database, { name: 'Baseline', rules: [{ id: 'index', expression: 'summary.hardeningIndex >= 60' }] });
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      expect((await call('POST', '/api/admin/waivers', { policyId, hostRecordId: id('b'), reason: 'Lab machine', expiresAt })).status).toBe(201);
      expect(await findings()).toEqual({ 'warning:W-1': 2, 'warning:W-OLD': 1, 'warning:W-2': 1 });

      const merged = await call<Host>('POST', `/api/admin/hosts/${id('a')}/merge`, { hostRecordId: id('b') });
      expect(merged.status).toBe(200);
      // The newest report was the other host's: the survivor takes its name, hostid2 and findings.
      expect(merged.body).toMatchObject({ id: id('a'), hostId: hostid('a'), hostname: 'web-new', hostId2: hostid2('2'), reportCount: 3, state: 'active' });
      expect((await call('GET', `/api/admin/hosts/${id('b')}`)).status).toBe(404);
      expect(await hostCount()).toBe(1);
      const reports = await ok<ReportPage>(`/api/admin/reports?hostRecordId=${id('a')}`);
      expect(reports.items.map((report) => report.hostId).sort()).toEqual([hostid('a'), hostid('b'), hostid('b')]);
      expect((await ok<WaiverList>('/api/admin/waivers')).items.map((waiver) => waiver.hostRecordId)).toEqual([id('a')]);
      expect(await findings()).toEqual({ 'warning:W-1': 1, 'warning:W-2': 1 });
      expect(await events('host.merged')).toEqual([
        expect.objectContaining({ hostRecordId: id('a'), hostId: hostid('a'), mergedHostRecordId: id('b'), mergedHostId: hostid('b'), automatic: false }),
      ]);
      const [entry] = (await listAuditEvents(database, { operation: 'mergeHosts' }, { limit: 10 })).items;
      expect(entry).toMatchObject({
        target: { type: 'host', id: id('a') },
        changes: { merged: { id: id('b'), hostId: hostid('b'), hostname: 'web-new', reportsMoved: 2 } },
        actor: { kind: 'token' },
      });
    });

    it("joins later reports under the other host's hostid to the survivor", async () => {
      expect((await call('POST', `/api/admin/hosts/${id('a')}/merge`, { hostRecordId: id('b') })).status).toBe(200);
      await upload('b', hostid2('2'), 'hostname=web-newest', 'warning[]=W-3|Later|-|-|');
      expect(await hostCount()).toBe(1);
      expect((await call('GET', `/api/admin/hosts/${id('b')}`)).status).toBe(404);
      expect((await ok<Host>(`/api/admin/hosts/${id('a')}`)).reportCount).toBe(4);
      expect((await ok<Host>(`/api/admin/hosts/${id('a')}`)).hostname).toBe('web-newest');
      expect(await findings()).toEqual({ 'warning:W-3': 1 });
      const reports = await ok<ReportPage>(`/api/admin/reports?hostRecordId=${id('a')}`);
      expect(reports.total).toBe(4);
      // Joining by an alias is no new enrollment, and no new merge.
      expect(await events('host.enrolled')).toHaveLength(2);
      expect(await events('host.merged')).toHaveLength(1);
    });

    it('merges a host of another license key, whose later reports under that key join the survivor too', async () => {
      const other = await createKey(database, { label: 'moved' });
      await uploadWith(other.key, 'c', hostid2('3'), 'hostname=web-moved');
      const moved = hostRecordId(other.id, hostid('c'));
      const before = await ok<Host>(`/api/admin/hosts/${id('a')}`);
      const merged = await call<Host>('POST', `/api/admin/hosts/${id('a')}/merge`, { hostRecordId: moved });
      expect(merged).toMatchObject({ status: 200, body: { keyId: key.id, hostname: 'web-moved', reportCount: 2, firstSeen: before.firstSeen } });
      await uploadWith(other.key, 'c', hostid2('3'), 'hostname=web-moved');
      expect((await ok<Host>(`/api/admin/hosts/${id('a')}`)).reportCount).toBe(3);
      expect((await call('GET', `/api/admin/hosts/${moved}`)).status).toBe(404);
      expect(await hostCount()).toBe(2);
    });

    it('refuses the same host twice (400), a host that does not exist (404) and a viewer (403)', async () => {
      expect((await call('POST', `/api/admin/hosts/${id('a')}/merge`, { hostRecordId: id('a') })).status).toBe(400);
      expect((await call('POST', `/api/admin/hosts/${id('a')}/merge`, { hostRecordId: id('c') })).status).toBe(404);
      expect((await call('POST', `/api/admin/hosts/${id('c')}/merge`, { hostRecordId: id('a') })).status).toBe(404);
      const viewer = await createAdminToken(database, { label: 'viewer', role: 'viewer' });
      expect((await call('POST', `/api/admin/hosts/${id('a')}/merge`, { hostRecordId: id('b') }, viewer.token)).status).toBe(403);
      expect(await hostCount()).toBe(2);
      expect(await events('host.merged')).toEqual([]);
    });
  });

  describe('by identity, on upload', () => {
    it('joins a new hostid with the same hostid2 and machine id to the known host, by the server in the audit trail', async () => {
      await upload('a', hostid2('1'), 'hostname=web-01', 'machineid=m-1');
      await upload('b', hostid2('1'), 'hostname=web-01', 'machineid=m-1');
      expect(await hostCount()).toBe(1);
      expect((await ok<Host>(`/api/admin/hosts/${id('a')}`)).reportCount).toBe(2);
      expect((await call('GET', `/api/admin/hosts/${id('b')}`)).status).toBe(404);
      expect(await events('host.merged')).toEqual([
        expect.objectContaining({ hostRecordId: id('a'), mergedHostRecordId: id('b'), mergedHostId: hostid('b'), automatic: true }),
      ]);
      expect(await events('host.enrolled')).toHaveLength(1);
      const [entry] = (await listAuditEvents(database, { operation: 'mergeHosts' }, { limit: 10 })).items;
      expect(entry).toMatchObject({
        actor: { kind: 'system', name: 'identity merge' },
        target: { type: 'host', id: id('a') },
        changes: { hostId: { before: hostid('b'), after: hostid('a') } },
      });

      // Another machine id under the same hostid2 is another machine.
      await upload('c', hostid2('1'), 'hostname=web-01', 'machineid=m-2');
      expect(await hostCount()).toBe(2);
      expect(await events('host.merged')).toHaveLength(1);
    });

    it('without a machine id, joins by hostid2 and host name; several hosts alike stay apart', async () => {
      await upload('a', hostid2('1'), 'hostname=db-01');
      await upload('b', hostid2('1'), 'hostname=db-01');
      expect(await hostCount()).toBe(1);
      expect(await events('host.merged')).toEqual([expect.objectContaining({ hostRecordId: id('a'), mergedHostRecordId: id('b'), automatic: true })]);

      // Two machines with one hostid2 and host name (a clone): a third report by name alone is ambiguous.
      await upload('c', hostid2('2'), 'hostname=clone', 'machineid=m-1');
      await upload('d', hostid2('2'), 'hostname=clone', 'machineid=m-2');
      await upload('e', hostid2('2'), 'hostname=clone');
      expect(await hostCount()).toBe(4);
      expect(await events('host.merged')).toHaveLength(1);
    });

    it('with identity merge off, a new hostid stays a new host, while a merged hostid still joins its host', async () => {
      collector = await createAuditApi({ keyStore, reportStore: new OrmReportStore(database, { admission: { identityMerge: 'off' } }), logger: silent });
      await upload('a', hostid2('1'), 'hostname=web-01', 'machineid=m-1');
      await upload('b', hostid2('1'), 'hostname=web-01', 'machineid=m-1');
      expect(await hostCount()).toBe(2);
      expect(await events('host.merged')).toEqual([]);
      // An operator merges them: the merged hostid's later reports join the survivor all the same.
      expect((await call('POST', `/api/admin/hosts/${id('a')}/merge`, { hostRecordId: id('b') })).status).toBe(200);
      await upload('b', hostid2('1'), 'hostname=web-01', 'machineid=m-1');
      expect(await hostCount()).toBe(1);
      expect((await ok<Host>(`/api/admin/hosts/${id('a')}`)).reportCount).toBe(3);
    });
  });
});
