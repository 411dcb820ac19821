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

  async function upload(hostId: string, body: string, receivedAt = new Date()) {
    const content = Buffer.from(body);
    const reading = readReportBytes(content);
    const saved: ReportToStore = {
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
    return (await new OrmReportStore(orm).save(saved)).id;
  }

  it('writes hosts with labels and compliance as CSV, formulas in host text defused, and the same rows as JSON', async () => {
    await upload('a'.repeat(40), report('=HYPERLINK("http://evil")', 70, ['system-groups=web,prod', 'tags=eu', 'warning[]=AUTH-9262|Weak|-|-|']));
    await upload('b'.repeat(40), report('db-01', 40));
    await createPolicy(orm, { name: 'Index', rules: [{ id: 'index', expression: 'summary.hardeningIndex >= 60' }] });
    const evaluator = new PolicyEvaluator(orm);
    await evaluator.settle();
    await evaluator.stop();

    const csv = await text(exportStream('csv', 'hosts', HOST_COLUMNS, hostRows(orm)).body);
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe(HOST_COLUMNS.join(','));
    expect(lines).toHaveLength(3);
    const web = lines.find((line) => line.includes('HYPERLINK'))!;
    expect(web).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(web).toContain(',web;prod,eu,');
    expect(web.endsWith(',70,1,0,compliant')).toBe(true);
    expect(lines.find((line) => line.includes('db-01'))!.endsWith(',40,0,0,noncompliant')).toBe(true);

    const json = JSON.parse(await text(exportStream('json', 'hosts', HOST_COLUMNS, hostRows(orm)).body)) as Record<string, unknown>[];
    expect(json.map((host) => [host['hostname'], host['groups'], host['compliance']]).sort()).toEqual([
      ['=HYPERLINK("http://evil")', ['web', 'prod'], 'compliant'],
      ['db-01', [], 'noncompliant'],
    ]);
  });

  it("pages through more rows than a page holds, and exports findings and one host's history", async () => {
    const warnings = Array.from({ length: 30 }, (_, i) => `warning[]=TEST-${String(i).padStart(4, '0')}|Warning ${i}|-|-|`);
    for (let host = 0; host < 40; host++) await upload(String(host).padStart(40, '0'), report(`h-${host}`, 50, warnings));
    const findings = [];
    for await (const row of findingRows(orm)) findings.push(row);
    expect(findings).toHaveLength(1200);
    // Every row once, in key order, across the page boundary (which falls inside a host's findings: 1000 = 33 × 30 + 10).
    const expected = Array.from({ length: 40 }, (_, host) => hostRecordId(keyId, String(host).padStart(40, '0')))
      .sort()
      .flatMap((id) => warnings.map((_, i) => `${id} warning TEST-${String(i).padStart(4, '0')}`));
    expect(findings.map((row) => `${String(row['hostRecordId'])} ${String(row['kind'])} ${String(row['testId'])}`)).toEqual(expected);
    const csv = await text(exportStream('csv', 'findings', FINDING_COLUMNS, findingRows(orm)).body);
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
});
