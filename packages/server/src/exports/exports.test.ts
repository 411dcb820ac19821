import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReportBytes, type ReportToStore } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { hostRecordId } from '../hosts/host-records.js';
import { createPolicy } from '../policies/policy-records.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey } from '../secrets/license-keys.js';
import { exportStream } from './export-body.js';
import { FINDING_COLUMNS, findingRows, HISTORY_COLUMNS, historyRows, HOST_COLUMNS, hostRows } from './fleet-exports.js';
import { hostPage, hostRecordPages, type HostFilters } from '../hosts/host-queries.js';
import { UNSCOPED } from '../people/scope.js';

const report = (hostname: string, index: number, extra: string[] = []) =>
  ['report_version_major=1', 'report_version_minor=0', 'lynis_version=3.0.8', `hostname=${hostname}`, `hardening_index=${index}`, ...extra, ''].join('\n');

describe.each(DIALECTS)('exports on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  let keyId: string;
  beforeEach(async () => {
    orm = await openDatabase(database.location);
    ({ id: keyId } = await createKey(orm));
  });
  afterEach(() => orm.close());

  async function upload(hostId: string, body: string, receivedAt = new Date(), key = keyId) {
    const content = Buffer.from(body);
    const reading = readReportBytes(content);
    const saved: ReportToStore = {
      keyId: key,
      hostId,
      receivedAt,
      encoding: 'raw',
      size: content.length,
      sha256: 'a'.repeat(64),
      content,
      summary: reading?.summary ?? null,
      labels: reading?.labels,
    };
    return (await new OrmReportStore(orm).save(saved)).id;
  }

  it('writes hosts with labels and compliance as CSV, formulas in host text defused, and the same rows as JSON', async () => {
    await upload('a'.repeat(40), report('=HYPERLINK("http://evil")', 70, ['system-groups=web,prod', 'tags=eu', 'warning[]=AUTH-9262|Weak|-|-|']));
    await upload('b'.repeat(40), report('db-01', 40));
    await createPolicy(orm, { name: 'Index', rules: [{ id: 'index', expression: 'summary.hardeningIndex >= 60' }] });
    const evaluator = new PolicyEvaluator(orm);
    await evaluator.settle();
    await evaluator.stop();

    const csv = await text(exportStream('csv', 'hosts', HOST_COLUMNS, hostRows(orm, UNSCOPED)).body);
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe(HOST_COLUMNS.join(','));
    expect(lines).toHaveLength(3);
    const web = lines.find((line) => line.includes('HYPERLINK'))!;
    expect(web).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(web).toContain(',web;prod,eu,');
    expect(web.endsWith(',70,1,0,compliant,')).toBe(true);
    expect(lines.find((line) => line.includes('db-01'))!.endsWith(',40,0,0,noncompliant,Index/index')).toBe(true);

    const json = JSON.parse(await text(exportStream('json', 'hosts', HOST_COLUMNS, hostRows(orm, UNSCOPED)).body)) as Record<string, unknown>[];
    expect(json.map((host) => [host['hostname'], host['groups'], host['compliance']]).sort()).toEqual([
      ['=HYPERLINK("http://evil")', ['web', 'prod'], 'compliant'],
      ['db-01', [], 'noncompliant'],
    ]);
  });

  it("pages through more rows than a page holds, and exports findings and one host's history", async () => {
    const warnings = Array.from({ length: 30 }, (_, i) => `warning[]=TEST-${String(i).padStart(4, '0')}|Warning ${i}|-|-|`);
    for (let host = 0; host < 40; host++) await upload(String(host).padStart(40, '0'), report(`h-${host}`, 50, warnings));
    const findings = [];
    for await (const row of findingRows(orm, UNSCOPED)) findings.push(row);
    expect(findings).toHaveLength(1200);
    // Every row once, in key order, across the page boundary (which falls inside a host's findings: 1000 = 33 × 30 + 10).
    const expected = Array.from({ length: 40 }, (_, host) => hostRecordId(keyId, String(host).padStart(40, '0')))
      .sort()
      .flatMap((id) => warnings.map((_, i) => `${id} warning TEST-${String(i).padStart(4, '0')}`));
    expect(findings.map((row) => `${String(row['hostRecordId'])} ${String(row['kind'])} ${String(row['testId'])}`)).toEqual(expected);
    const csv = await text(exportStream('csv', 'findings', FINDING_COLUMNS, findingRows(orm, UNSCOPED)).body);
    expect(csv.trim().split('\n')).toHaveLength(1201);

    const host = '7'.padStart(40, '0');
    const second = await upload(host, report('h-7', 55), new Date(Date.now() + 1000));
    const history = [];
    for await (const row of historyRows(orm, hostRecordId(keyId, host))) history.push(row);
    expect(history.map((row) => [row['hardeningIndex'], row['warnings']])).toEqual([
      [55, 0],
      [50, 30],
    ]);
    expect(history[0]!['reportId']).toBe(second);
    expect(HISTORY_COLUMNS).toEqual(Object.keys(history[0]!));
  });

  /** Twelve hosts under two keys: ties and missing values in every sort column, groups, tags, findings, two last-seen times. */
  async function seedFleet(): Promise<string> {
    const { id: otherKey } = await createKey(orm, { label: '=cmd|calc' });
    const early = new Date('2026-11-01T00:00:00.000Z');
    const late = new Date('2026-11-20T00:00:00.000Z');
    for (let host = 0; host < 12; host++) {
      const lines = [
        `system-groups=${host % 3 === 0 ? 'web' : 'db'}`,
        `tags=${host % 2 === 0 ? 'eu' : 'us'}`,
        ...(host % 4 === 0 ? ['warning[]=AUTH-9262|Weak|-|-|'] : []),
        ...(host % 5 === 0 ? ['suggestion[]=AUTH-9262|Weak|-|-|', 'warning[]=SSH-7408|Ssh|-|-|'] : []),
      ];
      const name = host % 6 === 5 ? '' : `host-${String(host % 7).padStart(2, '0')}`;
      const body = report(name, host % 3 === 0 ? 60 : 40 + (host % 4), lines).replace(host === 7 ? /hardening_index=\d+\n/ : /$^/, '');
      await upload(String(host).padStart(40, '0'), body, host % 2 === 0 ? early : late, host < 4 ? otherKey : keyId);
    }
    return otherKey;
  }

  const FILTERS: HostFilters[] = [
    {},
    { group: 'web' },
    { tag: 'eu', sort: 'hostname', order: 'asc' },
    { finding: 'AUTH-9262', sort: 'hardeningIndex' },
    { finding: 'AUTH-9262', findingKind: 'suggestion' },
    { hostname: 'HOST-0', sort: 'warnings', order: 'asc' },
    { seenBefore: '2026-11-10T00:00:00.000Z', sort: 'hardeningIndex', order: 'asc' },
    { os: 'no such system' },
  ];

  it("exports exactly the list's hosts for its filters, in its order, across pages of any size", async () => {
    const otherKey = await seedFleet();
    for (const filters of [...FILTERS, { keyId: otherKey, sort: 'warnings' as const }]) {
      const list = await hostPage(orm, UNSCOPED, { ...filters, limit: 500, offset: 0 });
      const exported = [];
      for await (const row of hostRows(orm, UNSCOPED, filters)) exported.push(row['id']);
      expect(exported, JSON.stringify(filters)).toHaveLength(list.total);
      expect(exported, JSON.stringify(filters)).toEqual(list.items.map((host) => host.id));
      for (const sort of ['lastSeen', 'hostname', 'hardeningIndex', 'warnings'] as const) {
        for (const order of ['asc', 'desc'] as const) {
          const sorted = { ...filters, sort, order };
          const paged = [];
          for await (const { records } of hostRecordPages(orm, UNSCOPED, sorted, 2)) paged.push(...records.map((record) => record.id));
          const whole = await hostPage(orm, UNSCOPED, { ...sorted, limit: 500, offset: 0 });
          expect(paged, JSON.stringify(sorted)).toEqual(whole.items.map((host) => host.id));
        }
      }
    }
    const findings = [];
    for await (const row of findingRows(orm, UNSCOPED, { group: 'web' })) findings.push(`${String(row['hostname'])} ${String(row['testId'])}`);
    expect(findings.sort()).toEqual(['host-00 AUTH-9262', 'host-00 AUTH-9262', 'host-00 SSH-7408']); // web: hosts 0, 3, 6 and 9, of which only 0 has findings
  });

  it('gives each host its key label and failing rules, neutralised in CSV like host text', async () => {
    await seedFleet();
    await createPolicy(orm, {
      name: '@ops',
      rules: [
        { id: '=index', expression: 'summary.hardeningIndex >= 50' },
        { id: 'warnings', expression: 'size(summary.warnings) == 0' },
      ],
    });
    const evaluator = new PolicyEvaluator(orm);
    await evaluator.settle();
    await evaluator.stop();
    const json = JSON.parse(
      await text(exportStream('json', 'hosts', HOST_COLUMNS, hostRows(orm, UNSCOPED, { tag: 'eu', sort: 'hostname', order: 'asc' })).body),
    ) as Record<string, unknown>[];
    expect(json.map((host) => [host['hostname'], host['keyLabel'], host['failingRules']])).toEqual([
      ['host-00', '=cmd|calc', ['@ops/warnings']],
      ['host-01', null, ['@ops/=index', '@ops/warnings']],
      ['host-02', '=cmd|calc', ['@ops/=index']],
      ['host-03', null, ['@ops/=index', '@ops/warnings']],
      ['host-04', null, ['@ops/=index', '@ops/warnings']],
      ['host-06', null, []],
    ]);
    const csv = await text(exportStream('csv', 'hosts', HOST_COLUMNS, hostRows(orm, UNSCOPED, { tag: 'eu', sort: 'hostname', order: 'asc' })).body);
    const line = (hostname: string) => csv.split('\n').find((row) => row.includes(`,${hostname},`))!;
    expect(line('host-02')).toContain(",'=cmd|calc,");
    expect(line('host-02').endsWith(",'@ops/=index")).toBe(true);
    expect(line('host-03').endsWith(",'@ops/=index;'@ops/warnings")).toBe(true);
  });
});
