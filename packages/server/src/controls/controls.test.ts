import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { adminMiddleware } from '../admin/express.js';
import { AdminTokenRecord } from '../database/entities.js';
import { openDatabase, type Database } from '../database/open.js';
import type { ControlReport, Policy } from '../generated/types.gen.js';
import { hostRecordId } from '../hosts/host-records.js';
import { scopeColumns, UNSCOPED } from '../people/scope.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { createPolicy } from '../policies/policy-records.js';
import { createWaiver } from '../policies/waivers.js';
import { storeLynisText } from '../reports/lynis-upload.test-kit.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';

const HEADER = 'framework,control_id,title,test_ids,rule_ids';
/** Four controls of EXAMPLE (2.1 gets its rule from the policy's `controls`) and one of OTHER. */
const MAPPING = [
  HEADER,
  'EXAMPLE,1.1,Hardening index,,index',
  'EXAMPLE,1.2,Packages patched,PKGS-7392,',
  'EXAMPLE,1.10,"Logging, packages and hardening",LOGG-2138;PKGS-7392,index',
  'EXAMPLE,2.1,Firewall,,',
  'OTHER,1,Other framework,,index',
  '',
].join('\n');

/** A Lynis report of a host: its hardening index, firewall, customer and warnings. */
function lynisReport(hostname: string, index: number, firewall: string, customer: string, warnings: string[]) {
  return [
    'report_version_major=1',
    'report_version_minor=0',
    `hostname=${hostname}`,
    `hardening_index=${index}`,
    `firewall_active=${firewall}`,
    `system-customer-name=${customer}`,
    ...warnings.map((testId) => `warning[]=${testId}|Warning ${testId}|-|-|`),
    '',
  ].join('\n');
}

describe.each(DIALECTS)('control mapping on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let api: AdminApi;
  let token: string;
  let keyId: string;
  let evaluator: PolicyEvaluator;
  let clock: Date;

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token } = await createAdminToken(database, { label: 'controls' }));
    ({ id: keyId } = await createKey(database));
    api = await createAdminApi({ database });
    clock = new Date(Date.now() - 3_600_000);
  });
  afterEach(async () => {
    await evaluator?.stop();
    await database.close();
  });

  const upload = async (hostId: string, text: string) => {
    await storeLynisText(new OrmReportStore(database), { keyId, hostId, text, receivedAt: clock });
    clock = new Date(clock.getTime() + 60_000);
  };

  async function call(method: string, path: string, options: { csv?: string; json?: unknown; query?: Record<string, string>; as?: string } = {}) {
    const response = await api.handle({
      method,
      path,
      query: options.query ?? {},
      headers: {
        authorization: `Bearer ${options.as ?? token}`,
        ...(options.csv !== undefined ? { 'content-type': 'text/csv' } : options.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body:
        options.csv !== undefined
          ? { kind: 'text', mediaType: 'text/csv', value: options.csv }
          : options.json !== undefined
            ? { kind: 'json', value: options.json }
            : { kind: 'none' },
    });
    return { status: response.status, body: JSON.parse(response.body as string) as Record<string, unknown> };
  }
  const importFile = (csv: string) => call('POST', '/api/admin/controls/import', { csv });
  async function report(framework?: string, as?: string): Promise<ControlReport> {
    const { status, body } = await call('GET', '/api/admin/controls', { query: framework === undefined ? {} : { framework }, as });
    expect(status, JSON.stringify(body)).toBe(200);
    return body as unknown as ControlReport;
  }

  /**
   * Six hosts and a policy: web-01 fails `index` and has PKGS-7392 open; web-02 fails `firewall`; web-03 fails
   * `index` under a waiver; db-01 passes and has LOGG-2138 accepted; ok-01 passes and had PKGS-7392, resolved; gone
   * fails both and has PKGS-7392 open, but is decommissioned.
   */
  async function seedFleet(): Promise<void> {
    await upload('1', lynisReport('web-01', 40, '1', 'acme', ['PKGS-7392']));
    await upload('2', lynisReport('web-02', 80, '0', 'acme', []));
    await upload('3', lynisReport('web-03', 30, '1', 'acme', []));
    await upload('4', lynisReport('db-01', 80, '1', 'globex', ['LOGG-2138']));
    await upload('5', lynisReport('ok-01', 80, '1', 'globex', ['PKGS-7392']));
    await upload('5', lynisReport('ok-01', 80, '1', 'globex', []));
    await upload('6', lynisReport('gone', 40, '0', 'acme', ['PKGS-7392']));
    const knex = database.em.getKnex();
    await knex('finding')
      .where({ host_record_id: hostRecordId(keyId, '4'), test_id: 'LOGG-2138' })
      .update({ state: 'accepted' });
    await knex('host').where('id', hostRecordId(keyId, '6')).update({ state: 'decommissioned' });
    const policy = await createPolicy(database, {
      name: 'Baseline',
      rules: [
        { id: 'index', expression: 'summary.hardeningIndex >= 60' },
        { id: 'firewall', controls: ['EXAMPLE:2.1', 'cis:9'], expression: "report.firewall_active == '1'" },
      ],
    });
    await createWaiver(
      database,
      UNSCOPED,
      {
        policyId: policy.id,
        ruleId: 'index',
        hostRecordId: hostRecordId(keyId, '3'),
        reason: 'Being rebuilt',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
      'tests',
    );
    evaluator = new PolicyEvaluator(database, { now: () => new Date(), clockRecheckMs: 60_000, batchSize: 10 });
    await evaluator.settle();
    expect((await importFile(MAPPING)).status).toBe(200);
  }

  it('imports a mapping file, replacing only the frameworks it names', async () => {
    expect(await importFile(MAPPING)).toEqual({ status: 200, body: { frameworks: ['EXAMPLE', 'OTHER'], controls: 5 } });
    expect((await report()).frameworks).toEqual([
      { name: 'EXAMPLE', controls: 4 },
      { name: 'OTHER', controls: 1 },
    ]);
    // The same framework in another case replaces it, spelled anew; OTHER stays.
    expect(await importFile(`${HEADER}\nExample,3,New,SSH-7408 AUTH-9286,\n`)).toEqual({ status: 200, body: { frameworks: ['Example'], controls: 1 } });
    const replaced = await report('EXAMPLE');
    expect(replaced.frameworks).toEqual([
      { name: 'Example', controls: 1 },
      { name: 'OTHER', controls: 1 },
    ]);
    expect(replaced.framework).toBe('Example');
    expect(replaced.controls.map((control) => [control.controlId, control.title, control.testIds, control.ruleIds, control.sources])).toEqual([
      ['3', 'New', ['SSH-7408', 'AUTH-9286'], [], ['file']],
    ]);
  });

  it('refuses a file with bad lines whole, naming each line, and changes nothing', async () => {
    await importFile(MAPPING);
    const bad = [
      HEADER,
      'EXAMPLE,9.9,Fine,,index',
      'EX AMPLE,1,Bad framework,,',
      'EXAMPLE,1.2,Bad rule,,Index',
      'EXAMPLE,,No control id,,',
      'EXAMPLE,9.9,Again,,',
      'example,7,Spelled otherwise,,',
      'EXAMPLE,8,Too few cells',
    ].join('\n');
    const refused = await call('POST', '/api/admin/controls/import', { csv: bad });
    expect(refused.status).toBe(400);
    const detail = String(refused.body['detail']);
    expect(detail).toMatch(/line 3: the framework must be/);
    expect(detail).toMatch(/line 4: not a rule id .*"Index"/);
    expect(detail).toMatch(/line 5: the control id must be/);
    expect(detail).toMatch(/line 6: control EXAMPLE 9\.9 is given on line 2 too/);
    expect(detail).toMatch(/line 7: framework example is spelled EXAMPLE on an earlier line/);
    expect(detail).toMatch(/line 8: 3 cells where 5 are expected/);
    expect(detail).not.toMatch(/line 2:/);
    expect((await report('EXAMPLE')).controls.map((control) => control.title)).toEqual([
      'Hardening index',
      'Packages patched',
      'Logging, packages and hardening',
      'Firewall',
    ]);
  });

  it('refuses a wrong header, an empty file, too many controls, too large a file and a body that is not CSV', async () => {
    expect((await importFile('framework,control,title\nEXAMPLE,1,x\n')).body['detail']).toMatch(
      /line 1: the header must be framework,control_id,title,test_ids,rule_ids/,
    );
    expect((await importFile(`${HEADER}\n`)).body['detail']).toBe('The file has no controls');
    const many = [HEADER, ...Array.from({ length: 5001 }, (_, i) => `BIG,${i},,,`)].join('\n');
    expect(await importFile(many)).toMatchObject({ status: 400, body: { detail: 'The file has 5001 controls; at most 5000 are taken' } });
    const large = `${HEADER}\nBIG,1,${'x'.repeat(1024 * 1024)},,\n`;
    expect(await importFile(large)).toMatchObject({ status: 400, body: { detail: 'The file is larger than 1048576 bytes' } });
    expect(await importFile('framework,control_id,title,test_ids,rule_ids\nEXAMPLE,"1,,,\n')).toMatchObject({
      status: 400,
      body: { detail: expect.stringMatching(/^The file is not valid CSV/) as unknown },
    });
    expect(await call('POST', '/api/admin/controls/import', { json: { framework: 'EXAMPLE' } })).toMatchObject({
      status: 415,
      body: { detail: 'Send the body as text/csv' },
    });
    expect((await report()).frameworks).toEqual([]);
  });

  it('counts each control’s hosts passing, failing and unknown, with its evidence and failing hosts', async () => {
    await seedFleet();
    const result = await report('example');
    expect(result.framework).toBe('EXAMPLE');
    expect(result.frameworks).toEqual([
      { name: 'cis', controls: 1 },
      { name: 'EXAMPLE', controls: 4 },
      { name: 'OTHER', controls: 1 },
    ]);
    const policyId = result.controls[0]!.evidence.rules[0]!.policyId;
    const byId = Object.fromEntries(result.controls.map((control) => [control.controlId, control]));
    expect(result.controls.map((control) => control.controlId)).toEqual(['1.1', '1.2', '1.10', '2.1']);
    // 1.1: web-01 fails, web-03 is waived (passing), web-02, db-01 and ok-01 pass; gone is decommissioned.
    expect(byId['1.1']).toMatchObject({
      ruleIds: ['index'],
      sources: ['file'],
      hosts: { passing: 4, failing: 1, unknown: 0 },
      evidence: { rules: [{ policyId, policyName: 'Baseline', ruleId: 'index', pass: 3, fail: 1, error: 0, waived: 1 }], findings: [] },
      failingHosts: [{ hostRecordId: hostRecordId(keyId, '1'), hostname: 'web-01', because: ['Baseline/index'] }],
    });
    // 1.2: web-01 has it open, ok-01 had it resolved; the others never had it: unknown.
    expect(byId['1.2']).toMatchObject({
      hosts: { passing: 1, failing: 1, unknown: 3 },
      evidence: { rules: [], findings: [{ kind: 'warning', testId: 'PKGS-7392', openHosts: 1, acceptedHosts: 0 }] },
      failingHosts: [{ hostname: 'web-01', because: ['PKGS-7392'] }],
    });
    // 1.10: web-01 fails on both its rule and its finding; db-01's finding is accepted.
    expect(byId['1.10']).toMatchObject({
      title: 'Logging, packages and hardening',
      hosts: { passing: 4, failing: 1, unknown: 0 },
      evidence: {
        findings: [
          { kind: 'warning', testId: 'LOGG-2138', openHosts: 0, acceptedHosts: 1 },
          { kind: 'warning', testId: 'PKGS-7392', openHosts: 1, acceptedHosts: 0 },
        ],
      },
      failingHosts: [{ hostname: 'web-01', because: ['Baseline/index', 'PKGS-7392'] }],
    });
    // 2.1: in the file with no ids, and named by the firewall rule's controls.
    expect(byId['2.1']).toMatchObject({
      title: 'Firewall',
      ruleIds: ['Baseline/firewall'],
      sources: ['file', 'policy'],
      hosts: { passing: 4, failing: 1, unknown: 0 },
      evidence: { rules: [{ ruleId: 'firewall', pass: 4, fail: 1, error: 0, waived: 0 }], findings: [] },
      failingHosts: [{ hostname: 'web-02', because: ['Baseline/firewall'] }],
    });
    // A framework only policies name.
    const cis = await report('CIS');
    expect(cis.controls.map((control) => [control.framework, control.controlId, control.sources, control.title, control.hosts])).toEqual([
      ['cis', '9', ['policy'], null, { passing: 4, failing: 1, unknown: 0 }],
    ]);
    // Without a framework, or with one nobody mapped: the frameworks alone.
    expect((await report()).controls).toEqual([]);
    expect(await report('NIST-800-53')).toMatchObject({ framework: null, controls: [] });
  });

  it("gives a scoped reader its hosts' figures only", async () => {
    await seedFleet();
    const { id, token: scoped } = await createAdminToken(database, { label: 'globex reader', role: 'viewer' });
    await database.em.fork().nativeUpdate(AdminTokenRecord, { id }, scopeColumns({ customers: ['globex'], groups: [] }));
    const result = await report('EXAMPLE', scoped);
    expect(result.controls.map((control) => [control.controlId, control.hosts, control.failingHosts])).toEqual([
      ['1.1', { passing: 2, failing: 0, unknown: 0 }, []],
      ['1.2', { passing: 1, failing: 0, unknown: 1 }, []],
      ['1.10', { passing: 2, failing: 0, unknown: 0 }, []],
      ['2.1', { passing: 2, failing: 0, unknown: 0 }, []],
    ]);
    expect(result.controls[0]!.evidence.rules).toMatchObject([{ ruleId: 'index', pass: 2, fail: 0, error: 0, waived: 0 }]);
    expect(result.controls[2]!.evidence.findings).toEqual([
      { kind: 'warning', testId: 'LOGG-2138', openHosts: 0, acceptedHosts: 1 },
      { kind: 'warning', testId: 'PKGS-7392', openHosts: 0, acceptedHosts: 0 },
    ]);
  });

  it("keeps a rule's controls with the policy, checks their shape, and the rule evaluates as before", async () => {
    const rules = [{ id: 'firewall', controls: ['CIS:3.5.1', 'PCI-DSS:1.2.1'], expression: "report.firewall_active == '1'" }];
    const created = await call('POST', '/api/admin/policies', { json: { name: 'Mapped', rules } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await call('GET', `/api/admin/policies/${String(created.body['id'])}`);
    expect((read.body as unknown as Policy).rules).toMatchObject([{ id: 'firewall', controls: ['CIS:3.5.1', 'PCI-DSS:1.2.1'] }]);
    const refused = await call('POST', '/api/admin/policies', {
      json: { name: 'Bad', rules: [{ id: 'x', controls: ['no framework'], expression: 'true' }] },
    });
    expect(refused.status).toBe(400);
    expect(String(refused.body['detail'])).toMatch(/rules\.0\.controls\.0/);
    await upload('1', lynisReport('web-01', 80, '0', 'acme', []));
    evaluator = new PolicyEvaluator(database, { now: () => new Date(), clockRecheckMs: 60_000, batchSize: 10 });
    await evaluator.settle();
    expect((await report('pci-dss')).controls).toMatchObject([{ controlId: '1.2.1', ruleIds: ['Mapped/firewall'], hosts: { passing: 0, failing: 1 } }]);
  });

  it('takes a CSV body of up to 1 MiB through the Express adapter, and answers 413 beyond', async () => {
    const app = express();
    app.use('/api/admin', adminMiddleware(api));
    const server: Server = createServer(app);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/admin/controls/import`;
      const send = (body: string, type = 'text/csv; charset=utf-8') =>
        fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });
      // Larger than the 16 KiB a JSON body may be.
      const big = [HEADER, ...Array.from({ length: 2000 }, (_, i) => `EXAMPLE,${i},Control number ${i},PKGS-7392,`)].join('\n');
      const imported = await send(big);
      expect(imported.status).toBe(200);
      expect(await imported.json()).toEqual({ frameworks: ['EXAMPLE'], controls: 2000 });
      expect((await send(`${HEADER}\nA,1,${'x'.repeat(1024 * 1024)},,\n`)).status).toBe(413);
      const plain = await send(MAPPING, 'text/plain');
      expect(plain.status).toBe(415);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});
