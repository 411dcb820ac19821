import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReportBytes, type ReportToStore } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { writesDuring } from '@org/test-support/statements';
import { openDatabase, type Database } from '../database/open.js';
import { hostRecordId } from '../hosts/host-records.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey } from '../secrets/license-keys.js';
import { BASELINE_POLICY } from './baseline.js';
import { PolicyEvaluator } from './policy-evaluator.js';
import { DomainError } from '../errors/domain-error.js';
import { createPolicy, deletePolicy, setPolicyEnabled, updatePolicy } from './policy-records.js';
import { fleetCompliance, hostCompliance, listResults, recordComplianceDay, statusCounts } from './policy-results.js';
import { createWaiver, listWaivers } from './waivers.js';
import { groupedCounts } from './grouped-counts.test-kit.js';
import { UNSCOPED } from '../people/scope.js';

const DAY_MS = 86_400_000;

/** A Lynis report of a host: hardening index, firewall, vulnerable packages and warnings as given. */
function lynisReport(
  hostname: string,
  {
    index,
    firewall = '1',
    vulnerable = [] as string[],
    warnings = [] as string[],
    groups = '',
  }: { index: number; firewall?: string; vulnerable?: string[]; warnings?: string[]; groups?: string },
) {
  return [
    ...(groups ? [`system-groups=${groups}`] : []),
    'report_version_major=1',
    'report_version_minor=0',
    'lynis_version=3.0.8',
    `hostname=${hostname}`,
    `hardening_index=${index}`,
    `firewall_active=${firewall}`,
    ...vulnerable.map((name) => `vulnerable_package[]=${name}`),
    ...warnings.map((testId) => `warning[]=${testId}|A warning|-|-|`),
    '',
  ].join('\n');
}

describe.each(DIALECTS)('compliance policies on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  let store: OrmReportStore;
  let keyId: string;
  let clock: Date;
  let evaluator: PolicyEvaluator;
  beforeEach(async () => {
    orm = await openDatabase(database.location);
    store = new OrmReportStore(orm);
    ({ id: keyId } = await createKey(orm));
    clock = new Date();
    evaluator = new PolicyEvaluator(orm, { now: () => clock, clockRecheckMs: 60_000, batchSize: 2 });
  });
  afterEach(async () => {
    await evaluator.stop();
    await orm.close();
  });

  async function upload(hostId: string, text: string, receivedAt = clock): Promise<string> {
    const content = Buffer.from(text);
    const reading = readReportBytes(content);
    const report: ReportToStore = {
      keyId,
      hostId,
      receivedAt,
      encoding: 'raw',
      size: content.length,
      sha256: 'a'.repeat(64),
      content,
      summary: reading?.summary ?? null,
      labels: reading?.labels,
    };
    return (await store.save(report)).id;
  }

  const WEB = 'a'.repeat(40);
  const DB = 'b'.repeat(40);
  const OLD = 'c'.repeat(40);
  // The baseline ignores PKGS-7392 (its vulnerable packages have a rule of their own): one more warning fails it.
  const DB_WARNINGS = ['PKGS-7392', 'AUTH-9286'];

  it('evaluates every host in scope, keeps results with their history, and applies waivers when read', async () => {
    const baseline = await createPolicy(orm, BASELINE_POLICY);
    const web = await createPolicy(orm, {
      name: 'Web firewall',
      scope: { hostname: 'WEB-*' },
      rules: [{ id: 'firewall', expression: "report.firewall_active == '1'" }],
    });
    await upload(WEB, lynisReport('web-01', { index: 70 }));
    const dbFirst = await upload(DB, lynisReport('db-01', { index: 40, vulnerable: ['openssl'], warnings: DB_WARNINGS }));
    await evaluator.settle();

    const dbHost = hostRecordId(keyId, DB);
    const results = await listResults(orm, baseline.id, { limit: 50, offset: 0 });
    expect(results.total).toBe(10);
    // Failures first, then by host name.
    expect(results.items.slice(0, 3).map((result) => [result.hostname, result.ruleId, result.status, result.value, result.reportId])).toEqual([
      ['db-01', 'hardening-index', 'fail', '40', dbFirst],
      ['db-01', 'no-vulnerable-packages', 'fail', '1', dbFirst],
      ['db-01', 'no-warnings', 'fail', '1', dbFirst],
    ]);
    expect(results.items.slice(3).every((result) => result.status === 'pass')).toBe(true);
    const webResults = await listResults(orm, web.id, { limit: 50, offset: 0 });
    expect(webResults.items.map((result) => [result.hostname, result.status])).toEqual([['web-01', 'pass']]);
    let counts = await statusCounts(orm, UNSCOPED, clock);
    expect(counts.byPolicy.get(baseline.id)).toEqual({ pass: 1, fail: 1, error: 0, waived: 0 });
    expect(counts.byRule.get(`${baseline.id}\nhardening-index`)).toEqual({ pass: 1, fail: 1, error: 0, waived: 0 });

    // A new report of db-01 that fixes its index: that rule passes, with both statuses in the history.
    clock = new Date(clock.getTime() + 1000);
    await upload(DB, lynisReport('db-01', { index: 65, vulnerable: ['openssl'], warnings: DB_WARNINGS }));
    await evaluator.settle();
    const compliance = (await hostCompliance(orm, UNSCOPED, dbHost, clock))!;
    expect(compliance.status).toBe('fail');
    expect(compliance.results.find((result) => result.ruleId === 'hardening-index')).toMatchObject({ status: 'pass', value: '65', since: clock.toISOString() });
    expect(compliance.history.filter((change) => change.ruleId === 'hardening-index').map((change) => change.status)).toEqual(['pass', 'fail']);

    // Waive the warnings rule for the host, then the whole policy: waived, not passed.
    const expiresAt = new Date(clock.getTime() + DAY_MS).toISOString();
    const waiver = await createWaiver(
      orm,
      UNSCOPED,
      { policyId: baseline.id, ruleId: 'no-warnings', hostRecordId: dbHost, reason: 'known', expiresAt },
      'ops',
      clock,
    );
    expect(waiver).toMatchObject({ ruleId: 'no-warnings', hostRecordId: dbHost, group: null, createdBy: 'ops' });
    const waived = await listResults(orm, baseline.id, { status: 'waived', limit: 50, offset: 0 }, clock);
    expect(waived.items.map((result) => [result.ruleId, result.waiverId])).toEqual([['no-warnings', waiver.id]]);
    expect((await statusCounts(orm, UNSCOPED, clock)).byPolicy.get(baseline.id)).toEqual({ pass: 1, fail: 1, error: 0, waived: 0 });
    await createWaiver(orm, UNSCOPED, { policyId: baseline.id, hostRecordId: dbHost, reason: 'decommissioning', expiresAt }, null, clock);
    expect((await statusCounts(orm, UNSCOPED, clock)).byPolicy.get(baseline.id)).toEqual({ pass: 1, fail: 0, error: 0, waived: 1 });
    // Once expired, the failures count again.
    const later = new Date(clock.getTime() + 2 * DAY_MS);
    expect((await statusCounts(orm, UNSCOPED, later)).byPolicy.get(baseline.id)).toEqual({ pass: 1, fail: 1, error: 0, waived: 0 });
    expect(await listWaivers(orm, UNSCOPED, {}, later)).toEqual([]);
    expect(await listWaivers(orm, UNSCOPED, { includeExpired: true }, later)).toHaveLength(2);

    // A rule removed from the policy loses its results; a deleted policy loses results and waivers.
    await updatePolicy(orm, baseline.id, { ...BASELINE_POLICY, rules: BASELINE_POLICY.rules.filter((rule) => rule.id !== 'no-warnings') });
    await evaluator.settle();
    expect((await listResults(orm, baseline.id, { limit: 50, offset: 0 })).items.some((result) => result.ruleId === 'no-warnings')).toBe(false);
    await deletePolicy(orm, baseline.id);
    const knex = orm.em.getKnex();
    expect(Number((await knex('policy_result').where('policy_id', baseline.id).count({ n: '*' }))[0]!['n'])).toBe(0);
    expect(Number((await knex('waiver').count({ n: '*' }))[0]!['n'])).toBe(0);
    counts = await statusCounts(orm, UNSCOPED, clock);
    expect(counts.byPolicy.has(baseline.id)).toBe(false);
  });

  it('takes each batch of a pass after the last one in host order, never scanning again from the first host', async () => {
    const policy = await createPolicy(orm, BASELINE_POLICY);
    const hostIds = ['1', '2', '3', '4', '5'].map((digit) => digit.repeat(40));
    for (const hostId of hostIds) await upload(hostId, lynisReport(`host-${hostId[0]}`, { index: 70 }));
    const ids = hostIds.map((hostId) => hostRecordId(keyId, hostId)).sort();
    const lookups: unknown[][] = [];
    const knex = orm.em.getKnex();
    const recordLookup = (query: { sql: string; bindings?: unknown[] }) => {
      if (/^select .* left join .policy_evaluation./.test(query.sql)) lookups.push(query.bindings ?? []);
    };
    knex.client.on('query', recordLookup);
    try {
      await evaluator.settle();
    } finally {
      knex.client.removeListener('query', recordLookup);
    }
    expect((await listResults(orm, policy.id, { limit: 50, offset: 0 })).total).toBe(5 * BASELINE_POLICY.rules.length);
    // Batches of two: the first lookup names no host; each later one starts after the previous batch's last host.
    expect(lookups).toHaveLength(4);
    expect(lookups[0]!.some((value) => ids.includes(String(value)))).toBe(false);
    expect(lookups.slice(1).map((bindings) => bindings.filter((value) => ids.includes(String(value))))).toEqual([[ids[1]], [ids[3]], [ids[4]]]);
  });

  it('writes nothing while no policy is enabled and none has results, and evaluates every host once one is', async () => {
    await upload(WEB, lynisReport('web-01', { index: 70 }));
    await evaluator.settle(); // the day's compliance, recorded at most once a minute
    await upload(WEB, lynisReport('web-01', { index: 71 }));
    await upload(DB, lynisReport('db-01', { index: 40 }));
    expect(await writesDuring(orm.em.getKnex().client, () => evaluator.settle())).toEqual([]);
    const policy = await createPolicy(orm, { name: 'Index', rules: [{ id: 'index', expression: 'summary.hardeningIndex >= 50' }] });
    await evaluator.settle();
    const results = (await listResults(orm, policy.id, { limit: 10, offset: 0 })).items;
    expect(results.map((result) => [result.hostname, result.status]).sort()).toEqual([
      ['db-01', 'fail'],
      ['web-01', 'pass'],
    ]);
    // Disabled again: its results are still removed by evaluating, as before.
    await updatePolicy(orm, policy.id, { name: 'Index', enabled: false, rules: [{ id: 'index', expression: 'summary.hardeningIndex >= 50' }] });
    await evaluator.settle();
    expect(Number(((await orm.em.getKnex()('policy_result').count({ n: '*' })) as [{ n: number | string }])[0].n)).toBe(0);
  });

  it('evaluates rules that read the clock again as time passes, and nothing else', async () => {
    const policy = await createPolicy(orm, { name: 'Fresh', rules: [{ id: 'recent', expression: "now - host.lastSeen < duration('168h')" }] });
    await upload(OLD, lynisReport('old-01', { index: 70 }));
    await evaluator.settle();
    expect((await listResults(orm, policy.id, { limit: 10, offset: 0 })).items.map((result) => result.status)).toEqual(['pass']);
    clock = new Date(clock.getTime() + 8 * DAY_MS);
    await evaluator.settle();
    expect((await listResults(orm, policy.id, { limit: 10, offset: 0 })).items.map((result) => result.status)).toEqual(['fail']);
  });

  it('a server started later finds nothing out of date, and a host whose evaluation was lost is found again', async () => {
    const policy = await createPolicy(orm, { name: 'Index', rules: [{ id: 'index', expression: 'summary.hardeningIndex >= 50' }] });
    for (let host = 0; host < 5; host++) await upload(String(host).repeat(40), lynisReport(`h-${host}`, { index: 40 + host * 5 }));
    await evaluator.settle();
    const knex = orm.em.getKnex();
    const before = await knex('policy_evaluation').select('*').orderBy('host_record_id');
    expect(before).toHaveLength(5);
    const restarted = new PolicyEvaluator(orm, { now: () => new Date(clock.getTime() + 1000) });
    await restarted.settle();
    expect(await knex('policy_evaluation').select('*').orderBy('host_record_id')).toEqual(before);
    // As if the server had stopped between storing a report and evaluating it.
    await knex('policy_evaluation')
      .where('host_record_id', hostRecordId(keyId, '0'.repeat(40)))
      .delete();
    await restarted.settle();
    await restarted.stop();
    expect(
      await knex('policy_evaluation')
        .select('*')
        .where('host_record_id', hostRecordId(keyId, '0'.repeat(40))),
    ).toEqual([
      expect.objectContaining({
        report_id: before.find((row: { host_record_id: string }) => row.host_record_id === hostRecordId(keyId, '0'.repeat(40)))!.report_id,
      }),
    ]);
    expect((await statusCounts(orm, UNSCOPED)).byPolicy.get(policy.id)).toEqual({ pass: 3, fail: 2, error: 0, waived: 0 });
    expect(await fleetCompliance(orm, UNSCOPED)).toEqual({ hosts: { pass: 3, fail: 2, error: 0, waived: 0 }, evaluatedHosts: 5 });
    await recordComplianceDay(orm, clock);
    expect(await knex('compliance_day').select('day', 'pass', 'fail')).toEqual([{ day: clock.toISOString().slice(0, 10), pass: 3, fail: 2 }]);
  });

  it('keeps status counts, by rule, policy and over the fleet, equal to the results grouped as reports, waivers and policies change', async () => {
    const baseline = await createPolicy(orm, BASELINE_POLICY);
    const web = await createPolicy(orm, {
      name: 'Web',
      scope: { group: 'web' },
      rules: [
        { id: 'index', expression: 'summary.hardeningIndex >= 60' },
        { id: 'firewall', expression: "report.firewall_active == '1'" },
      ],
    });
    const hosts = Array.from({ length: 7 }, (_, i) => String(i).repeat(40));
    const uploadAll = async (round: number) => {
      for (const [i, host] of hosts.entries()) {
        await upload(
          host,
          lynisReport(`host-${i}`, {
            index: 40 + ((i * 13 + round * 7) % 40),
            firewall: (i + round) % 3 === 0 ? '0' : '1',
            warnings: (i + round) % 2 ? ['PKGS-7392'] : [],
            groups: i % 2 ? 'web,eu' : 'db',
          }),
          new Date(clock.getTime() + round),
        );
      }
      await evaluator.settle();
    };
    const expectExact = async (now: Date) => {
      const kept = await statusCounts(orm, UNSCOPED, now);
      const grouped = await groupedCounts(orm, now);
      expect(Object.fromEntries(kept.byRule)).toEqual(Object.fromEntries(grouped.byRule));
      expect(Object.fromEntries(kept.byPolicy)).toEqual(Object.fromEntries(grouped.byPolicy));
      expect((await fleetCompliance(orm, UNSCOPED, now)).hosts).toEqual(grouped.fleet);
    };
    await uploadAll(0);
    await expectExact(clock);
    expect((await statusCounts(orm, UNSCOPED, clock)).byPolicy.get(web.id)).toEqual({ pass: 1, fail: 2, error: 0, waived: 0 });
    const expiresAt = new Date(clock.getTime() + DAY_MS).toISOString();
    // A host waiver and a group waiver (named in other case) cover some of the same results; another waiver covers a
    // whole policy for one host, and a fleet-wide one a rule for every host.
    await createWaiver(
      orm,
      UNSCOPED,
      { policyId: web.id, ruleId: 'index', hostRecordId: hostRecordId(keyId, hosts[1]!), reason: 'known', expiresAt },
      null,
      clock,
    );
    await createWaiver(orm, UNSCOPED, { policyId: web.id, group: 'EU', ruleId: 'index', reason: 'migration', expiresAt }, null, clock);
    await createWaiver(
      orm,
      UNSCOPED,
      { policyId: baseline.id, hostRecordId: hostRecordId(keyId, hosts[2]!), reason: 'decommissioning', expiresAt },
      null,
      clock,
    );
    await expectExact(clock);
    await createWaiver(orm, UNSCOPED, { policyId: web.id, ruleId: 'firewall', reason: 'firewalled upstream', expiresAt }, null, clock);
    await expectExact(clock);
    expect((await statusCounts(orm, UNSCOPED, clock)).byRule.get(`${web.id}\nfirewall`)).toMatchObject({ fail: 0, error: 0 });
    for (const round of [1, 2]) {
      clock = new Date(clock.getTime() + 1000);
      await uploadAll(round);
      await expectExact(clock);
    }
    await expectExact(new Date(clock.getTime() + 2 * DAY_MS));
    await updatePolicy(orm, baseline.id, { ...BASELINE_POLICY, rules: BASELINE_POLICY.rules.filter((rule) => rule.id !== 'no-warnings') });
    await evaluator.settle();
    await expectExact(clock);
    await deletePolicy(orm, web.id);
    await expectExact(clock);
    expect((await statusCounts(orm, UNSCOPED, clock)).byPolicy.has(web.id)).toBe(false);
  });

  it('scopes a policy to a group of the latest report, and waives it for a whole group', async () => {
    const policy = await createPolicy(orm, { name: 'Web', scope: { group: 'web' }, rules: [{ id: 'index', expression: 'summary.hardeningIndex >= 60' }] });
    await upload(WEB, lynisReport('web-01', { index: 40, groups: 'web,eu' }));
    await upload(DB, lynisReport('db-01', { index: 40, groups: 'db' }));
    await evaluator.settle();
    expect((await listResults(orm, policy.id, { limit: 10, offset: 0 })).items.map((result) => [result.hostname, result.status])).toEqual([['web-01', 'fail']]);
    const expiresAt = new Date(clock.getTime() + DAY_MS).toISOString();
    await createWaiver(orm, UNSCOPED, { policyId: policy.id, group: 'eu', reason: 'migration', expiresAt }, null, clock);
    expect((await listResults(orm, policy.id, { limit: 10, offset: 0 }, clock)).items.map((result) => result.status)).toEqual(['waived']);
    // The host leaves the group with its next report: out of scope, its results gone.
    clock = new Date(clock.getTime() + 1000);
    await upload(WEB, lynisReport('web-01', { index: 40, groups: 'db' }));
    await evaluator.settle();
    expect((await listResults(orm, policy.id, { limit: 10, offset: 0 })).total).toBe(0);
  });

  it('waives by group past 10,000 hosts named, reading the waived hosts by their query', async () => {
    const policy = await createPolicy(orm, { name: 'Web', rules: [{ id: 'index', expression: 'summary.hardeningIndex >= 60' }] });
    await upload(WEB, lynisReport('web-01', { index: 40 }));
    await evaluator.settle();
    const expiresAt = new Date(clock.getTime() + DAY_MS).toISOString();
    await createWaiver(orm, UNSCOPED, { policyId: policy.id, group: 'g0', reason: 'migration', expiresAt }, null, clock);
    // 10,001 groups of the one host, each waived: more members than are named by value.
    const knex = orm.em.getKnex();
    const host = hostRecordId(keyId, WEB);
    const [waiver] = await knex('waiver').select<Record<string, unknown>[]>('*');
    const groups = Array.from({ length: 10_001 }, (_, index) => `g${index}`);
    for (let start = 0; start < groups.length; start += 500) {
      const slice = groups.slice(start, start + 500);
      await knex('host_label').insert(slice.map((value, index) => ({ host_record_id: host, kind: 'group', value, position: start + index })));
      const copies = slice.filter((value) => value !== 'g0').map((value) => ({ ...waiver, id: randomUUID(), group_name: value }));
      if (copies.length > 0) await knex('waiver').insert(copies);
    }
    expect((await listResults(orm, policy.id, { limit: 10, offset: 0 }, clock)).items.map((result) => [result.hostname, result.status])).toEqual([
      ['web-01', 'waived'],
    ]);
  });

  it('pages results failures first, then errors, waived and passes, by host name (none last) then host and rule, with waivers applied as read', async () => {
    const policy = await createPolicy(orm, {
      name: 'Two rules',
      rules: [
        { id: 'index', expression: 'summary.hardeningIndex >= 60' },
        { id: 'warnings', expression: 'size(summary.warnings) == 0' },
      ],
    });
    const hosts = { alpha: '1', bravo: '2', charlie: '3', delta: '4', echo: '5', nameless: '6', unreadable: '7' };
    const id = (name: keyof typeof hosts) => hostRecordId(keyId, hosts[name].repeat(40));
    await upload(hosts.alpha.repeat(40), lynisReport('alpha', { index: 40 }));
    await upload(hosts.bravo.repeat(40), lynisReport('bravo', { index: 70, warnings: ['PKGS-7392'] }));
    await upload(hosts.charlie.repeat(40), lynisReport('charlie', { index: 30, warnings: ['PKGS-7392'], groups: 'legacy' }));
    await upload(hosts.delta.repeat(40), lynisReport('delta', { index: 80 }));
    await upload(hosts.echo.repeat(40), lynisReport('echo', { index: 50 }));
    // A Lynis report without a host name, and a report that is no Lynis report (every rule an error): no name.
    await upload(hosts.nameless.repeat(40), lynisReport('x', { index: 10 }).replace('hostname=x\n', ''));
    await upload(hosts.unreadable.repeat(40), 'not a Lynis report\n');
    await evaluator.settle();
    const expiresAt = (ms: number) => new Date(clock.getTime() + ms).toISOString();
    const legacy = await createWaiver(
      orm,
      UNSCOPED,
      { policyId: policy.id, group: 'legacy', ruleId: 'index', reason: 'migration', expiresAt: expiresAt(DAY_MS) },
      null,
      clock,
    );
    const echo = await createWaiver(
      orm,
      UNSCOPED,
      { policyId: policy.id, hostRecordId: id('echo'), reason: 'decommissioning', expiresAt: expiresAt(3_600_000) },
      null,
      clock,
    );
    type Row = [keyof typeof hosts, string, string, string | null];
    // Results without a host name sort after the named ones of their status.
    const expected = (echoWaived: boolean): Row[] => [
      ['alpha', 'index', 'fail', null],
      ['bravo', 'warnings', 'fail', null],
      ['charlie', 'warnings', 'fail', null],
      ...(echoWaived ? [] : ([['echo', 'index', 'fail', null]] as Row[])),
      ['nameless', 'index', 'fail', null],
      ['unreadable', 'index', 'error', null],
      ['unreadable', 'warnings', 'error', null],
      ['charlie', 'index', 'waived', legacy.id],
      ...(echoWaived ? ([['echo', 'index', 'waived', echo.id]] as Row[]) : []),
      ['alpha', 'warnings', 'pass', null],
      ['bravo', 'index', 'pass', null],
      ['delta', 'index', 'pass', null],
      ['delta', 'warnings', 'pass', null],
      // A waiver covers a passing result too: it passes, naming the waiver.
      ['echo', 'warnings', 'pass', echoWaived ? echo.id : null],
      ['nameless', 'warnings', 'pass', null],
    ];
    const shown = (name: keyof typeof hosts) => (name === 'nameless' || name === 'unreadable' ? null : name);
    for (const [now, echoWaived] of [
      [clock, true],
      [new Date(clock.getTime() + 2 * 3_600_000), false],
    ] as const) {
      const all = expected(echoWaived);
      for (const filter of [
        {},
        { status: 'fail' },
        { status: 'error' },
        { status: 'waived' },
        { status: 'pass' },
        { ruleId: 'index' },
        { ruleId: 'warnings', status: 'pass' },
        { ruleId: 'index', status: 'waived' },
        { ruleId: 'nope' },
      ] as { ruleId?: string; status?: 'pass' | 'fail' | 'error' | 'waived' }[]) {
        const wanted = all
          .filter(([, rule, status]) => (filter.ruleId === undefined || rule === filter.ruleId) && (filter.status === undefined || status === filter.status))
          .map(([name, rule, status, waiverId]) => [shown(name), id(name), rule, status, waiverId]);
        // Every page of three, and a page past the end.
        const pages = [];
        for (let offset = 0; offset <= wanted.length; offset += 3) {
          const page = await listResults(orm, policy.id, { ...filter, limit: 3, offset }, now);
          expect(page.total, JSON.stringify(filter)).toBe(wanted.length);
          pages.push(...page.items.map((result) => [result.hostname, result.hostRecordId, result.ruleId, result.status, result.waiverId]));
        }
        expect(pages, `${JSON.stringify(filter)} at ${now.toISOString()}`).toEqual(wanted);
      }
    }
  });

  it('gives every rule an error on a latest report damaged in the database, and goes on evaluating the other hosts', async () => {
    const policy = await createPolicy(orm, { name: 'Firewall', rules: [{ id: 'firewall', expression: "report.firewall_active == '1'" }] });
    const damaged = await upload(WEB, lynisReport('web-01', { index: 70 }));
    await upload(DB, lynisReport('db-01', { index: 70 }));
    const knex = orm.em.getKnex();
    await knex('report')
      .where('id', damaged)
      .update({ content_sha256: 'f'.repeat(64) });
    await evaluator.settle();
    const results = (await knex('policy_result').select('host_record_id', 'status', 'message').where('policy_id', policy.id)) as {
      host_record_id: string;
      status: string;
      message: string | null;
    }[];
    expect(results.find((r) => r.host_record_id === hostRecordId(keyId, WEB))).toMatchObject({
      status: 'error',
      message: 'the latest report is damaged in the database',
    });
    expect(results.find((r) => r.host_record_id === hostRecordId(keyId, DB))).toMatchObject({ status: 'pass' });
  });

  it('answers "no such policy" for an id that is no UUID, which PostgreSQL would refuse with its SQL (the CLI takes any text)', async () => {
    await expect(deletePolicy(orm, 'web-01')).rejects.toMatchObject({ code: 'not_found', message: 'No policy with id web-01' });
    await expect(setPolicyEnabled(orm, 'web-01', false)).rejects.toMatchObject({ code: 'not_found', message: 'No policy with id web-01' });
  });

  it('refuses invalid rules naming each, a duplicate name, and a waiver that names both a host and a group', async () => {
    const error = await createPolicy(orm, {
      name: 'Broken',
      rules: [
        { id: 'syntax', expression: 'summary.hardeningIndex >= ' },
        { id: 'fine', expression: 'true' },
        { id: 'fine', expression: 'true' },
      ],
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).errors).toEqual([
      { ruleId: 'syntax', position: 26, message: 'Unexpected token: EOF' },
      { ruleId: 'fine', position: null, message: 'another rule of the policy has this id' },
    ]);
    await createPolicy(orm, BASELINE_POLICY);
    await expect(createPolicy(orm, BASELINE_POLICY)).rejects.toMatchObject({ code: 'conflict' });
    const [policy] = await orm.em.getKnex()('policy').select('id');
    const expiresAt = new Date(Date.now() + DAY_MS).toISOString();
    await expect(
      createWaiver(orm, UNSCOPED, { policyId: policy.id, group: 'web', hostRecordId: hostRecordId(keyId, WEB), reason: 'x', expiresAt }, null),
    ).rejects.toMatchObject({ code: 'invalid' });
    await expect(createWaiver(orm, UNSCOPED, { policyId: policy.id, group: 'web', ruleId: 'nope', reason: 'x', expiresAt }, null)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      createWaiver(orm, UNSCOPED, { policyId: policy.id, hostRecordId: hostRecordId(keyId, WEB), reason: 'x', expiresAt }, null),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
