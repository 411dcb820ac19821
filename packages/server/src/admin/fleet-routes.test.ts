import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostLabels, ReportSummary } from '@org/audit-server-core';
import type { FindingGroupPage, Host, HostPage, Overview } from '../generated/types.gen.js';
import { lynisSummary } from '@org/test-support/lynis-summary';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { hostRecordId } from '../hosts/host-records.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { createAdminApi, type AdminApi } from './api.js';
import { sweepHostLifecycle } from '../hosts/host-lifecycle-sweep.js';
import { DEFAULT_LIFECYCLE, lifecycleSettings } from '../hosts/lifecycle-settings.js';

/** The clock of every test here: the overview's days are UTC days before it. */
const NOW = new Date('2026-11-23T12:00:00.000Z');
const DEBIAN = 'Debian GNU/Linux 12 (bookworm)';
const UBUNTU = 'Ubuntu 24.04 LTS';

const finding = (testId: string, text = `text of ${testId}`) => ({ testId, text, details: null, solution: null });
const labels = (overrides: Partial<HostLabels> = {}): HostLabels => ({ groups: [], tags: [], customerName: null, hostnameAlias: null, ...overrides });

describe.each(DIALECTS)('fleet view of the admin API on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let api: AdminApi;
  let token: string;
  let keyId: string;

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token } = await createAdminToken(database, { label: 'tests' }));
    ({ id: keyId } = await createKey(database, { label: 'fleet' }));
    api = await createAdminApi({ database });
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await database.close();
  });

  /** GETs an admin path as the HTTP adapters hand it over; answers the status and the parsed body. */
  async function get<T = Record<string, unknown>>(path: string): Promise<{ status: number; body: T }> {
    const url = new URL(path, 'http://admin');
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of url.searchParams) query[name] = name in query ? [...[query[name]!].flat(), value] : value;
    const response = await api.handle({ method: 'GET', path: url.pathname, query, headers: { authorization: `Bearer ${token}` }, body: { kind: 'none' } });
    // JSON answers (and problems) are written whole, as text.
    if (typeof response.body !== 'string') throw new Error(`GET ${path}: a body that is not text`);
    return { status: response.status, body: JSON.parse(response.body) as T };
  }
  /** POSTs a JSON body to an admin path; answers the status and the parsed body. */
  async function post<T = Record<string, unknown>>(path: string, body: unknown = {}): Promise<{ status: number; body: T }> {
    const response = await api.handle({ method: 'POST', path, query: {}, headers: { authorization: `Bearer ${token}` }, body: { kind: 'json', value: body } });
    return { status: response.status, body: JSON.parse(response.body as string) as T };
  }
  const ok = async <T>(path: string): Promise<T> => {
    const { status, body } = await get<T>(path);
    expect(status, `${path}: ${JSON.stringify(body)}`).toBe(200);
    return body;
  };

  const store = (hostId: string, receivedAt: string, summary: ReportSummary | null, hostLabels: HostLabels | null = null) =>
    new OrmReportStore(database).save({
      keyId,
      hostId,
      receivedAt: new Date(receivedAt),
      encoding: 'raw',
      size: 3,
      sha256: 'a'.repeat(64),
      content: Buffer.from('a=1'),
      summary,
      labels: hostLabels,
    });
  const id = (hostId: string) => hostRecordId(keyId, hostId);

  /**
   * Five hosts, by hand:
   * - h1 `alpha`: three reports (11-21 08:00 index 45, 11-21 10:00 index 40, 11-23 08:00 index 60); the newest has
   *   warnings W-1, W-2, suggestions S-1, S-2, groups web and pci, tag prod, customer and alias;
   * - h2 `bravo`: 11-13 09:00, index 70, Ubuntu, warning W-1 (a smaller text than h1's), groups db, tags prod and legacy;
   * - h3: 11-22 20:00, not a Lynis report;
   * - h4 `charlie`: 10-14 12:00, index 95, Lynis 3.1.0, W-3 as a warning and as a suggestion;
   * - h5 `delta`: 08-15 12:00 (100 days ago: outside the trend), index 5, suggestion S-1.
   * Refused uploads: 3 and 2 on 11-22, 4 on 10-25 (the first of the 30 days), 9 on 10-19 (before them); refused
   * license checks (7 on 11-22) do not count.
   */
  async function seedFleet() {
    const summary = (hostname: string, hardeningIndex: number, overrides: Partial<ReportSummary> = {}) =>
      lynisSummary({ hostname, hardeningIndex, ...overrides });
    await store(
      'h1',
      '2026-11-21T08:00:00Z',
      summary('alpha', 45, { warnings: [finding('W-1', 'b text')], suggestions: [finding('S-1')] }),
      labels({ groups: ['web'] }),
    );
    await store(
      'h1',
      '2026-11-21T10:00:00Z',
      summary('alpha', 40, { warnings: [finding('W-1', 'b text')], suggestions: [finding('S-1')] }),
      labels({ groups: ['web'] }),
    );
    await store(
      'h1',
      '2026-11-23T08:00:00Z',
      summary('alpha', 60, { warnings: [finding('W-1', 'b text'), finding('W-2')], suggestions: [finding('S-1'), finding('S-2')] }),
      labels({ groups: ['web', 'pci'], tags: ['prod'], customerName: 'acme', hostnameAlias: 'alpha.example.org' }),
    );
    await store(
      'h2',
      '2026-11-13T09:00:00Z',
      summary('bravo', 70, { os: { ...lynisSummary().os, fullName: UBUNTU }, warnings: [finding('W-1', 'a text')], suggestions: [] }),
      labels({ groups: ['db'], tags: ['prod', 'legacy'] }),
    );
    await store('h3', '2026-11-22T20:00:00Z', null);
    await store(
      'h4',
      '2026-10-14T12:00:00Z',
      summary('charlie', 95, { lynisVersion: '3.1.0', warnings: [finding('W-3')], suggestions: [finding('W-3')] }),
      labels(),
    );
    await store('h5', '2026-08-15T12:00:00Z', summary('delta', 5, { warnings: [], suggestions: [finding('S-1')] }), labels());
    const refused = (day: string, operation: string, reason: string, count: number) => ({
      day,
      operation,
      reason,
      key_id: '',
      host_id: '',
      remote_address: '',
      folded: false,
      count,
      first_at: dialect === 'sqlite' ? Date.parse(`${day}T00:00:00Z`) : new Date(`${day}T00:00:00Z`),
      last_at: dialect === 'sqlite' ? Date.parse(`${day}T00:00:00Z`) : new Date(`${day}T00:00:00Z`),
    });
    await database.em
      .getKnex()('rejection')
      .insert([
        refused('2026-11-22', 'uploadReport', 'invalid-key', 3),
        refused('2026-11-22', 'uploadReport', 'invalid-data', 2),
        refused('2026-11-22', 'checkLicense', 'invalid-key', 7),
        refused('2026-10-25', 'uploadReport', 'invalid-key', 4),
        refused('2026-10-19', 'uploadReport', 'invalid-key', 9),
      ]);
  }

  describe('GET /api/admin/overview', () => {
    it('sums up an empty fleet with zeros and nulls', async () => {
      const overview = await ok<Overview>('/api/admin/overview');
      expect(overview).toMatchObject({
        generatedAt: NOW.toISOString(),
        staleDays: 7,
        hosts: { total: 0, seenLast24h: 0, seenLast7d: 0, stale: 0 },
        hardeningIndex: { average: null, median: null, unknown: 0 },
        hardeningTrend: [],
        topWarnings: [],
        topSuggestions: [],
        operatingSystems: [],
        lynisVersions: [],
        staleHosts: [],
      });
      expect(overview.hardeningIndex.distribution.map((bucket) => bucket.hosts)).toEqual(Array(10).fill(0));
      expect(overview.uploadsPerDay).toHaveLength(30);
      expect(overview.uploadsPerDay.every((day) => day.accepted === 0 && day.refused === 0)).toBe(true);
    });

    it('gives the numbers of a small fleet, computed by hand', async () => {
      await seedFleet();
      // h2, h4 and h5 sent nothing for more than the default 7 days: the sweep makes them stale.
      expect(await sweepHostLifecycle(database, DEFAULT_LIFECYCLE, NOW)).toEqual({ stale: 3, decommissioned: 0 });
      const overview = await ok<Overview>('/api/admin/overview');
      expect(overview.generatedAt).toBe(NOW.toISOString());
      expect(overview.staleDays).toBe(7);
      expect(overview.hosts).toEqual({ total: 5, seenLast24h: 2, seenLast7d: 2, stale: 3, decommissioned: 0 });
      // Latest indexes 60, 70, 95 and 5; h3 has none.
      expect(overview.hardeningIndex).toEqual({
        average: 57.5,
        median: 65,
        unknown: 1,
        distribution: [
          { from: 0, to: 9, hosts: 1 },
          { from: 10, to: 19, hosts: 0 },
          { from: 20, to: 29, hosts: 0 },
          { from: 30, to: 39, hosts: 0 },
          { from: 40, to: 49, hosts: 0 },
          { from: 50, to: 59, hosts: 0 },
          { from: 60, to: 69, hosts: 1 },
          { from: 70, to: 79, hosts: 1 },
          { from: 80, to: 89, hosts: 0 },
          { from: 90, to: 100, hosts: 1 },
        ],
      });
      expect(overview.hardeningTrend).toEqual([
        { day: '2026-10-14', average: 95, reports: 1 },
        { day: '2026-11-13', average: 70, reports: 1 },
        { day: '2026-11-21', average: 42.5, reports: 2 },
        { day: '2026-11-22', average: null, reports: 1 },
        { day: '2026-11-23', average: 60, reports: 1 },
      ]);
      expect(overview.topWarnings).toEqual([
        { kind: 'warning', testId: 'W-1', text: 'a text', hosts: 2 },
        { kind: 'warning', testId: 'W-2', text: 'text of W-2', hosts: 1 },
        { kind: 'warning', testId: 'W-3', text: 'text of W-3', hosts: 1 },
      ]);
      expect(overview.topSuggestions).toEqual([
        { kind: 'suggestion', testId: 'S-1', text: 'text of S-1', hosts: 2 },
        { kind: 'suggestion', testId: 'S-2', text: 'text of S-2', hosts: 1 },
        { kind: 'suggestion', testId: 'W-3', text: 'text of W-3', hosts: 1 },
      ]);
      expect(overview.operatingSystems).toEqual([
        { name: DEBIAN, hosts: 3 },
        { name: UBUNTU, hosts: 1 },
        { name: null, hosts: 1 },
      ]);
      expect(overview.lynisVersions).toEqual([
        { name: '3.0.8', hosts: 3 },
        { name: '3.1.0', hosts: 1 },
        { name: null, hosts: 1 },
      ]);
      expect(overview.uploadsPerDay).toHaveLength(30);
      expect(overview.uploadsPerDay[0]).toEqual({ day: '2026-10-25', accepted: 0, refused: 4 });
      expect(overview.uploadsPerDay[29]).toEqual({ day: '2026-11-23', accepted: 1, refused: 0 });
      expect(overview.uploadsPerDay.filter((day) => day.accepted > 0 || day.refused > 0)).toEqual([
        { day: '2026-10-25', accepted: 0, refused: 4 },
        { day: '2026-11-13', accepted: 1, refused: 0 },
        { day: '2026-11-21', accepted: 2, refused: 0 },
        { day: '2026-11-22', accepted: 1, refused: 5 },
        { day: '2026-11-23', accepted: 1, refused: 0 },
      ]);
      expect(overview.uploadsPerDay.map((day) => day.day)).toEqual(
        Array.from({ length: 30 }, (_, i) => new Date(Date.parse('2026-10-25T00:00:00Z') + i * 86_400_000).toISOString().slice(0, 10)),
      );
      expect(overview.staleHosts.map((host) => host.id)).toEqual([id('h5'), id('h4'), id('h2')]);
      expect(overview.staleHosts[2]).toMatchObject({
        hostname: 'bravo',
        groups: ['db'],
        tags: ['prod', 'legacy'],
        latestWarningCount: 1,
        latestSuggestionCount: 0,
      });
    });

    it("counts stale hosts by their state, from the server's stale threshold (the deprecated staleDays is ignored), and names at most ten top findings of each kind", async () => {
      const lifecycle = lifecycleSettings({ staleDays: 30, groupStaleDays: '', groupExpireAfter: '', autoPurgeAfter: '24h' });
      api = await createAdminApi({ database, lifecycle });
      await seedFleet();
      await sweepHostLifecycle(database, lifecycle, NOW);
      const stale = await ok<Overview>('/api/admin/overview?staleDays=1');
      expect(stale.staleDays).toBe(30);
      expect(stale.hosts).toEqual({ total: 5, seenLast24h: 2, seenLast7d: 2, stale: 2, decommissioned: 0 });
      await store('h6', '2026-11-23T09:00:00Z', lynisSummary({ warnings: Array.from({ length: 12 }, (_, i) => finding(`X-${String(i).padStart(2, '0')}`)) }));
      const overview = await ok<Overview>('/api/admin/overview?staleDays=30');
      expect(overview.topWarnings.map((warning) => [warning.testId, warning.hosts])).toEqual([
        ['W-1', 2],
        ['W-2', 1],
        ['W-3', 1],
        ['X-00', 1],
        ['X-01', 1],
        ['X-02', 1],
        ['X-03', 1],
        ['X-04', 1],
        ['X-05', 1],
        ['X-06', 1],
      ]);
      expect(overview.staleHosts.map((host) => host.id)).toEqual([id('h5'), id('h4')]);
    });

    it('leaves a decommissioned host out of every figure, and counts it again once reactivated', async () => {
      await seedFleet();
      const before = await ok<Overview>('/api/admin/overview');
      const decommissioned = await post<Host>(`/api/admin/hosts/${id('h1')}/decommission`);
      expect(decommissioned.status).toBe(200);
      expect(decommissioned.body).toMatchObject({ state: 'decommissioned', stateReason: 'operator', stateSince: NOW.toISOString() });
      const without = await ok<Overview>('/api/admin/overview');
      expect(without.hosts).toEqual({ total: 4, seenLast24h: 1, seenLast7d: 1, stale: 0, decommissioned: 1 });
      // h1's latest index (60) and its three reports leave the hardening figures and the trend.
      expect(without.hardeningIndex).toMatchObject({ average: 56.7, median: 70, unknown: 1 });
      expect(without.hardeningTrend).toEqual([
        { day: '2026-10-14', average: 95, reports: 1 },
        { day: '2026-11-13', average: 70, reports: 1 },
        { day: '2026-11-22', average: null, reports: 1 },
      ]);
      // W-1 is then h2's alone; W-2 and S-2 were h1's only.
      expect(without.topWarnings.map((warning) => [warning.testId, warning.hosts])).toEqual([
        ['W-1', 1],
        ['W-3', 1],
      ]);
      expect(without.topSuggestions.map((suggestion) => [suggestion.testId, suggestion.hosts])).toEqual([
        ['S-1', 1],
        ['W-3', 1],
      ]);
      expect(without.operatingSystems).toEqual([
        { name: DEBIAN, hosts: 2 },
        { name: UBUNTU, hosts: 1 },
        { name: null, hosts: 1 },
      ]);
      expect((await ok<FindingGroupPage>('/api/admin/findings')).total).toBe(4);
      // The default list leaves it out; the state filter shows it.
      expect((await ok<HostPage>('/api/admin/hosts')).items.map((host) => host.id)).not.toContain(id('h1'));
      expect((await ok<HostPage>('/api/admin/hosts?state=decommissioned')).items.map((host) => host.id)).toEqual([id('h1')]);
      expect((await ok<HostPage>('/api/admin/hosts?state=all')).total).toBe(5);
      // Decommissioning twice changes nothing.
      expect((await post<Host>(`/api/admin/hosts/${id('h1')}/decommission`)).body.stateSince).toBe(NOW.toISOString());

      // Back, it counts again (its findings come from its stored report, which is not a Lynis report here: the
      // lifecycle tests check they come back from real reports).
      const back = await post<Host>(`/api/admin/hosts/${id('h1')}/reactivate`);
      expect(back.body).toMatchObject({ state: 'active', stateReason: 'operator' });
      const again = await ok<Overview>('/api/admin/overview');
      for (const figure of ['hosts', 'hardeningIndex', 'hardeningTrend', 'operatingSystems', 'lynisVersions', 'uploadsPerDay'] as const) {
        expect(again[figure], figure).toEqual(before[figure]);
      }
    });

    it("hides the findings about Lynis itself unless asked for by test id, or shown by the server's setting", async () => {
      await store('h7', '2026-11-23T09:00:00Z', lynisSummary({ warnings: [], suggestions: [finding('LYNIS', 'This release is more than 4 months old')] }));
      expect((await ok<Overview>('/api/admin/overview')).topSuggestions).toEqual([]);
      expect((await ok<FindingGroupPage>('/api/admin/findings')).total).toBe(0);
      expect((await ok<FindingGroupPage>('/api/admin/findings?testId=LYNIS')).items.map((item) => item.hosts)).toEqual([1]);
      api = await createAdminApi({ database, hideLynisFindings: false });
      expect((await ok<Overview>('/api/admin/overview')).topSuggestions.map((item) => item.testId)).toEqual(['LYNIS']);
    });

    it('refuses a staleDays out of bounds', async () => {
      for (const value of ['0', '3651', 'x', '1.5']) expect((await get(`/api/admin/overview?staleDays=${value}`)).status, value).toBe(400);
    });
  });

  describe('GET /api/admin/findings', () => {
    beforeEach(seedFleet);

    it("groups the findings of each host's newest report by kind and test id, most hosts first, ties by test id", async () => {
      const page = await ok<FindingGroupPage>('/api/admin/findings');
      expect(page).toEqual({
        total: 6,
        limit: 50,
        offset: 0,
        items: [
          { kind: 'suggestion', testId: 'S-1', text: 'text of S-1', hosts: 2 },
          { kind: 'warning', testId: 'W-1', text: 'a text', hosts: 2 },
          { kind: 'suggestion', testId: 'S-2', text: 'text of S-2', hosts: 1 },
          { kind: 'warning', testId: 'W-2', text: 'text of W-2', hosts: 1 },
          { kind: 'suggestion', testId: 'W-3', text: 'text of W-3', hosts: 1 },
          { kind: 'warning', testId: 'W-3', text: 'text of W-3', hosts: 1 },
        ],
      });
    });

    it('filters by kind and test id, one page at a time with the total', async () => {
      const testIds = async (query: string) => {
        const page = await ok<FindingGroupPage>(`/api/admin/findings?${query}`);
        return { total: page.total, items: page.items.map((item) => `${item.kind}:${item.testId}:${item.hosts}`) };
      };
      expect(await testIds('kind=warning')).toEqual({ total: 3, items: ['warning:W-1:2', 'warning:W-2:1', 'warning:W-3:1'] });
      expect(await testIds('testId=W-3')).toEqual({ total: 2, items: ['suggestion:W-3:1', 'warning:W-3:1'] });
      expect(await testIds('testId=W-3&kind=suggestion')).toEqual({ total: 1, items: ['suggestion:W-3:1'] });
      expect(await testIds('testId=NONE-1')).toEqual({ total: 0, items: [] });
      expect(await testIds('limit=2&offset=1')).toEqual({ total: 6, items: ['warning:W-1:2', 'suggestion:S-2:1'] });
      expect(await testIds('offset=10')).toEqual({ total: 6, items: [] });
    });

    it('refuses a kind, test id or paging the contract does not allow', async () => {
      for (const query of ['kind=note', 'testId=', `testId=${'x'.repeat(65)}`, 'testId=A%00B', 'testId=A%0AB', 'limit=0', 'limit=501', 'offset=-1']) {
        expect((await get(`/api/admin/findings?${query}`)).status, query).toBe(400);
      }
    });
  });

  describe('GET /api/admin/hosts with the fleet filters', () => {
    beforeEach(seedFleet);

    const hostIds = async (query: string) => {
      const page = await ok<HostPage>(`/api/admin/hosts?${query}`);
      expect(page.total, query).toBe(page.items.length);
      return page.items.map(
        (host) => Object.entries({ h1: id('h1'), h2: id('h2'), h3: id('h3'), h4: id('h4'), h5: id('h5') }).find(([, hostId]) => hostId === host.id)![0],
      );
    };

    it("shows each host's groups, tags, customer, alias and latest counts", async () => {
      const { items } = await ok<HostPage>('/api/admin/hosts');
      const byId = new Map(items.map((host) => [host.id, host]));
      expect(byId.get(id('h1'))).toMatchObject<Partial<Host>>({
        hostname: 'alpha',
        latestHardeningIndex: 60,
        latestWarningCount: 2,
        latestSuggestionCount: 2,
        groups: ['web', 'pci'],
        tags: ['prod'],
        customerName: 'acme',
        hostnameAlias: 'alpha.example.org',
      });
      expect(byId.get(id('h3'))).toMatchObject<Partial<Host>>({
        hostname: null,
        latestWarningCount: null,
        latestSuggestionCount: null,
        groups: [],
        tags: [],
        customerName: null,
        hostnameAlias: null,
      });
      const detail = await ok<Host>(`/api/admin/hosts/${id('h2')}`);
      expect(detail).toMatchObject({ groups: ['db'], tags: ['prod', 'legacy'], latestWarningCount: 1, latestSuggestionCount: 0 });
    });

    it('filters by group, tag, OS (whole values, case-insensitive), finding and last seen, and combines filters', async () => {
      expect(await hostIds('group=web')).toEqual(['h1']);
      expect(await hostIds('group=pci')).toEqual(['h1']);
      expect(await hostIds('group=db')).toEqual(['h2']);
      expect(await hostIds('group=Web')).toEqual(['h1']);
      expect(await hostIds('group=we')).toEqual([]);
      expect(await hostIds('tag=prod')).toEqual(['h1', 'h2']);
      expect(await hostIds('tag=legacy')).toEqual(['h2']);
      expect(await hostIds('tag=prod&group=db')).toEqual(['h2']);
      expect(await hostIds(`os=${encodeURIComponent(UBUNTU)}`)).toEqual(['h2']);
      expect(await hostIds(`os=${encodeURIComponent(DEBIAN)}`)).toEqual(['h1', 'h4', 'h5']);
      expect(await hostIds('os=Ubuntu')).toEqual([]);
      expect(await hostIds('finding=W-1')).toEqual(['h1', 'h2']);
      expect(await hostIds('finding=S-1')).toEqual(['h1', 'h5']);
      expect(await hostIds('finding=W-3')).toEqual(['h4']);
      expect(await hostIds('finding=W-3&findingKind=suggestion')).toEqual(['h4']);
      expect(await hostIds('finding=W-1&findingKind=suggestion')).toEqual([]);
      expect(await hostIds('finding=W-1&findingKind=warning&tag=prod&group=web')).toEqual(['h1']);
      // findingKind names the kind of `finding`: alone it filters nothing.
      expect(await hostIds('findingKind=warning')).toEqual(['h1', 'h3', 'h2', 'h4', 'h5']);
      expect(await hostIds('seenBefore=2026-11-20T00:00:00Z')).toEqual(['h2', 'h4', 'h5']);
      expect(await hostIds('seenBefore=2026-11-13T09:00:00.000Z')).toEqual(['h4', 'h5']);
      expect(await hostIds('seenBefore=2026-11-20T00:00:00Z&finding=W-1')).toEqual(['h2']);
      const page = await ok<HostPage>('/api/admin/hosts?tag=prod&limit=1&offset=1');
      expect(page).toMatchObject({ total: 2, limit: 1, offset: 1, items: [{ id: id('h2') }] });
    });

    it('sorts by last seen, host name, hardening index or warnings, either way, hosts without a value last, ties by id', async () => {
      // h2 and h4 both have one warning: by id.
      const [h2, h4] = id('h2') < id('h4') ? ['h2', 'h4'] : ['h4', 'h2'];
      expect(await hostIds('sort=lastSeen')).toEqual(['h1', 'h3', 'h2', 'h4', 'h5']);
      expect(await hostIds('sort=lastSeen&order=asc')).toEqual(['h5', 'h4', 'h2', 'h3', 'h1']);
      expect(await hostIds('sort=hostname&order=asc')).toEqual(['h1', 'h2', 'h4', 'h5', 'h3']);
      expect(await hostIds('sort=hostname')).toEqual(['h5', 'h4', 'h2', 'h1', 'h3']);
      expect(await hostIds('sort=hardeningIndex')).toEqual(['h4', 'h2', 'h1', 'h5', 'h3']);
      expect(await hostIds('sort=hardeningIndex&order=asc')).toEqual(['h5', 'h1', 'h2', 'h4', 'h3']);
      expect(await hostIds('sort=warnings')).toEqual(['h1', h2, h4, 'h5', 'h3']);
      expect(await hostIds('sort=warnings&order=asc')).toEqual(['h5', h2, h4, 'h1', 'h3']);
    });

    it('refuses filters and sorts the contract does not allow', async () => {
      for (const query of [
        'group=',
        `group=${'g'.repeat(256)}`,
        'group=a%00b',
        'tag=a%1Fb',
        'os=%7F',
        'finding=',
        `finding=${'t'.repeat(65)}`,
        'findingKind=note',
        'seenBefore=yesterday',
        'seenBefore=2026-13-01T00:00:00Z',
        'sort=name',
        'order=up',
        'sort=lastSeen&sort=hostname',
      ]) {
        expect((await get(`/api/admin/hosts?${query}`)).status, query).toBe(400);
      }
    });

    it('sends every filter value to the database as a bound parameter, never inside the SQL text', async () => {
      const queries: { sql: string; bindings: unknown[] }[] = [];
      database.em.getKnex().on('query', (query: { sql: string; bindings?: unknown[] }) => queries.push({ sql: query.sql, bindings: query.bindings ?? [] }));
      const hostile = 'o\'brien"; drop table host;--';
      await ok(
        `/api/admin/hosts?group=${encodeURIComponent(hostile)}&tag=${encodeURIComponent(`${hostile}-t`)}&os=${encodeURIComponent(`${hostile}-os`)}&finding=${encodeURIComponent("X'1")}&findingKind=warning&seenBefore=2026-11-20T00:00:00Z&sort=warnings&order=asc`,
      );
      await ok(`/api/admin/findings?testId=${encodeURIComponent("X'2")}&kind=suggestion`);
      await ok('/api/admin/overview?staleDays=9');
      const fleet = queries.filter((query) => /\b(host|host_label|host_finding|report|rejection)\b/.test(query.sql) && !/admin_token/.test(query.sql));
      expect(fleet.length).toBeGreaterThanOrEqual(10);
      for (const { sql } of fleet) for (const value of ['brien', "X'1", "X'2", '2026-11']) expect(sql, sql).not.toContain(value);
      expect(fleet.flatMap((query) => query.bindings)).toEqual(
        expect.arrayContaining([hostile, `${hostile}-t`, `${hostile}-os`, "X'1", 'warning', "X'2", 'suggestion']),
      );
    });
  });
});
