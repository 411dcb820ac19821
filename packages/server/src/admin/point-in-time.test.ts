import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import type { Host, HostPage, Overview, PolicyResult } from '../generated/types.gen.js';
import { UNSCOPED } from '../people/scope.js';
import { createWaiver } from '../policies/waivers.js';
import { hostRecordId } from '../hosts/host-records.js';
import { hostRowPagesAsOf } from '../hosts/hosts-as-of.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { createPolicy, updatePolicy } from '../policies/policy-records.js';
import { storeLynisText } from '../reports/lynis-upload.test-kit.js';
import { OrmReportStore } from '../reports/report-store.js';
import { parseCsvObjects } from '../exports/csv-reader.test-kit.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { asOfMoment } from './as-of.js';
import { createAdminApi, type AdminApi } from './api.js';

/** A Lynis report: hardening index, firewall and warnings as given. */
function lynisReport(hostname: string, { index, firewall = '1', warnings = [] as string[] }: { index: number; firewall?: string; warnings?: string[] }) {
  return [
    'report_version_major=1',
    'report_version_minor=0',
    'lynis_version=3.0.8',
    `hostname=${hostname}`,
    `hardening_index=${index}`,
    `firewall_active=${firewall}`,
    ...warnings.map((testId) => `warning[]=${testId}|Warning ${testId}|-|-|`),
    '',
  ].join('\n');
}

/** Noon (UTC) of a day of October 2026, or so many minutes after. */
const noon = (day: number, minutes = 0) => new Date(Date.parse(`2026-10-${String(day).padStart(2, '0')}T12:00:00.000Z`) + minutes * 60_000);

/**
 * Three days of reports, each day's evaluated half an hour after they arrive, under policy "Floor" (revision 1 from
 * 30 Sep: hardening index at least 58, firewall on; revision 2 from 3 Oct 06:00: the floor and no warnings):
 * - 1 Oct: alpha 60 (AUTH-9286), beta 50 (AUTH-9286, SSH-7408): alpha passes, beta fails the floor.
 * - 2 Oct: beta 55, firewall off (SSH-7408): beta fails both rules, its AUTH-9286 resolved.
 * - 3 Oct: alpha 80 (no warning; its AUTH-9286 resolved), gamma 70 (first seen): both pass; beta fails the floor
 *   and no-warnings.
 */
const DAYS: { day: number; reports: [string, Parameters<typeof lynisReport>[1]][] }[] = [
  {
    day: 1,
    reports: [
      ['alpha', { index: 60, warnings: ['AUTH-9286'] }],
      ['beta', { index: 50, warnings: ['AUTH-9286', 'SSH-7408'] }],
    ],
  },
  { day: 2, reports: [['beta', { index: 55, firewall: '0', warnings: ['SSH-7408'] }]] },
  {
    day: 3,
    reports: [
      ['alpha', { index: 80 }],
      ['gamma', { index: 70 }],
    ],
  },
];

const HOUR_MS = 3_600_000;
const FLOOR = { id: 'floor', expression: 'summary.hardeningIndex >= 58' };
const FIREWALL = { id: 'firewall', expression: "report.firewall_active == '1'" };
const NO_WARNINGS = { id: 'no-warnings', expression: 'size(summary.warnings) == 0' };

describe('the at parameter', () => {
  const now = new Date('2026-11-26T10:00:00.000Z');
  it('reads a date as the end of that UTC day and a date-time as that instant', () => {
    expect(asOfMoment('2026-10-01', now)?.toISOString()).toBe('2026-10-01T23:59:59.999Z');
    expect(asOfMoment('2026-10-01T08:30:00+02:00', now)?.toISOString()).toBe('2026-10-01T06:30:00.000Z');
    expect(asOfMoment('2026-11-26T09:59Z', now)?.toISOString()).toBe('2026-11-26T09:59:00.000Z');
    expect(asOfMoment(undefined, now)).toBeUndefined();
  });
  it('refuses a date that does not exist, other text and a moment to come', () => {
    for (const bad of ['2026-02-30', '2026-13-01', 'yesterday', '2026-10-01T25:00Z', '2026-11-26T10:00:01Z', '2026-11-27']) {
      expect(() => asOfMoment(bad, now), bad).toThrow(/^at: /);
    }
    // Today is not over yet: its end is to come.
    expect(() => asOfMoment('2026-11-26', now)).toThrow(/future/);
  });
});

describe.each(DIALECTS)('answers as of a past moment on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let api: AdminApi;
  let token: string;
  let keyId: string;
  let store: OrmReportStore;
  let clock: Date;
  let evaluator: PolicyEvaluator;
  let policyId: string;
  const reportIds = new Map<string, string>();

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token } = await createAdminToken(database, { label: 'tests', role: 'viewer' }));
    ({ id: keyId } = await createKey(database));
    api = await createAdminApi({ database });
    store = new OrmReportStore(database);
    clock = noon(1);
    evaluator = new PolicyEvaluator(database, { now: () => clock, clockRecheckMs: 60_000 });
    ({ id: policyId } = await createPolicy(database, { name: 'Floor', rules: [FLOOR, FIREWALL] }, new Date('2026-09-30T00:00:00.000Z')));
    for (const { day, reports } of DAYS) {
      if (day === 3) await updatePolicy(database, policyId, { name: 'Floor', rules: [FLOOR, NO_WARNINGS] }, new Date(noon(3).getTime() - 6 * HOUR_MS));
      for (const [host, report] of reports) await upload(host, lynisReport(host, report), noon(day));
      clock = noon(day, 30);
      await evaluator.settle();
    }
  });
  afterEach(async () => {
    await evaluator.stop();
    await database.close();
  });

  async function upload(host: string, report: string, receivedAt: Date): Promise<void> {
    await storeLynisText(store, { keyId, hostId: host, text: report, receivedAt });
    const [latest] = (await database.em.getKnex()('host').select('latest_report_id').where('id', id(host))) as { latest_report_id: string }[];
    reportIds.set(`${host} ${receivedAt.getUTCDate()}`, latest!.latest_report_id);
  }
  const id = (host: string) => hostRecordId(keyId, host);

  /** GETs an admin path: the status and the body as text (streamed ones read whole). */
  async function get(path: string): Promise<{ status: number; body: string }> {
    const url = new URL(path, 'http://admin');
    const query = Object.fromEntries(url.searchParams);
    const response = await api.handle({ method: 'GET', path: url.pathname, query, headers: { authorization: `Bearer ${token}` }, body: { kind: 'none' } });
    const body = response.body instanceof Readable ? await text(response.body) : String(response.body);
    return { status: response.status, body };
  }
  async function json<T>(path: string): Promise<T> {
    const { status, body } = await get(path);
    expect(status, body).toBe(200);
    return JSON.parse(body) as T;
  }

  /** A host's figures as the list shows them. */
  const figures = (host: Host) => ({
    hostname: host.hostname,
    lastSeen: host.lastSeen,
    reportCount: host.reportCount,
    latestReportId: host.latestReportId,
    latestHardeningIndex: host.latestHardeningIndex,
    latestWarningCount: host.latestWarningCount,
    compliance: host.compliance,
  });
  const ALPHA_1 = () => ({
    hostname: 'alpha',
    lastSeen: noon(1).toISOString(),
    reportCount: 1,
    latestReportId: reportIds.get('alpha 1'),
    latestHardeningIndex: 60,
    latestWarningCount: 1,
    compliance: 'compliant',
  });
  const BETA_2 = () => ({
    hostname: 'beta',
    lastSeen: noon(2).toISOString(),
    reportCount: 2,
    latestReportId: reportIds.get('beta 2'),
    latestHardeningIndex: 55,
    latestWarningCount: 1,
    compliance: 'noncompliant',
  });

  it('lists the hosts that had reported by then, with the figures of their latest report then, and a later report changes nothing', async () => {
    const expected = [BETA_2(), ALPHA_1()];
    const asOf = async (query = '') => json<HostPage>(`/api/admin/hosts?at=2026-10-02${query}`);
    const before = await asOf();
    expect(before.total).toBe(2);
    expect(before.items.map(figures)).toEqual(expected);
    // The record's own columns (its id, key, hostid) stay as they are.
    expect(before.items.map((host) => [host.id, host.keyId, host.hostId])).toEqual([
      [id('beta'), keyId, 'beta'],
      [id('alpha'), keyId, 'alpha'],
    ]);
    // A moment within a day: alpha and beta had reported once.
    const first = await json<HostPage>(`/api/admin/hosts?at=2026-10-02T11:00:00Z&sort=hardeningIndex`);
    expect(first.items.map((host) => [host.hostname, host.latestHardeningIndex, host.reportCount, host.compliance])).toEqual([
      ['alpha', 60, 1, 'compliant'],
      ['beta', 50, 1, 'noncompliant'],
    ]);
    // Now, for comparison: three hosts, alpha at 80.
    const current = await json<HostPage>('/api/admin/hosts?sort=hostname&order=asc');
    expect(current.items.map((host) => [host.hostname, host.latestHardeningIndex])).toEqual([
      ['alpha', 80],
      ['beta', 55],
      ['gamma', 70],
    ]);

    await upload('beta', lynisReport('beta', { index: 90 }), noon(20));
    clock = new Date(noon(20).getTime() + 1_800_000);
    await evaluator.settle();
    expect((await asOf()).items.map(figures)).toEqual(expected);
    // Sorted, filtered and paged as of then.
    const byName = await asOf('&sort=hostname&order=asc&limit=1&offset=1');
    expect([byName.total, byName.items.map((host) => host.hostname)]).toEqual([2, ['beta']]);
    expect((await asOf('&hostname=ALP')).items.map((host) => host.hostname)).toEqual(['alpha']);
    expect((await asOf(`&ids=${id('gamma')}`)).total).toBe(0);
  });

  it('exports the hosts as of then in the order of the list, as CSV and JSON', async () => {
    const rows = JSON.parse((await get('/api/admin/exports/hosts?format=json&at=2026-10-02&sort=hostname&order=asc')).body) as Record<string, unknown>[];
    expect(rows.map((row) => [row.hostname, row.lastSeen, row.reportCount, row.hardeningIndex, row.warnings, row.compliance, row.failingRules])).toEqual([
      ['alpha', noon(1).toISOString(), 1, 60, 1, 'compliant', []],
      ['beta', noon(2).toISOString(), 2, 55, 1, 'noncompliant', ['Floor/firewall', 'Floor/floor']],
    ]);
    const csv = parseCsvObjects((await get('/api/admin/exports/hosts?at=2026-10-01&sort=hostname&order=asc')).body);
    expect(csv.map((row) => [row.hostname, row.hardeningIndex, row.compliance, row.failingRules])).toEqual([
      ['alpha', '60', 'compliant', ''],
      ['beta', '50', 'noncompliant', 'Floor/floor'],
    ]);
  });

  it('gives the overview as of then: hosts, hardening, trends ending then, findings and compliance then', async () => {
    const overview = async () => json<Overview>('/api/admin/overview?at=2026-10-02');
    const before = await overview();
    expect(before.asOf).toBe('2026-10-02T23:59:59.999Z');
    expect(before.hosts).toEqual({ total: 2, seenLast24h: 1, seenLast7d: 2, stale: 0, decommissioned: 0 });
    // alpha 60, beta 55.
    expect([before.hardeningIndex.average, before.hardeningIndex.median, before.hardeningIndex.unknown]).toEqual([57.5, 57.5, 0]);
    expect(before.hardeningIndex.distribution.filter((bucket) => bucket.hosts > 0)).toEqual([
      { from: 50, to: 59, hosts: 1 },
      { from: 60, to: 69, hosts: 1 },
    ]);
    expect(before.hardeningTrend).toEqual([
      { day: '2026-10-01', average: 55, reports: 2 },
      { day: '2026-10-02', average: 55, reports: 1 },
    ]);
    expect(before.uploadsPerDay).toHaveLength(30);
    expect([before.uploadsPerDay[0]!.day, before.uploadsPerDay.at(-1)]).toEqual(['2026-09-03', { day: '2026-10-02', accepted: 1, refused: 0 }]);
    expect(before.uploadsPerDay.at(-2)).toEqual({ day: '2026-10-01', accepted: 2, refused: 0 });
    // alpha's AUTH-9286 open until 3 Oct, beta's resolved on 2 Oct; beta's SSH-7408 open.
    expect(before.topWarnings.map((finding) => [finding.testId, finding.hosts, finding.text])).toEqual([
      ['AUTH-9286', 1, 'Warning AUTH-9286'],
      ['SSH-7408', 1, 'Warning SSH-7408'],
    ]);
    expect(before.topSuggestions).toEqual([]);
    expect(before.lynisVersions).toEqual([{ name: '3.0.8', hosts: 2 }]);
    expect(before.staleHosts).toEqual([]);
    expect([before.compliance.policies, before.compliance.evaluatedHosts, before.compliance.hosts, before.compliance.rate]).toEqual([
      1,
      2,
      { pass: 1, fail: 1, error: 0, waived: 0 },
      0.5,
    ]);
    // The days measured by then only.
    expect(before.compliance.trend.map((day) => day.day).every((day) => day <= '2026-10-02')).toBe(true);

    // Now, for comparison: three hosts, beta alone failing.
    const current = await json<Overview>('/api/admin/overview');
    expect([current.asOf, current.hosts.total, current.compliance.hosts.pass, current.compliance.hosts.fail]).toEqual([null, 3, 2, 1]);

    await upload('beta', lynisReport('beta', { index: 90 }), noon(20));
    clock = new Date(noon(20).getTime() + 1_800_000);
    await evaluator.settle();
    const after = await overview();
    expect({ ...after, generatedAt: before.generatedAt }).toEqual(before);
  });

  it("gives a policy's results as of then, under the version in force then", async () => {
    type Results = { items: PolicyResult[]; total: number };
    const results = (query: string) => json<Results>(`/api/admin/policies/${policyId}/results?${query}`);
    const row = (result: PolicyResult) => [result.hostname, result.ruleId, result.status, result.value, result.reportId, result.since, result.policyRevision];
    const before = await results('at=2026-10-02');
    expect(before.total).toBe(4);
    // Revision 1's rules; failures first, then by host name and rule.
    expect(before.items.map(row)).toEqual([
      ['beta', 'firewall', 'fail', '"0"', reportIds.get('beta 2'), noon(2, 30).toISOString(), 1],
      // Failing since 1 Oct: the change then is the latest, with that report's value.
      ['beta', 'floor', 'fail', '50', reportIds.get('beta 1'), noon(1, 30).toISOString(), 1],
      ['alpha', 'firewall', 'pass', '"1"', reportIds.get('alpha 1'), noon(1, 30).toISOString(), 1],
      ['alpha', 'floor', 'pass', '60', reportIds.get('alpha 1'), noon(1, 30).toISOString(), 1],
    ]);
    // Now: revision 2's rules, gamma too.
    const current = await results('sort=hostname&order=asc');
    expect(current.items.map((result) => [result.hostname, result.ruleId, result.status])).toEqual([
      ['alpha', 'floor', 'pass'],
      ['alpha', 'no-warnings', 'pass'],
      ['beta', 'floor', 'fail'],
      ['beta', 'no-warnings', 'fail'],
      ['gamma', 'floor', 'pass'],
      ['gamma', 'no-warnings', 'pass'],
    ]);
    // Filtered, sorted and paged as of then.
    const failing = await results('at=2026-10-02&status=fail&sort=rule&order=desc&limit=1');
    expect([failing.total, failing.items.map((result) => [result.hostname, result.ruleId])]).toEqual([2, [['beta', 'floor']]]);
    expect((await results('at=2026-10-02&hostname=ALP&ruleId=floor')).items.map((result) => [result.hostname, result.ruleId])).toEqual([['alpha', 'floor']]);
    // Before the policy was in force: no results.
    expect(await results('at=2026-09-29')).toMatchObject({ items: [], total: 0 });

    await upload('beta', lynisReport('beta', { index: 90 }), noon(20));
    clock = new Date(noon(20).getTime() + 1_800_000);
    await evaluator.settle();
    expect(await results('at=2026-10-02')).toEqual(before);
  });

  it('applies the waivers in force then, not those created or expired since', async () => {
    const waiver = { policyId, hostRecordId: id('beta'), reason: 'maintenance window' };
    // In force from 1 Oct 18:00 to 2 Oct 06:00; another from now on.
    await createWaiver(database, UNSCOPED, { ...waiver, expiresAt: '2026-10-02T06:00:00.000Z' }, null, new Date('2026-10-01T18:00:00.000Z'));
    await createWaiver(database, UNSCOPED, { ...waiver, expiresAt: new Date(Date.now() + 86_400_000).toISOString() }, null);
    const complianceAt = async (at: string) => (await json<HostPage>(`/api/admin/hosts?at=${at}&hostname=beta`)).items.map((host) => host.compliance);
    expect(await complianceAt('2026-10-01')).toEqual(['waived']);
    expect(await complianceAt('2026-10-02')).toEqual(['noncompliant']);
    expect((await json<HostPage>('/api/admin/hosts?hostname=beta')).items.map((host) => host.compliance)).toEqual(['waived']);
    const results = await json<{ items: PolicyResult[] }>(`/api/admin/policies/${policyId}/results?at=2026-10-01&hostname=beta`);
    expect(results.items.map((result) => [result.ruleId, result.status])).toEqual([
      ['floor', 'waived'],
      ['firewall', 'pass'],
    ]);
    const overview = await json<Overview>('/api/admin/overview?at=2026-10-01');
    expect(overview.compliance.hosts).toEqual({ pass: 1, fail: 0, error: 0, waived: 1 });
  });

  it('exports in keyset pages in the order of the list, whatever the sort, hosts without a value last', async () => {
    // delta: a report without a hardening index on 2 Oct, level with beta's time.
    await upload('delta', lynisReport('delta', { index: 0 }).replace(/^hardening_index=.*\n/m, ''), noon(2));
    const at = asOfMoment('2026-10-02')!;
    for (const sort of ['lastSeen', 'hostname', 'hardeningIndex', 'warnings'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const listed = (await json<HostPage>(`/api/admin/hosts?at=2026-10-02&sort=${sort}&order=${order}`)).items.map((host) => host.id);
        const paged: string[] = [];
        for await (const page of hostRowPagesAsOf(database, UNSCOPED, { sort, order }, at, 1)) paged.push(...page.map((row) => row.id));
        expect(paged, `${sort} ${order}`).toEqual(listed);
        expect(listed, `${sort} ${order}`).toHaveLength(3);
      }
    }
    const byIndex = await json<HostPage>('/api/admin/hosts?at=2026-10-02&sort=hardeningIndex&order=asc');
    expect(byIndex.items.map((host) => [host.hostname, host.latestHardeningIndex])).toEqual([
      ['beta', 55],
      ['alpha', 60],
      ['delta', null],
    ]);
  });

  it('refuses a bad or future moment, and the filters on what hosts are now', async () => {
    for (const path of ['/api/admin/hosts', '/api/admin/exports/hosts', '/api/admin/overview', `/api/admin/policies/${policyId}/results`]) {
      for (const at of ['2026-02-30', 'last-week', '2999-01-01', new Date(Date.now() + 3_600_000).toISOString()]) {
        const { status, body } = await get(`${path}?at=${encodeURIComponent(at)}`);
        expect(status, `${path} ${at}`).toBe(400);
        expect(JSON.parse(body)).toMatchObject({ status: 400 });
      }
    }
    for (const filter of ['group=web', 'compliance=compliant', `failingPolicy=${policyId}`, 'state=all', 'sort=compliance', 'finding=AUTH-9286']) {
      for (const path of ['/api/admin/hosts', '/api/admin/exports/hosts']) {
        const { status, body } = await get(`${path}?at=2026-10-02&${filter}`);
        expect(status, `${path} ${filter}`).toBe(400);
        expect((JSON.parse(body) as { detail: string }).detail).toMatch(/^at cannot be combined with /);
      }
    }
    expect((await get('/api/admin/hosts?at=2026-10-02&state=current')).status).toBe(200);
  });
});
