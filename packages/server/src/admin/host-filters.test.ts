import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReportBytes } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import type { Facets, HostPage, PolicyResultPage } from '../generated/types.gen.js';
import { openDatabase, type Database } from '../database/open.js';
import { hostPage, hostRecordPages } from '../hosts/host-queries.js';
import { hostRecordId } from '../hosts/host-records.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { createPolicy } from '../policies/policy-records.js';
import { createWaiver } from '../policies/waivers.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { createAdminApi, type AdminApi } from './api.js';
import { UNSCOPED } from '../people/scope.js';

const DAY_MS = 86_400_000;
const DEBIAN = 'Debian GNU/Linux 12';

/** A Lynis report: its host name (none: left out), hardening index, warnings, firewall and labels. */
function lynisReport(host: {
  name?: string;
  index: number;
  warnings?: number;
  firewall?: string;
  groups?: string;
  tags?: string;
  os?: string;
  customer?: string;
}) {
  return [
    'report_version_major=1',
    'lynis_version=3.0.8',
    ...(host.name ? [`hostname=${host.name}`] : []),
    `hardening_index=${host.index}`,
    `firewall_active=${host.firewall ?? '1'}`,
    ...(host.groups ? [`system-groups=${host.groups}`] : []),
    ...(host.tags ? [`tags=${host.tags}`] : []),
    ...(host.os ? [`os_fullname=${host.os}`] : []),
    ...(host.customer ? [`system-customer-name=${host.customer}`] : []),
    ...Array.from({ length: host.warnings ?? 0 }, (_, n) => `warning[]=TEST-${n}|A warning|-|-|`),
    '',
  ].join('\n');
}

/**
 * Seven hosts. Key "Production" (both policies apply to its hosts): `web-01` passes everything (compliant); `web-02`
 * fails the index and warnings rules (noncompliant); `db-01` fails only warnings, waived for it (waived); `db-02` fails
 * the index, warnings and firewall rules, the firewall waived for group db (noncompliant); an unreadable report errs
 * on every rule (noncompliant). Key "Lab": `lab-01` and `lab-02`, no policy applies (unknown). web-01 and web-02 were
 * evaluated a second before the others.
 */
const HOSTS = {
  web1: { key: 'prod', name: 'web-01', index: 70, groups: 'WebServers', tags: 'eu', os: DEBIAN, customer: 'Acme' },
  web2: { key: 'prod', name: 'web-02', index: 40, warnings: 1, groups: 'webservers', tags: 'EU', os: 'Ubuntu 24.04', customer: 'Acme' },
  db1: { key: 'prod', name: 'db-01', index: 80, warnings: 2, groups: 'db', tags: 'us', os: DEBIAN, customer: 'Globex' },
  db2: { key: 'prod', name: 'db-02', index: 50, warnings: 1, firewall: '0', groups: 'db', tags: 'us_east', os: DEBIAN },
  broken: { key: 'prod', unreadable: true },
  lab1: { key: 'lab', name: 'lab-01', index: 90, groups: 'lab' },
  lab2: { key: 'lab', name: 'lab-02', index: 90, groups: 'lab,db' },
} as const;
type HostName = keyof typeof HOSTS;
const FIRST_EVALUATED: HostName[] = ['web1', 'web2'];

describe.each(DIALECTS)('host filters, facets and policy result search on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let api: AdminApi;
  let token: string;
  const keys = { prod: '', lab: '' };
  const ids = {} as Record<HostName, string>;
  let hardening: string;
  let firewall: string;

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token } = await createAdminToken(database, { label: 'tests' }));
    keys.prod = (await createKey(database, { label: 'Production' })).id;
    keys.lab = (await createKey(database, { label: 'Lab' })).id;
    api = await createAdminApi({ database });
    let clock = new Date(Date.now() - 60_000);
    const evaluator = new PolicyEvaluator(database, { now: () => clock, clockRecheckMs: 60_000, batchSize: 3 });
    try {
      hardening = (
        await createPolicy(database, {
          name: 'Hardening',
          scope: { keyId: keys.prod },
          rules: [
            { id: 'index', expression: 'summary.hardeningIndex >= 60' },
            { id: 'warnings', expression: 'size(summary.warnings) == 0' },
          ],
        })
      ).id;
      firewall = (
        await createPolicy(database, {
          name: 'Firewall',
          scope: { keyId: keys.prod },
          rules: [{ id: 'firewall', expression: "report.firewall_active == '1'" }],
        })
      ).id;
      const store = new OrmReportStore(database);
      for (const phase of [FIRST_EVALUATED, (Object.keys(HOSTS) as HostName[]).filter((name) => !FIRST_EVALUATED.includes(name))]) {
        for (const name of phase) {
          const host = HOSTS[name];
          const hostId = name.padEnd(40, '0');
          const content = Buffer.from('unreadable' in host ? 'not a Lynis report\n' : lynisReport(host));
          const reading = readReportBytes(content);
          await store.save({
            ...{ keyId: keys[host.key], hostId, receivedAt: clock, encoding: 'raw', size: content.length, sha256: 'a'.repeat(64), content },
            ...{ summary: reading?.summary ?? null, labels: reading?.labels },
          });
          ids[name] = hostRecordId(keys[host.key], hostId);
        }
        await evaluator.settle();
        clock = new Date(clock.getTime() + 1000);
      }
    } finally {
      await evaluator.stop();
    }
    const expiresAt = new Date(Date.now() + DAY_MS).toISOString();
    await createWaiver(database, UNSCOPED, { policyId: hardening, ruleId: 'warnings', hostRecordId: ids.db1, reason: 'known', expiresAt }, null);
    await createWaiver(database, UNSCOPED, { policyId: firewall, group: 'db', reason: 'replacing the firewall', expiresAt }, null);
  });
  afterEach(() => database.close());

  /** GETs an admin path as the HTTP adapters hand it over: the status and the body as text (streamed ones read whole). */
  async function get(path: string): Promise<{ status: number; body: string }> {
    const url = new URL(path, 'http://admin');
    const query = Object.fromEntries(url.searchParams);
    const response = await api.handle({ method: 'GET', path: url.pathname, query, headers: { authorization: `Bearer ${token}` }, body: { kind: 'none' } });
    const body = response.body instanceof Readable ? await text(response.body) : String(response.body);
    return { status: response.status, body };
  }
  async function ok<T>(path: string): Promise<T> {
    const { status, body } = await get(path);
    expect(status, `${path}: ${body}`).toBe(200);
    return JSON.parse(body) as T;
  }
  const names = (hostIds: string[]) => hostIds.map((id) => (Object.keys(ids) as HostName[]).find((name) => ids[name] === id));

  /** Every host the list shows for `query`, read two at a time: each page's total must be the number of all. */
  async function listed(query: string): Promise<(HostName | undefined)[]> {
    const hosts: string[] = [];
    let total: number | undefined;
    for (let offset = 0; total === undefined || offset < total; offset += 2) {
      const page = await ok<HostPage>(`/api/admin/hosts?limit=2&offset=${offset}&${query}`);
      total ??= page.total;
      expect(page.total, query).toBe(total);
      hosts.push(...page.items.map((host) => host.id));
    }
    expect(hosts, query).toHaveLength(total);
    return names(hosts);
  }
  /** The hosts in id order, as the compliance sort orders those with one compliance. */
  const byId = (...hosts: HostName[]) => [...hosts].sort((a, b) => ids[a].localeCompare(ids[b]));

  it('filters by compliance as Host.compliance reads it, waivers applied, each state paged with its total', async () => {
    expect((await listed('compliance=noncompliant&sort=hostname&order=asc')).sort()).toEqual(['broken', 'db2', 'web2']);
    expect(await listed('compliance=waived')).toEqual(['db1']);
    expect(await listed('compliance=compliant')).toEqual(['web1']);
    expect((await listed('compliance=unknown')).sort()).toEqual(['lab1', 'lab2']);
    const page = await ok<HostPage>(`/api/admin/hosts?compliance=waived`);
    expect(page.items.map((host) => host.compliance)).toEqual(['waived']);
    // Combined with another filter.
    expect((await listed('compliance=noncompliant&group=db')).sort()).toEqual(['db2']);
  });

  it('sorts by compliance each way, unknown last and ties by id, in pages and in the keyset pages of the exports', async () => {
    const desc = [...byId('broken', 'db2', 'web2'), 'db1', 'web1', ...byId('lab1', 'lab2')];
    const asc = ['web1', 'db1', ...byId('broken', 'db2', 'web2'), ...byId('lab1', 'lab2')];
    expect(await listed('sort=compliance')).toEqual(desc);
    expect(await listed('sort=compliance&order=desc')).toEqual(desc);
    expect(await listed('sort=compliance&order=asc')).toEqual(asc);
    expect(await listed('sort=compliance&order=asc&compliance=noncompliant')).toEqual(byId('broken', 'db2', 'web2'));
    // A page in the middle of a part, and one across two.
    const middle = await hostPage(database, UNSCOPED, { sort: 'compliance', order: 'asc', limit: 3, offset: 1 });
    expect([names(middle.items.map((host) => host.id)), middle.total]).toEqual([asc.slice(1, 4), 7]);
    for (const order of ['asc', 'desc'] as const) {
      const keyset: string[] = [];
      for await (const { records } of hostRecordPages(database, UNSCOPED, { sort: 'compliance', order }, 2)) keyset.push(...records.map((record) => record.id));
      expect(names(keyset), order).toEqual(order === 'asc' ? asc : desc);
    }
  });

  it('filters by an unwaived failure of a policy, of a rule, or of both', async () => {
    expect((await listed(`failingPolicy=${hardening}`)).sort()).toEqual(['broken', 'db2', 'web2']);
    // db-02's firewall failure is waived for its group.
    expect(await listed(`failingPolicy=${firewall}`)).toEqual(['broken']);
    expect((await listed('failingRule=index')).sort()).toEqual(['broken', 'db2', 'web2']);
    // db-01's warnings are waived for it.
    expect((await listed(`failingPolicy=${hardening}&failingRule=warnings`)).sort()).toEqual(['broken', 'db2', 'web2']);
    expect(await listed(`failingPolicy=${firewall}&failingRule=index`)).toEqual([]);
    expect(await listed('failingRule=firewall&compliance=noncompliant')).toEqual(['broken']);
  });

  it('filters by selected ids, comma-separated as the contract serializes them', async () => {
    expect((await listed(`ids=${ids.db1},${ids.lab2}`)).sort()).toEqual(['db1', 'lab2']);
    expect(await listed(`ids=${ids.web1}`)).toEqual(['web1']);
    expect(await listed(`ids=${ids.web1},${ids.web2}&compliance=noncompliant`)).toEqual(['web2']);
  });

  it('matches groups, tags and operating systems case-insensitively', async () => {
    expect((await listed('group=WEBSERVERS')).sort()).toEqual(['web1', 'web2']);
    expect((await listed('group=DB')).sort()).toEqual(['db1', 'db2', 'lab2']);
    expect((await listed('tag=eu')).sort()).toEqual(['web1', 'web2']);
    expect(await listed('tag=US_EAST')).toEqual(['db2']);
    expect((await listed(`os=${encodeURIComponent(DEBIAN.toUpperCase())}`)).sort()).toEqual(['db1', 'db2', 'web1']);
    expect(await listed('os=debian')).toEqual([]);
  });

  it('refuses an unknown compliance, a malformed id, more than 500 ids and a bad sort with a 400', async () => {
    const many = Array.from({ length: 501 }, () => ids.web1).join(',');
    for (const bad of ['compliance=broken', 'ids=not-a-uuid', `ids=${ids.web1},nope`, `ids=${many}`, 'failingPolicy=nope', 'sort=risk']) {
      const { status, body } = await get(`/api/admin/hosts?${bad}`);
      expect(status, bad).toBe(400);
      expect(JSON.parse(body), bad).toMatchObject({ status: 400 });
    }
    expect(JSON.parse((await get(`/api/admin/hosts?ids=${many}`)).body).detail).toMatch(/ids.*500/);
  });

  it.each([
    'compliance=noncompliant',
    'compliance=unknown&sort=compliance',
    'sort=compliance&order=asc',
    'failingRule=warnings&group=DB',
    'failingPolicy={hardening}&tag=EU',
  ])('exports as many hosts and their findings as the list counts for %s', async (template) => {
    const query = template.replace('{hardening}', hardening);
    const page = await ok<HostPage>(`/api/admin/hosts?limit=500&${query}`);
    expect(page.total).toBeGreaterThan(0);
    const hosts = JSON.parse((await get(`/api/admin/exports/hosts?format=json&${query}`)).body) as { id: string }[];
    expect(hosts.map((host) => host.id)).toEqual(page.items.map((host) => host.id));
    // The findings export takes the filters, not the order (its rows are by host id).
    const filters = query.replace(/&?(sort|order)=\w+/g, '');
    const findings = JSON.parse((await get(`/api/admin/exports/findings?format=json&${filters}`)).body) as { hostRecordId: string }[];
    const warned = page.items.filter((host) => (host.latestWarningCount ?? 0) > 0);
    expect(findings).toHaveLength(warned.reduce((sum, host) => sum + host.latestWarningCount!, 0));
    expect(new Set(findings.map((finding) => finding.hostRecordId))).toEqual(new Set(warned.map((host) => host.id)));
  });

  it('answers the facets: values with their host counts, most first, searched literally and case-insensitively', async () => {
    const facets = await ok<Facets>('/api/admin/facets');
    expect(facets.group.slice(0, 2)).toEqual([
      { value: 'db', label: null, hosts: 3 },
      { value: 'lab', label: null, hosts: 2 },
    ]);
    // Values differing in case count apart.
    expect(
      facets.group
        .slice(2)
        .map((value) => [value.value, value.hosts])
        .sort(),
    ).toEqual([
      ['WebServers', 1],
      ['webservers', 1],
    ]);
    expect(facets.os).toEqual([
      { value: DEBIAN, label: null, hosts: 3 },
      { value: 'Ubuntu 24.04', label: null, hosts: 1 },
    ]);
    expect(facets.key).toEqual([
      { value: keys.prod, label: 'Production', hosts: 5 },
      { value: keys.lab, label: 'Lab', hosts: 2 },
    ]);
    expect(facets.customer).toEqual([
      { value: 'Acme', label: null, hosts: 2 },
      { value: 'Globex', label: null, hosts: 1 },
    ]);
    expect(facets.tag).toHaveLength(4);

    expect((await ok<Facets>('/api/admin/facets?field=tag&q=_')).tag).toEqual([{ value: 'us_east', label: null, hosts: 1 }]);
    expect((await ok<Facets>('/api/admin/facets?field=tag&q=%25')).tag).toEqual([]);
    expect((await ok<Facets>('/api/admin/facets?field=tag&q=US')).tag.map((value) => value.value)).toEqual(['us', 'us_east']);
    expect((await ok<Facets>('/api/admin/facets?field=key&q=LA')).key).toEqual([{ value: keys.lab, label: 'Lab', hosts: 2 }]);
    const limited = await ok<Facets>('/api/admin/facets?field=group&limit=1');
    expect(limited).toEqual({ group: [{ value: 'db', label: null, hosts: 3 }], tag: [], os: [], key: [], customer: [] });
    expect((await ok<Facets>('/api/admin/facets?limit=1')).os).toHaveLength(1);
    for (const bad of ['field=colour', 'limit=0', 'limit=101', 'q=']) expect((await get(`/api/admin/facets?${bad}`)).status, bad).toBe(400);
  });

  describe('policy results', () => {
    /** Every result of the hardening policy for `query`, read three at a time, as `hostname/rule/status`: each page's total must be the number of all. */
    async function results(query: string): Promise<string[]> {
      const rows: string[] = [];
      let total: number | undefined;
      for (let offset = 0; total === undefined || offset < total; offset += 3) {
        const page = await ok<PolicyResultPage>(`/api/admin/policies/${hardening}/results?limit=3&offset=${offset}&${query}`);
        total ??= page.total;
        expect(page.total, query).toBe(total);
        rows.push(...page.items.map((result) => `${result.hostname ?? '-'}/${result.ruleId}/${result.status}`));
      }
      expect(rows, query).toHaveLength(total);
      return rows;
    }
    const FAILURES_FIRST = [
      'db-02/index/fail',
      'db-02/warnings/fail',
      'web-02/index/fail',
      'web-02/warnings/fail',
      '-/index/error',
      '-/warnings/error',
      'db-01/warnings/waived',
      'db-01/index/pass',
      'web-01/index/pass',
      'web-01/warnings/pass',
    ];

    it('orders by status ascending when no order is given, as the tuned default page does', async () => {
      expect(await results('')).toEqual(FAILURES_FIRST);
      expect(await results('order=asc&sort=status')).toEqual(FAILURES_FIRST);
      expect(await results('order=desc')).toEqual([
        'db-01/index/pass',
        'web-01/index/pass',
        'web-01/warnings/pass',
        'db-01/warnings/waived',
        '-/index/error',
        '-/warnings/error',
        'db-02/index/fail',
        'db-02/warnings/fail',
        'web-02/index/fail',
        'web-02/warnings/fail',
      ]);
    });

    it('searches host names literally and case-insensitively, with the total of what it finds', async () => {
      expect(await results('hostname=WEB')).toEqual(['web-02/index/fail', 'web-02/warnings/fail', 'web-01/index/pass', 'web-01/warnings/pass']);
      expect(await results('hostname=_')).toEqual([]);
      expect(await results('hostname=%25')).toEqual([]);
      expect(await results('hostname=db&status=fail')).toEqual(['db-02/index/fail', 'db-02/warnings/fail']);
      expect(await results('hostname=-0&status=waived&ruleId=warnings')).toEqual(['db-01/warnings/waived']);
    });

    it('sorts by host name, rule and since, each way, ties by host name (none last), host and rule', async () => {
      const byName = ['db-01/index/pass', 'db-01/warnings/waived', 'db-02/index/fail', 'db-02/warnings/fail'];
      const webs = ['web-01/index/pass', 'web-01/warnings/pass', 'web-02/index/fail', 'web-02/warnings/fail'];
      const unnamed = ['-/index/error', '-/warnings/error'];
      expect(await results('sort=hostname')).toEqual([...byName, ...webs, ...unnamed]);
      expect(await results('sort=hostname&order=desc')).toEqual([...webs.slice(2), ...webs.slice(0, 2), ...byName.slice(2), ...byName.slice(0, 2), ...unnamed]);
      const ofRule = (rule: string) => [...byName, ...webs, ...unnamed].filter((row) => row.split('/')[1] === rule);
      expect(await results('sort=rule')).toEqual([...ofRule('index'), ...ofRule('warnings')]);
      expect(await results('sort=rule&order=desc&hostname=web')).toEqual([...ofRule('warnings'), ...ofRule('index')].filter((row) => row.startsWith('web')));
      // web-01 and web-02 were evaluated first: they have failed (or passed) longest.
      expect(await results('sort=since')).toEqual([...webs, ...byName, ...unnamed]);
      expect(await results('sort=since&order=desc')).toEqual([...byName, ...unnamed, ...webs]);
      expect(await results('sort=since&status=fail')).toEqual(['web-02/index/fail', 'web-02/warnings/fail', 'db-02/index/fail', 'db-02/warnings/fail']);
    });

    it('refuses a bad sort, order or search with a 400', async () => {
      for (const bad of ['sort=value', 'order=up', 'hostname=', 'hostname=%00']) {
        expect((await get(`/api/admin/policies/${hardening}/results?${bad}`)).status, bad).toBe(400);
      }
    });
  });
});
