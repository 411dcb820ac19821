import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { AdminTokenRecord } from '../database/entities.js';
import { openDatabase, type Database } from '../database/open.js';
import { parseCsvObjects } from '../exports/csv-reader.test-kit.js';
import type { ComplianceHistory, ComplianceHistoryRow } from '../generated/types.gen.js';
import { scopeColumns, UNSCOPED } from '../people/scope.js';
import { deleteWaiver } from '../policies/waivers.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { complianceHistory } from './compliance-history.js';
import { ALL_POLICIES, ComplianceSnapshots, missingDays, provisionalTakenAt } from './compliance-snapshots.js';
import { EXPECTED, dateOf, endOfDay, onDay, seedComplianceScenario, type ComplianceScenario } from './compliance-scenario.test-kit.js';

const quietLogger = { info() {}, warn() {}, error() {} } as never;

describe.each(DIALECTS)('compliance history on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let api: AdminApi;
  let token: string;
  let scenario: ComplianceScenario;
  beforeEach(async () => {
    database = await openDatabase(location.location);
    scenario = await seedComplianceScenario(database, (await createKey(database)).id);
    ({ token } = await createAdminToken(database, { label: 'reader', role: 'viewer' }));
    api = await createAdminApi({ database });
  });
  afterEach(async () => {
    await scenario.evaluator.stop();
    await database.close();
  });

  async function get(path: string, query: Record<string, string>, as = token): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const response = await api.handle({ method: 'GET', path, query, headers: { authorization: `Bearer ${as}` }, body: { kind: 'none' } });
    const body = response.body instanceof Readable ? await text(response.body) : String(response.body);
    return { status: response.status, headers: response.headers as Record<string, string>, body };
  }
  async function history(query: Record<string, string>, as = token): Promise<ComplianceHistory> {
    const { status, body } = await get('/api/admin/compliance/history', query, as);
    expect(status, body).toBe(200);
    return JSON.parse(body) as ComplianceHistory;
  }
  const WINDOW = { from: dateOf(5), to: dateOf(57) };

  it('gives each past day the figures worked out by hand, per policy too, from the snapshots it takes', async () => {
    const result = await history(WINDOW);
    expect(result.points).toHaveLength(53);
    for (const day of [15, 42, 57]) {
      const point = result.points.find((candidate) => candidate.date === dateOf(day))!;
      expect(point.hosts, `day ${day}`).toEqual(EXPECTED[day]!.fleet);
      expect(point.openFindings, `day ${day}`).toEqual(EXPECTED[day]!.findings);
      expect(point.final).toBe(true);
      const [baseline, web] = result.policies;
      expect([baseline!.name, web!.name]).toEqual(['Baseline', 'Web']);
      expect(baseline!.points.find((candidate) => candidate.date === dateOf(day))!.hosts, `day ${day}`).toEqual(EXPECTED[day]!.baseline);
      expect(web!.points.find((candidate) => candidate.date === dateOf(day))!.hosts, `day ${day}`).toEqual(EXPECTED[day]!.web);
    }
    // Day 42: compliant 1 and accepted 2 of 4 known.
    expect(result.points.find((point) => point.date === dateOf(42))!.compliancePercent).toBe(75);
    const snapshots = await database.em
      .getKnex()('compliance_snapshot')
      .where({ day: dateOf(42), policy_id: ALL_POLICIES })
      .select('scope_kind', 'scope_value');
    expect((snapshots as { scope_kind: string; scope_value: string }[]).map((row) => `${row.scope_kind}:${row.scope_value}`).sort()).toEqual([
      'customer:acme',
      'customer:globex',
      'fleet:',
      'group:db',
      'group:web',
    ]);
  });

  it('answers the same for past days after new reports arrive and a waiver is deleted, and today from now', async () => {
    const before = await history(WINDOW);
    await scenario.uploadNow('h2', { index: 10, firewall: 0 });
    await deleteWaiver(database, UNSCOPED, scenario.lastWaiverId);
    expect(await history(WINDOW)).toEqual(before);
    expect(await complianceHistory(database, UNSCOPED, WINDOW)).toEqual(before);
    const today = new Date().toISOString().slice(0, 10);
    const now = await history({ from: dateOf(57), to: today });
    const last = now.points.at(-1)!;
    expect(last).toMatchObject({ date: today, final: false, hosts: { compliant: 1, noncompliant: 3, accepted: 0, unknown: 0 } });
    expect(now.points.at(-2)!.final).toBe(true);
  });

  it("reads today's point from the provisional snapshot, takes a new one once it is 10 minutes old, and a final one the day after", async () => {
    const knex = database.em.getKnex();
    const fleetRow = (day: number) => knex('compliance_snapshot').where({ day: dateOf(day), policy_id: ALL_POLICIES, scope_kind: 'fleet', scope_value: '' });
    // The clock at day 42, 23:30: day 42 is today; its stored figures are altered to tell them from computed ones.
    const takenAt = new Date(endOfDay(42).getTime() + 1 - 30 * 60_000);
    const at = (minutes: number) => new Date(takenAt.getTime() + minutes * 60_000);
    const window = { from: dateOf(41), to: dateOf(42) };
    const first = await complianceHistory(database, UNSCOPED, window, takenAt);
    expect(first.points.at(-1)).toMatchObject({ date: dateOf(42), final: false, hosts: EXPECTED[42]!.fleet, openFindings: EXPECTED[42]!.findings });
    expect((await provisionalTakenAt(database, takenAt))!.getTime()).toBe(takenAt.getTime());
    await fleetRow(42).update({ compliant: 99 });
    expect((await complianceHistory(database, UNSCOPED, window, at(9))).points.at(-1)!.hosts.compliant).toBe(99);
    expect((await complianceHistory(database, UNSCOPED, { ...window, group: 'db' }, at(9))).points.at(-1)!.hosts).toEqual({
      compliant: 0,
      noncompliant: 0,
      accepted: 2,
      unknown: 0,
    });
    expect((await complianceHistory(database, UNSCOPED, window, at(10))).points.at(-1)!.hosts).toEqual(EXPECTED[42]!.fleet);
    expect((await provisionalTakenAt(database, at(10)))!.getTime()).toBe(at(10).getTime());

    await fleetRow(42).update({ compliant: 99 });
    const dayAfter = await complianceHistory(database, UNSCOPED, { from: dateOf(42), to: dateOf(43) }, onDay(43));
    expect(dayAfter.points[0]).toMatchObject({ date: dateOf(42), final: true, hosts: EXPECTED[42]!.fleet, openFindings: EXPECTED[42]!.findings });
    expect(dayAfter.policies.map((policy) => policy.points[0]!.hosts)).toEqual([EXPECTED[42]!.baseline, EXPECTED[42]!.web]);
    expect(dayAfter.points[1]).toMatchObject({ date: dateOf(43), final: false });
    const [row] = await fleetRow(42).select<{ taken_at: Date | number }[]>('taken_at');
    expect(new Date(row!.taken_at).getTime()).toBe(onDay(43).getTime());
    expect(await missingDays(database, onDay(43))).not.toContain(dateOf(42));
  });

  it('counts one policy, group or customer, and a scoped reader its own hosts', async () => {
    const day = { from: dateOf(42), to: dateOf(42) };
    expect((await history({ ...day, group: 'DB' })).points[0]!.hosts).toEqual({ compliant: 0, noncompliant: 0, accepted: 2, unknown: 0 });
    const acme = await history({ ...day, customer: 'acme' });
    expect(acme.points[0]).toMatchObject({
      hosts: { compliant: 1, noncompliant: 1, accepted: 0, unknown: 0 },
      openFindings: { warning: 0, suggestion: 1, accepted: 0 },
    });
    const web = await history({ ...day, policyId: scenario.webId });
    expect(web.points[0]!.hosts).toEqual(EXPECTED[42]!.web);
    expect(web.policies.map((policy) => policy.name)).toEqual(['Web']);
    const { id, token: scoped } = await createAdminToken(database, { label: 'globex reader', role: 'viewer' });
    await database.em.fork().nativeUpdate(AdminTokenRecord, { id }, scopeColumns({ customers: ['globex'], groups: [] }));
    const globex = await history({ from: dateOf(47), to: dateOf(47) }, scoped);
    expect(globex.points[0]).toMatchObject({
      hosts: { compliant: 0, noncompliant: 2, accepted: 0, unknown: 0 },
      openFindings: { warning: 1, suggestion: 0, accepted: 1 },
    });
  });

  it('gives a point per week, Monday to Sunday, as of its Sunday or the window end', async () => {
    const daily = await history({ from: dateOf(35), to: dateOf(49) });
    const weekly = await history({ from: dateOf(35), to: dateOf(49), interval: 'week' });
    const dates = weekly.points.map((point) => point.date);
    expect(dates.at(-1)).toBe(dateOf(49));
    for (const date of dates.slice(0, -1)) expect(new Date(`${date}T00:00:00Z`).getUTCDay()).toBe(0);
    expect(dates.length).toBeGreaterThanOrEqual(2);
    for (const point of weekly.points) expect(point).toEqual(daily.points.find((candidate) => candidate.date === point.date));
  });

  it('answers the policy revision and the revision each result was evaluated under', async () => {
    const policy = JSON.parse((await get(`/api/admin/policies/${scenario.baselineId}`, {})).body) as { revision: number };
    expect(policy.revision).toBe(2);
    const results = JSON.parse((await get(`/api/admin/policies/${scenario.baselineId}/results`, {})).body) as { items: { policyRevision: number }[] };
    expect(results.items.length).toBeGreaterThan(0);
    expect(new Set(results.items.map((result) => result.policyRevision))).toEqual(new Set([2]));
  });

  it('refuses a reversed, too long or future window, and a date that is none, with a 400', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const query of [
      { from: dateOf(10), to: dateOf(5) },
      { from: '2020-01-01', to: '2022-01-02' },
      { to: tomorrow },
      { from: '2026-02-30', to: dateOf(5) },
    ] as Record<string, string>[]) {
      const { status, body } = await get('/api/admin/compliance/history', query);
      expect(status, JSON.stringify(query)).toBe(400);
      expect(body).toMatch(/from|to/);
    }
    expect((await get('/api/admin/exports/compliance-history', { from: dateOf(10), to: dateOf(5) })).status).toBe(400);
  });

  it('exports a row per day over every policy, then one per policy, as CSV or JSON Lines', async () => {
    const query = { from: dateOf(41), to: dateOf(42) };
    const csv = await get('/api/admin/exports/compliance-history', { ...query, format: 'csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toContain('compliance-history.csv');
    expect(csv.body.split('\n')[0]).toBe(
      'date,policyId,policyName,group,customer,compliant,noncompliant,accepted,unknown,compliancePercent,openWarnings,openSuggestions,acceptedFindings,final',
    );
    const rows = parseCsvObjects(csv.body);
    expect(rows.map((row) => [row.date, row.policyName, row.compliant, row.noncompliant, row.accepted, row.openWarnings])).toEqual([
      [dateOf(41), '', '1', '1', '2', '1'],
      [dateOf(41), 'Baseline', '1', '1', '2', ''],
      [dateOf(41), 'Web', '2', '0', '0', ''],
      [dateOf(42), '', '1', '1', '2', '1'],
      [dateOf(42), 'Baseline', '1', '1', '2', ''],
      [dateOf(42), 'Web', '2', '0', '0', ''],
    ]);
    const jsonl = await get('/api/admin/exports/compliance-history', { ...query, format: 'jsonl', group: 'db' });
    expect(jsonl.headers['content-type']).toContain('application/jsonl');
    const lines = jsonl.body
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ComplianceHistoryRow);
    expect(lines[0]).toEqual({
      date: dateOf(41),
      policyId: null,
      policyName: null,
      group: 'db',
      customer: null,
      compliant: 0,
      noncompliant: 0,
      accepted: 2,
      unknown: 0,
      compliancePercent: 100,
      openWarnings: 1,
      openSuggestions: 0,
      acceptedFindings: 1,
      final: true,
    });
    expect(lines.map((line) => line.policyName)).toEqual([null, 'Baseline', null, 'Baseline']);
  });

  it('takes the snapshot of each day over since the first change, once, in the background', async () => {
    const missing = await missingDays(database);
    expect(missing[0]).toBe(dateOf(0));
    expect(missing.at(-1)).toBe(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
    const snapshots = new ComplianceSnapshots(database, quietLogger);
    await snapshots.settle();
    expect(await missingDays(database)).toEqual([]);
    expect(await provisionalTakenAt(database)).not.toBeNull();
    const knex = database.em.getKnex();
    const taken = await knex('compliance_snapshot').select('*').orderBy(['day', 'policy_id', 'scope_kind', 'scope_value']);
    await knex('compliance_snapshot').where('day', dateOf(42)).delete();
    await snapshots.settle();
    expect(await knex('compliance_snapshot').select('*').orderBy(['day', 'policy_id', 'scope_kind', 'scope_value'])).toHaveLength(taken.length);
    await snapshots.stop();
  });
});
