// `audit-client policies preview` and `policies results` as an operator runs them: a policy previewed on the reference
// server before it is created (its scope counted, a faulty rule named, nothing stored), the results of the baseline
// paged with the next page's hint, and the results' search and order checked against the contract by the Prism mock.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { runNodeScript } from '@org/test-support/node-script';
import { EXAMPLE_ID } from './support/admin-operations.js';
import { startPrism, type PrismProcess } from './support/prism.js';
import { makeDataDir, runCli, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';

const CLIENT_CLI = fileURLToPath(new URL('../packages/client/bin/audit-client.js', import.meta.url));
const KEY = 'deadbeef-0000-0000-0000-00000000c11e';
const ADMIN_TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const runClient = (args: string[], env: Record<string, string>) => runNodeScript(CLIENT_CLI, args, { PATH: process.env.PATH!, ...env });

describe('audit-client policies preview and results against the reference server', () => {
  let server: ServerProcess;
  let removeDataDir: () => Promise<void>;
  let env: Record<string, string>;
  let baselineId: string;
  const admin = (...args: string[]) => runClient(args, env);
  const policyFile = async (name: string, policy: unknown) => {
    const file = join(server.dataDir, name);
    await writeFile(file, JSON.stringify(policy));
    return file;
  };

  beforeAll(async () => {
    const data = await makeDataDir();
    removeDataDir = data.remove;
    await seedKeys(data.dataDir, { valid: [KEY] });
    const token = (await runCli(['admin-tokens', 'create', '--label', 'cli'], data.dataDir)).stdout.trim();
    server = await startServerProcess(data.dataDir, ['--plain-http']);
    env = { AUDIT_URL: server.adminUrl, AUDIT_ADMIN_TOKEN: token };
    const upload = await fetch(`${server.url}/api/audit/upload/`, {
      method: 'POST',
      body: new URLSearchParams({ data: readFileSync(lynisFixturePath('report.dat'), 'utf8'), licensekey: KEY, hostid: 'preview-host', hostid2: 'x' }),
    });
    expect(upload.status).toBe(200);
    baselineId = JSON.parse((await admin('policies', 'enable-baseline', '--json')).stdout).id;
  });
  afterAll(async () => {
    await server?.stop();
    await removeDataDir?.();
  });

  it('previews a policy from its file: each rule, then the hosts in scope, evaluated and failing', async () => {
    const rules = [
      { id: 'hardening-index', expression: 'summary.hardeningIndex >= 90' },
      { id: 'firewall-active', expression: "report.firewall_active == '1'" },
    ];
    const everyHost = await admin('policies', 'preview', '--file', await policyFile('every.json', { name: 'Strict', rules }));
    expect(everyHost).toMatchObject({ code: 0, stderr: '' });
    expect(everyHost.stdout).toMatch(/^RULE\s+EVALUATED\s+PASS\s+FAIL\s+ERROR\nhardening-index\s+1\s+0\s+1\s+0\nfirewall-active\s+1\s+1\s+0\s+0\n/);
    expect(everyHost.stdout).toContain(
      'hosts in scope: 1 of 1 with a report\nhosts evaluated: 1 (the most recently seen in scope)\nhosts failing or erring on a rule: 1 of 1\n',
    );
    const outOfScope = await admin('policies', 'preview', '--json', '--file', await policyFile('db.json', { name: 'Db', scope: { hostname: 'db-*' }, rules }));
    expect(JSON.parse(outOfScope.stdout)).toMatchObject({ hostsWithReports: 1, hostsInScope: 0, evaluatedHosts: 0, failingHosts: 0 });
  });

  it('names a rule that does not compile, as creating the policy would, and creates nothing', async () => {
    const broken = await policyFile('broken.json', { name: 'Broken', rules: [{ id: 'broken', expression: 'summary.(' }] });
    expect(await admin('policies', 'preview', '--file', broken)).toMatchObject({
      code: 3,
      stdout: '',
      stderr: expect.stringMatching(/^The server rejected the request \(400\): rule broken: /),
    });
    expect(await admin('policies', 'preview', '--file', join(server.dataDir, 'missing.json'))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Cannot read the policy file'),
    });
    expect(JSON.parse((await admin('policies', 'list', '--json')).stdout).items.map((policy: { name: string }) => policy.name)).toEqual(['Baseline']);
  });

  it("pages a policy's results with their total and the next page's hint; ids are checked before anything is sent", async () => {
    await expect.poll(async () => (await admin('policies', 'results', baselineId)).stdout, { timeout: 15_000 }).toContain('results 1-5 of 5\n');
    const page = await admin('policies', 'results', baselineId, '--limit', '2', '--offset', '1');
    expect(page).toMatchObject({ code: 0, stderr: '' });
    expect(page.stdout).toMatch(/^HOST\s+RULE\s+STATUS\s+VALUE\s+SINCE\s+MESSAGE\n/);
    expect(page.stdout.endsWith('results 2-3 of 5; next page: --offset 3\n')).toBe(true);
    expect((await admin('policies', 'results', baselineId, '--status', 'fail')).stdout).toMatch(/\nresults 1-1 of 1\n$/);
    expect(await admin('policies', 'results', 'not-an-id')).toMatchObject({ code: 3, stderr: expect.stringContaining('must be an id') });
    expect(await admin('policies', 'results', baselineId, '--rule', 'Bad Rule')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('must be a rule id'),
    });
    expect(await admin('policies', 'results', baselineId, '--sort', 'age')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Allowed choices are status, hostname, since, rule'),
    });
  });
});

describe('audit-client policies results against the Prism mock', () => {
  let mock: PrismProcess;
  beforeAll(async () => {
    mock = await startPrism('mock');
  });
  afterAll(() => mock?.stop());

  it('searches by host name and sorts, the mock checking every parameter against the contract', async () => {
    const result = await runClient(
      ['policies', 'results', EXAMPLE_ID, '--status', 'fail', '--hostname', 'web', '--sort', 'since', '--order', 'asc', '--limit', '10', '--offset', '0'],
      { AUDIT_URL: mock.url, AUDIT_ADMIN_TOKEN: ADMIN_TOKEN },
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^HOST\s+RULE\s+STATUS\s+VALUE\s+SINCE\s+MESSAGE\n/);
    expect(result.stdout).toMatch(/\nresults \d+-\d+ of \d+/);
  });
});
