import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openApiDocument, readReportBytes } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import type {
  FindingGroupPage,
  HostCompliance,
  HostPage,
  Overview,
  PolicyList,
  PolicyResultPage,
  RejectionPage,
  ReportPage,
  StatusCounts,
  WaiverList,
} from '../generated/types.gen.js';
import { openDatabase, type Database } from '../database/open.js';
import { AdminTokenRecord } from '../database/entities.js';
import { hostRecordId } from '../hosts/host-records.js';
import { scopeColumns, UNSCOPED, type AccessScope } from '../people/scope.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { createPolicy } from '../policies/policy-records.js';
import { createWaiver } from '../policies/waivers.js';
import { RejectionLog } from '../refusals/rejection-log.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { createAdminApi, type AdminApi } from './api.js';
import { sqlDialectOf } from '../database/dialects.js';
import { hostColumnsOf } from '../webhooks/deliveries.js';
import { createWebhook } from '../webhooks/webhook-records.js';

const DAY_MS = 86_400_000;

/**
 * Five hosts, each sending two Lynis reports. Acme's two hosts, Initech's one in group `Finance` (a scope's groups
 * compare case-insensitively), and Globex's two, which no scope below covers: their names, `hostid`s and findings
 * are distinctive, so that any answer naming them is caught.
 */
const HOSTS = {
  acmeWeb: { name: 'acme-web-01', customer: 'acme', groups: 'web', index: 70, warnings: ['ACME-1'] },
  acmeDb: { name: 'acme-db-01', customer: 'acme', groups: 'db,finance', index: 50, warnings: ['ACME-1', 'ACME-2'] },
  initech: { name: 'initech-app-01', customer: 'initech', groups: 'Finance', index: 40, warnings: ['INIT-1'] },
  globexVault: { name: 'globex-vault-01', customer: 'globex', groups: 'db', index: 30, warnings: ['GLOBEX-1', 'ACME-1'] },
  globexWeb: { name: 'globex-web-02', customer: 'globex', groups: 'web', index: 90, warnings: ['GLOBEX-2'] },
} as const;
type HostName = keyof typeof HOSTS;
const GLOBEX: HostName[] = ['globexVault', 'globexWeb'];

/** Each scope tested, with the hosts it covers. */
const SCOPES: { name: string; scope: AccessScope; visible: HostName[] }[] = [
  { name: 'customer acme', scope: { customers: ['acme'], groups: [] }, visible: ['acmeWeb', 'acmeDb'] },
  { name: 'group finance', scope: { customers: [], groups: ['finance'] }, visible: ['acmeDb', 'initech'] },
  { name: 'customer acme or group FINANCE', scope: { customers: ['acme'], groups: ['FINANCE'] }, visible: ['acmeWeb', 'acmeDb', 'initech'] },
];

const hostIdOf = (name: HostName) => `${name.toLowerCase()}-hostid-${'0'.repeat(20)}`;

/** A Lynis report of one of {@link HOSTS}. */
function lynisReport(name: HostName): string {
  const host = HOSTS[name];
  return [
    'report_version_major=1',
    'lynis_version=3.0.8',
    `hostname=${host.name}`,
    `hardening_index=${host.index}`,
    'os_fullname=Debian GNU/Linux 12',
    `system-groups=${host.groups}`,
    `system-customer-name=${host.customer}`,
    ...host.warnings.map((testId) => `warning[]=${testId}|${testId.startsWith('GLOBEX') ? 'Globex secret finding' : 'A warning'}|-|-|`),
    '',
  ].join('\n');
}

/** A GET of an admin path as the HTTP adapters hand it over: the status and the body as text (streamed ones read whole). */
async function get(api: AdminApi, token: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(path, 'http://admin');
  const query = Object.fromEntries(url.searchParams);
  const response = await api.handle({ method: 'GET', path: url.pathname, query, headers: { authorization: `Bearer ${token}` }, body: { kind: 'none' } });
  const body = response.body instanceof Readable ? await text(response.body) : String(response.body);
  return { status: response.status, body };
}

/** Every GET operation of the admin API in the contract, with its path template. */
const GET_OPERATIONS = Object.entries(openApiDocument.paths ?? {}).flatMap(([path, item]) => {
  const operation = (item as { get?: { operationId?: string } }).get;
  return path.startsWith('/api/admin/') && operation?.operationId ? [{ operationId: operation.operationId, path }] : [];
});

/** The paths of the operations that read hosts or what they sent (with their ids filled, each answers the scope's host). */
const HOST_READS = /^\/api\/admin\/(hosts|reports|findings|overview|facets|rejections|policies|waivers|webhooks|exports\/(hosts|findings))/;

describe.each(DIALECTS)('scoped access on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let api: AdminApi;
  let admin: string;
  let policyId: string;
  let keyId: string;
  let webhookId: string;
  const ids = {} as Record<HostName, string>;
  const reports = {} as Record<HostName, string[]>;

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token: admin } = await createAdminToken(database, { label: 'unscoped' }));
    keyId = (await createKey(database, { label: 'Production' })).id;
    api = await createAdminApi({ database });
    policyId = (
      await createPolicy(database, {
        name: 'Hardening',
        rules: [
          { id: 'index', expression: 'summary.hardeningIndex >= 60' },
          { id: 'warnings', expression: 'size(summary.warnings) == 0' },
        ],
      })
    ).id;
    const store = new OrmReportStore(database);
    let clock = new Date(Date.now() - 120_000);
    for (let round = 0; round < 2; round++) {
      for (const name of Object.keys(HOSTS) as HostName[]) {
        const content = Buffer.from(lynisReport(name));
        const reading = readReportBytes(content);
        const saved = await store.save({
          ...{ keyId, hostId: hostIdOf(name), receivedAt: clock, encoding: 'raw', size: content.length, sha256: 'a'.repeat(64), content },
          ...{ summary: reading?.summary ?? null, labels: reading?.labels },
        });
        ids[name] = hostRecordId(keyId, hostIdOf(name));
        (reports[name] ??= []).push(saved.id);
        clock = new Date(clock.getTime() + 1000);
      }
    }
    const evaluator = new PolicyEvaluator(database, { now: () => new Date(), clockRecheckMs: 60_000 });
    try {
      await evaluator.settle();
    } finally {
      await evaluator.stop();
    }
    const expiresAt = new Date(Date.now() + DAY_MS).toISOString();
    for (const name of ['acmeDb', 'globexVault'] as const)
      await createWaiver(database, UNSCOPED, { policyId, ruleId: 'warnings', hostRecordId: ids[name], reason: `known on ${name}`, expiresAt }, null);
    await createWaiver(database, UNSCOPED, { policyId, ruleId: 'index', group: 'db', reason: 'replacing the databases', expiresAt }, null);
    // Refused uploads naming every host's hostid, and one naming a hostid no host has.
    const log = new RejectionLog(database, { warn: () => {}, error: () => {}, info: () => {} });
    for (const hostId of [...(Object.keys(HOSTS) as HostName[]).map(hostIdOf), 'unknown-hostid'])
      log.record({ operation: 'uploadReport', reason: 'invalid-data', status: 400, keyId, hostId, remoteAddress: '192.0.2.7' });
    await log.flush();
    // A subscription whose log holds a delivery about every host, and one about no one host that names them all.
    webhookId = (await createWebhook(database, { url: 'https://receiver.example.org/hook', events: ['report.stored', 'uploads.refused'] })).webhook.id;
    const time = sqlDialectOf(database.em).toDatabaseTime(new Date());
    const delivery = (eventType: string, data: Record<string, unknown>) => ({
      ...{
        id: randomUUID(),
        webhook_id: webhookId,
        event_id: `evt_${randomUUID()}`,
        event_type: eventType,
        payload: JSON.stringify({ type: eventType, data }),
      },
      ...hostColumnsOf(data),
      ...{ status: 'delivered', attempts: 1, last_status_code: 200, created_at: time, delivered_at: time },
    });
    await database.em
      .getKnex()('webhook_delivery')
      .insert([
        ...(Object.keys(HOSTS) as HostName[]).map((name) =>
          delivery('report.stored', { hostRecordId: ids[name], hostname: HOSTS[name].name, hostId: hostIdOf(name) }),
        ),
        delivery('uploads.refused', { keyId, hostIds: (Object.keys(HOSTS) as HostName[]).map(hostIdOf) }),
      ]);
  });
  afterEach(() => database.close());

  /** A token with this scope, set in the database as the users and tokens API stores it. */
  async function scopedToken(scope: AccessScope): Promise<string> {
    const { id, token } = await createAdminToken(database, { label: 'scoped', role: 'operator' });
    await database.em.fork().nativeUpdate(AdminTokenRecord, { id }, scopeColumns(scope));
    return token;
  }
  async function ok<T>(token: string, path: string): Promise<T> {
    const { status, body } = await get(api, token, path);
    expect(status, `${path}: ${body}`).toBe(200);
    return JSON.parse(body) as T;
  }
  /** Every text that tells a host is there: its id, host name, `hostid`, reports' ids and findings' test ids. */
  const tellTales = (name: HostName) => [
    ids[name],
    HOSTS[name].name,
    hostIdOf(name),
    ...reports[name],
    ...HOSTS[name].warnings.filter((id) => id.startsWith('GLOBEX')),
  ];
  /** The path of an operation with its path parameters filled: a host's or report's of `host`, the policy, else an unknown id. */
  const pathOf = (template: string, host: HostName) =>
    template.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'hostRecordId'
        ? ids[host]
        : name === 'reportId'
          ? reports[host].at(-1)!
          : name === 'policyId'
            ? policyId
            : name === 'webhookId'
              ? webhookId
              : '00000000-0000-4000-8000-000000000000',
    );

  describe.each(SCOPES)('a token scoped to $name', ({ scope, visible }) => {
    const hidden = () => (Object.keys(HOSTS) as HostName[]).filter((name) => !visible.includes(name));

    it('gets no answer of any GET operation that names a host out of scope, and 404 for one asked by id', async () => {
      const token = await scopedToken(scope);
      expect(GET_OPERATIONS.length).toBeGreaterThan(20);
      for (const { operationId, path } of GET_OPERATIONS) {
        for (const host of [visible[0]!, ...hidden()]) {
          const { status, body } = await get(api, token, pathOf(path, host));
          if (/\{(hostRecordId|reportId)\}/.test(path) && !visible.includes(host)) {
            expect(status, `${operationId} of ${host}`).toBe(404);
            continue;
          }
          // Every read of hosts, reports, findings, results and refusals answers; the others (sign-in steps) need not.
          if (HOST_READS.test(path)) expect(status, `${operationId}: ${body}`).toBe(200);
          expect(status, `${operationId}: ${body}`).toBeLessThan(500);
          for (const other of hidden()) for (const tale of tellTales(other)) expect(body, `${operationId} names ${other}`).not.toContain(tale);
        }
      }
    });

    it("counts only its hosts: lists' totals, the overview, facets, findings, policy counts, results, waivers, refusals and exports", async () => {
      const token = await scopedToken(scope);
      const hosts = await ok<HostPage>(token, '/api/admin/hosts?limit=100');
      expect(hosts.items.map((host) => host.id).sort()).toEqual(visible.map((name) => ids[name]).sort());
      expect(hosts.total).toBe(visible.length);
      // Sorted by compliance, the unscoped list reads its parts' sizes from the fleet's counts: a scope counts its own.
      expect((await ok<HostPage>(token, '/api/admin/hosts?limit=1&sort=compliance')).total).toBe(visible.length);
      expect(
        (await ok<HostPage>(token, '/api/admin/hosts?limit=100&compliance=noncompliant')).items.every((host) => visible.some((name) => ids[name] === host.id)),
      ).toBe(true);

      const reportPage = await ok<ReportPage>(token, '/api/admin/reports?limit=100');
      expect(reportPage.total).toBe(2 * visible.length);

      const overview = await ok<Overview>(token, '/api/admin/overview');
      expect(overview.hosts.total).toBe(visible.length);
      expect(overview.hardeningIndex.distribution.reduce((sum, bucket) => sum + bucket.hosts, 0)).toBe(visible.length);
      expect(overview.operatingSystems).toEqual([{ name: 'Debian GNU/Linux 12', hosts: visible.length }]);
      expect(overview.hardeningTrend.reduce((sum, day) => sum + day.reports, 0)).toBe(2 * visible.length);
      expect(overview.uploadsPerDay.reduce((sum, day) => sum + day.refused, 0)).toBe(visible.length);
      expect(overview.compliance.evaluatedHosts).toBe(visible.length);
      const warnings = new Map<string, number>();
      for (const name of visible) for (const testId of HOSTS[name].warnings) warnings.set(testId, (warnings.get(testId) ?? 0) + 1);
      expect(Object.fromEntries(overview.topWarnings.map((finding) => [finding.testId, finding.hosts]))).toEqual(Object.fromEntries(warnings));

      const findings = await ok<FindingGroupPage>(token, '/api/admin/findings?limit=100');
      expect(findings.total).toBe(warnings.size);

      const facets = await ok<Record<string, { value: string; hosts: number }[]>>(token, '/api/admin/facets');
      expect(facets['customer']!.reduce((sum, facet) => sum + facet.hosts, 0)).toBe(visible.length);
      expect(facets['key']!.reduce((sum, facet) => sum + facet.hosts, 0)).toBe(visible.length);

      const [policy] = (await ok<PolicyList>(token, '/api/admin/policies')).items;
      const { pass, fail, error, waived } = policy!.hosts;
      expect(pass + fail + error + waived).toBe(visible.length);
      for (const rule of policy!.rules) expect(Object.values(rule.results).reduce((sum, count) => sum + count, 0)).toBe(visible.length);
      // The same figures as the unscoped admin reads them host by host (waivers applied): by rule, and each host's worst.
      const byRule = new Map<string, StatusCounts>();
      const worst: StatusCounts = { pass: 0, fail: 0, error: 0, waived: 0 };
      for (const name of visible) {
        const compliance = await ok<HostCompliance>(admin, `/api/admin/hosts/${ids[name]}/compliance`);
        for (const result of compliance.results) {
          const counts = byRule.get(result.ruleId) ?? { pass: 0, fail: 0, error: 0, waived: 0 };
          counts[result.status] += 1;
          byRule.set(result.ruleId, counts);
        }
        worst[compliance.status!] += 1;
      }
      expect(Object.fromEntries(policy!.rules.map((rule) => [rule.id, rule.results]))).toEqual(Object.fromEntries(byRule));
      expect(policy!.hosts).toEqual(worst);
      expect(overview.compliance.hosts).toEqual(worst);
      for (const query of ['', '&sort=hostname', '&status=fail']) {
        const results = await ok<PolicyResultPage>(token, `/api/admin/policies/${policyId}/results?limit=100${query}`);
        expect(results.items.every((result) => visible.some((name) => ids[name] === result.hostRecordId))).toBe(true);
        expect(results.total).toBe(results.items.length);
      }
      expect((await ok<PolicyResultPage>(token, `/api/admin/policies/${policyId}/results?limit=100`)).total).toBe(2 * visible.length);

      const waivers = await ok<WaiverList>(token, '/api/admin/waivers');
      expect(waivers.items.map((waiver) => waiver.hostRecordId).sort()).toEqual(
        [null, ...(['acmeDb'] as HostName[]).filter((name) => visible.includes(name)).map((name) => ids[name])].sort(),
      );

      const rejections = await ok<RejectionPage>(token, '/api/admin/rejections?limit=100');
      expect(rejections.items.map((item) => item.hostId).sort()).toEqual(visible.map(hostIdOf).sort());
      expect(rejections.total).toBe(visible.length);

      const exported = JSON.parse((await get(api, token, '/api/admin/exports/hosts?format=json')).body) as { id: string }[];
      expect(exported.map((row) => row.id).sort()).toEqual(visible.map((name) => ids[name]).sort());
      const exportedFindings = JSON.parse((await get(api, token, '/api/admin/exports/findings?format=json')).body) as { hostRecordId: string }[];
      expect(new Set(exportedFindings.map((row) => row.hostRecordId))).toEqual(new Set(visible.map((name) => ids[name])));
      const history = JSON.parse((await get(api, token, `/api/admin/exports/hosts/${ids[visible[0]!]}/history?format=json`)).body) as unknown[];
      expect(history).toHaveLength(2);
    });

    it('cannot waive, accept or diff against a host out of scope: 404 as if it did not exist', async () => {
      const token = await scopedToken(scope);
      const globex = ids.globexVault;
      const post = (path: string, body: unknown) =>
        api.handle({ method: 'POST', path, query: {}, headers: { authorization: `Bearer ${token}` }, body: { kind: 'json', value: body } });
      const expiresAt = new Date(Date.now() + DAY_MS).toISOString();
      expect((await post('/api/admin/waivers', { policyId, hostRecordId: globex, reason: 'x', expiresAt })).status).toBe(404);
      expect((await post('/api/admin/waivers/bulk', { policyId, hosts: { ids: [globex] }, reason: 'x', expiresAt })).status).toBe(404);
      expect((await post(`/api/admin/hosts/${globex}/identity/accept`, { hostId2: null })).status).toBe(404);
      const diff = await get(api, token, `/api/admin/reports/${reports[visible[0]!].at(-1)!}/diff?against=${reports.globexVault.at(-1)!}`);
      expect(diff.status).toBe(404);
      // A bulk waiver by filters selects among the scope's hosts only.
      const bulk = await post('/api/admin/waivers/bulk', { policyId, hosts: { filters: {} }, reason: 'x', expiresAt });
      expect(bulk.status).toBe(201);
      expect(JSON.parse(bulk.body as string)).toMatchObject({ hosts: visible.length });
      const [globexWaiver] = (await ok<WaiverList>(admin, '/api/admin/waivers')).items.filter((waiver) => waiver.hostRecordId === globex);
      const deleted = await api.handle({
        method: 'DELETE',
        path: `/api/admin/waivers/${globexWaiver!.id}`,
        query: {},
        headers: { authorization: `Bearer ${token}` },
        body: { kind: 'none' },
      });
      expect(deleted.status).toBe(404);
    });

    it('cannot make or delete a waiver of a group or of the fleet, which would reach hosts beyond its scope: 400 saying why', async () => {
      const token = await scopedToken(scope);
      const call = (method: string, path: string, body?: unknown) =>
        api.handle({
          method,
          path,
          query: {},
          headers: { authorization: `Bearer ${token}` },
          body: body === undefined ? { kind: 'none' } : { kind: 'json', value: body },
        });
      const expiresAt = new Date(Date.now() + DAY_MS).toISOString();
      for (const terms of [{}, { group: 'finance' }]) {
        const refused = await call('POST', '/api/admin/waivers', { policyId, reason: 'x', expiresAt, ...terms });
        expect(refused.status).toBe(400);
        expect(JSON.parse(refused.body as string)).toMatchObject({ detail: expect.stringMatching(/only waivers of its own hosts/) });
      }
      const fleetWide = (await ok<WaiverList>(token, '/api/admin/waivers')).items.filter((waiver) => waiver.hostRecordId === null);
      expect(fleetWide.length).toBeGreaterThan(0);
      for (const waiver of fleetWide) expect((await call('DELETE', `/api/admin/waivers/${waiver.id}`)).status).toBe(400);
      expect((await ok<WaiverList>(admin, '/api/admin/waivers')).items.filter((waiver) => waiver.hostRecordId === null)).toHaveLength(fleetWide.length);
    });
  });

  it('an unscoped admin sees every host, report and refusal', async () => {
    const all = Object.keys(HOSTS) as HostName[];
    expect((await ok<HostPage>(admin, '/api/admin/hosts?limit=100')).total).toBe(all.length);
    expect((await ok<ReportPage>(admin, '/api/admin/reports?limit=100')).total).toBe(2 * all.length);
    expect((await ok<Overview>(admin, '/api/admin/overview')).hosts.total).toBe(all.length);
    expect((await ok<RejectionPage>(admin, '/api/admin/rejections?limit=100')).total).toBe(all.length + 1);
    for (const name of GLOBEX) expect((await get(api, admin, `/api/admin/hosts/${ids[name]}`)).status).toBe(200);
  });

  it('sees no host at all through a stored scope it cannot read, never every host', async () => {
    const { id, token } = await createAdminToken(database, { label: 'damaged scope', role: 'viewer' });
    await database.em.fork().nativeUpdate(AdminTokenRecord, { id }, { scopeCustomers: 'not a JSON list', scopeGroups: null });
    expect((await ok<HostPage>(token, '/api/admin/hosts?limit=100')).total).toBe(0);
    expect((await ok<Overview>(token, '/api/admin/overview')).hosts.total).toBe(0);
    expect((await get(api, token, `/api/admin/hosts/${ids.acmeWeb}`)).status).toBe(404);
  });

  it("follows a host's newest report: a host that moves to another customer leaves the scope", async () => {
    const token = await scopedToken({ customers: ['acme'], groups: [] });
    expect((await get(api, token, `/api/admin/hosts/${ids.acmeWeb}`)).status).toBe(200);
    const content = Buffer.from(lynisReport('acmeWeb').replace('system-customer-name=acme', 'system-customer-name=globex'));
    const reading = readReportBytes(content);
    await new OrmReportStore(database).save({
      ...{ keyId, hostId: hostIdOf('acmeWeb'), receivedAt: new Date(), encoding: 'raw', size: content.length, sha256: 'b'.repeat(64), content },
      ...{ summary: reading?.summary ?? null, labels: reading?.labels },
    });
    expect((await get(api, token, `/api/admin/hosts/${ids.acmeWeb}`)).status).toBe(404);
    expect((await ok<HostPage>(token, '/api/admin/hosts?limit=100')).total).toBe(1);
  });
});
