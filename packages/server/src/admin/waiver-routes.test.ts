import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReportBytes } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { minimalReport } from '@org/test-support/lynis-report';
import { openDatabase, type Database } from '../database/open.js';
import { hostRecordId } from '../hosts/host-records.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey } from '../secrets/license-keys.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { createPolicy } from '../policies/policy-records.js';
import { listResults, ruleCounts, statusCounts } from '../policies/policy-results.js';
import { groupedCounts } from '../policies/grouped-counts.test-kit.js';
import { createWaivers } from '../policies/waivers.js';
import { createAdminApi, type AdminApi } from './api.js';
import { UNSCOPED } from '../people/scope.js';

const DAY_MS = 86_400_000;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(DIALECTS)('waivers through the admin API on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let admin: AdminApi;
  let token: string;
  let keyId: string;
  let evaluator: PolicyEvaluator;
  let policyId: string;

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token } = await createAdminToken(database, { label: 'ops-team' }));
    ({ id: keyId } = await createKey(database));
    admin = await createAdminApi({ database, waiverMaxDays: 30 });
    evaluator = new PolicyEvaluator(database, { now: () => new Date(), clockRecheckMs: 60_000, batchSize: 10 });
    // Four hosts: web-01 and web-02 (group "Web") fail both rules, db-01 fails the firewall, ok-01 passes.
    await upload('1', 'web-01', { index: 40, firewall: '0', groups: 'Web,eu' });
    await upload('2', 'web-02', { index: 40, firewall: '0', groups: 'Web' });
    await upload('3', 'db-01', { index: 80, firewall: '0', groups: 'db' });
    await upload('4', 'ok-01', { index: 80, firewall: '1', groups: 'db' });
    ({ id: policyId } = await createPolicy(database, {
      name: 'Baseline',
      rules: [
        { id: 'index', expression: 'summary.hardeningIndex >= 60' },
        { id: 'firewall', expression: "report.firewall_active == '1'" },
      ],
    }));
    await evaluator.settle();
  });
  afterEach(async () => {
    await evaluator.stop();
    await database.close();
  });

  async function upload(digit: string, hostname: string, { index, firewall, groups }: { index: number; firewall: string; groups: string }) {
    const content = Buffer.from(minimalReport(`hostname=${hostname}`, `hardening_index=${index}`, `firewall_active=${firewall}`, `system-groups=${groups}`));
    const reading = readReportBytes(content);
    await new OrmReportStore(database).save({
      keyId,
      hostId: digit.repeat(40),
      receivedAt: new Date(),
      encoding: 'raw',
      size: content.length,
      sha256: 'a'.repeat(64),
      content,
      summary: reading?.summary ?? null,
      labels: reading?.labels,
    });
  }
  const host = (digit: string) => hostRecordId(keyId, digit.repeat(40));
  const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

  async function call(method: string, path: string, body?: unknown, query: Record<string, string> = {}) {
    const response = await admin.handle({
      method,
      path,
      query,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? { kind: 'none' } : { kind: 'json', value: body },
    });
    const text = typeof response.body === 'string' ? response.body : Buffer.from(response.body as Uint8Array).toString();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }
  const statuses = async () =>
    (await listResults(database, policyId, { limit: 100, offset: 0 })).items.map((result) => `${result.hostname} ${result.ruleId} ${result.status}`).sort();
  const expectCountsExact = async () => {
    const kept = await statusCounts(database, UNSCOPED);
    const grouped = await groupedCounts(database, new Date());
    expect(Object.fromEntries(kept.byRule)).toEqual(Object.fromEntries(grouped.byRule));
    expect(Object.fromEntries(kept.byPolicy)).toEqual(Object.fromEntries(grouped.byPolicy));
    expect(Object.fromEntries(await ruleCounts(database))).toEqual(Object.fromEntries(grouped.byRule));
  };

  it('waives a rule for every host the policy covers (neither host nor group), counts kept right', async () => {
    const created = await call('POST', '/api/admin/waivers', { policyId, ruleId: 'firewall', reason: 'Firewalled upstream', expiresAt: inDays(10) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ hostRecordId: null, group: null, hostname: null, policyName: 'Baseline', createdBy: 'ops-team' });
    expect(await statuses()).toEqual([
      'db-01 firewall waived',
      'db-01 index pass',
      'ok-01 firewall pass',
      'ok-01 index pass',
      'web-01 firewall waived',
      'web-01 index fail',
      'web-02 firewall waived',
      'web-02 index fail',
    ]);
    const { byRule, byPolicy } = await statusCounts(database, UNSCOPED);
    expect(byRule.get(`${policyId}\nfirewall`)).toEqual({ pass: 1, fail: 0, error: 0, waived: 3 });
    expect(byPolicy.get(policyId)).toEqual({ pass: 1, fail: 2, error: 0, waived: 1 });
    await expectCountsExact();
    // The whole policy for the fleet: nothing fails any more.
    await call('POST', '/api/admin/waivers', { policyId, reason: 'Audit postponed', expiresAt: inDays(10) });
    expect((await statusCounts(database, UNSCOPED)).byPolicy.get(policyId)).toEqual({ pass: 1, fail: 0, error: 0, waived: 3 });
    await expectCountsExact();
  });

  it('pages results in order with a fleet-wide and a host waiver together: each page a slice of the whole, each status part whole', async () => {
    await call('POST', '/api/admin/waivers', { policyId, ruleId: 'firewall', reason: 'Firewalled upstream', expiresAt: inDays(10) });
    await call('POST', '/api/admin/waivers', { policyId, ruleId: 'index', hostRecordId: host('1'), reason: 'Legacy kernel', expiresAt: inDays(10) });
    const line = (result: { hostname: string | null; ruleId: string; status: string }) => `${result.hostname} ${result.ruleId} ${result.status}`;
    const whole = await listResults(database, policyId, { limit: 100, offset: 0 });
    expect(whole.items.map(line)).toEqual([
      'web-02 index fail',
      'db-01 firewall waived',
      'web-01 firewall waived',
      'web-01 index waived',
      'web-02 firewall waived',
      'db-01 index pass',
      'ok-01 firewall pass',
      'ok-01 index pass',
    ]);
    const pages = [];
    for (let offset = 0; offset < whole.total; offset += 3) pages.push(...(await listResults(database, policyId, { limit: 3, offset })).items);
    expect(pages.map(line)).toEqual(whole.items.map(line));
    for (const status of ['fail', 'waived', 'pass'] as const) {
      const part = await listResults(database, policyId, { limit: 100, offset: 0, status });
      expect(part.items.map(line)).toEqual(whole.items.filter((result) => result.status === status).map(line));
      expect(part.total).toBe(part.items.length);
    }
    const firewall = await listResults(database, policyId, { limit: 100, offset: 0, ruleId: 'firewall', status: 'waived' });
    expect(firewall.items.map(line)).toEqual(['db-01 firewall waived', 'web-01 firewall waived', 'web-02 firewall waived']);
    // The whole policy for the fleet: the last failure is waived too, listed once although two waivers cover it.
    await call('POST', '/api/admin/waivers', { policyId, reason: 'Audit postponed', expiresAt: inDays(10) });
    expect((await listResults(database, policyId, { limit: 100, offset: 0, status: 'fail' })).total).toBe(0);
    expect((await listResults(database, policyId, { limit: 100, offset: 0, status: 'waived' })).items.map(line)).toEqual([
      'db-01 firewall waived',
      'web-01 firewall waived',
      'web-01 index waived',
      'web-02 firewall waived',
      'web-02 index waived',
    ]);
  });

  it('matches a group waiver to the hosts of that group whatever its case', async () => {
    const created = await call('POST', '/api/admin/waivers', { policyId, ruleId: 'index', group: 'WEB', reason: 'Legacy kernel', expiresAt: inDays(5) });
    expect(created.status).toBe(201);
    expect((await statuses()).filter((line) => line.includes(' index '))).toEqual([
      'db-01 index pass',
      'ok-01 index pass',
      'web-01 index waived',
      'web-02 index waived',
    ]);
    await expectCountsExact();
  });

  it("answers the server's maximum and refuses an expiry past it, in the past, or a host and a group at once", async () => {
    expect((await call('GET', '/api/admin/waivers')).body).toEqual({ maxDays: 30, items: [] });
    const tooLong = await call('POST', '/api/admin/waivers', { policyId, hostRecordId: host('1'), reason: 'x', expiresAt: inDays(31) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.detail).toMatch(/^expiresAt: a waiver may run for at most 30 days \(until \d{4}-/);
    const past = await call('POST', '/api/admin/waivers', { policyId, hostRecordId: host('1'), reason: 'x', expiresAt: inDays(-1) });
    expect(past.status).toBe(400);
    expect(past.body.detail).toMatch(/is not in the future/);
    const both = await call('POST', '/api/admin/waivers', { policyId, hostRecordId: host('1'), group: 'Web', reason: 'x', expiresAt: inDays(1) });
    expect(both.status).toBe(400);
    expect(both.body.detail).toMatch(/at most one of hostRecordId and group/);
    expect((await call('GET', '/api/admin/waivers')).body.items).toEqual([]);
  });

  it('waives for the hosts ticked, all or none, and lists each with its policy and host names', async () => {
    const body = { policyId, ruleId: 'index', reason: 'Replacing hardware', expiresAt: inDays(20) };
    const created = await call('POST', '/api/admin/waivers/bulk', { ...body, hosts: { ids: [host('1'), host('2')] } });
    expect(created).toEqual({ status: 201, body: { created: 2, hosts: 2 } });
    const listed = (await call('GET', '/api/admin/waivers')).body.items as { hostname: string; policyName: string; createdBy: string }[];
    expect(listed.map((waiver) => [waiver.hostname, waiver.policyName, waiver.createdBy]).sort()).toEqual([
      ['web-01', 'Baseline', 'ops-team'],
      ['web-02', 'Baseline', 'ops-team'],
    ]);
    // One unknown host, an unknown rule, an unknown policy: nothing is created.
    const unknownHost = await call('POST', '/api/admin/waivers/bulk', { ...body, hosts: { ids: [host('3'), UNKNOWN_ID] } });
    expect(unknownHost.status).toBe(404);
    expect(unknownHost.body.detail).toBe(`No host with id ${UNKNOWN_ID}`);
    const unknownRule = await call('POST', '/api/admin/waivers/bulk', { ...body, ruleId: 'nope', hosts: { ids: [host('3')] } });
    expect(unknownRule.status).toBe(400);
    expect(unknownRule.body.detail).toBe('The policy has no rule nope');
    expect((await call('POST', '/api/admin/waivers/bulk', { ...body, policyId: UNKNOWN_ID, hosts: { ids: [host('3')] } })).status).toBe(404);
    expect((await call('POST', '/api/admin/waivers/bulk', { ...body, hosts: { ids: [host('3')], filters: {} } })).status).toBe(400);
    expect((await call('GET', '/api/admin/waivers')).body.items).toHaveLength(2);
  });

  it("waives for the hosts the host list's filters select, and refuses more hosts than the limit", async () => {
    const body = { policyId, ruleId: 'firewall', reason: 'Firewalled upstream', expiresAt: inDays(20) };
    expect((await call('POST', '/api/admin/waivers/bulk', { ...body, hosts: { filters: { group: 'db' } } })).body).toEqual({ created: 2, hosts: 2 });
    expect((await statuses()).filter((line) => line.startsWith('db-01 firewall'))).toEqual(['db-01 firewall waived']);
    await expectCountsExact();
    // Past the limit (lowered here from 10,000): refused, nothing created.
    const refused = await createWaivers(database, UNSCOPED, { ...body, hosts: { filters: {} } }, null, new Date(), { maxDays: 30, maxHosts: 3 }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      code: 'invalid',
      message: 'hosts: more than 3 hosts selected; waive the rule for a group or for every host (the fleet) instead',
    });
    expect((await call('GET', '/api/admin/waivers')).body.items).toHaveLength(2);
    const tooLong = await call('POST', '/api/admin/waivers/bulk', { ...body, expiresAt: inDays(40), hosts: { filters: {} } });
    expect(tooLong.status).toBe(400);
  });
});
