// Compliance and alerts as an operator uses them: the baseline enabled from the CLI, the real Lynis report uploaded,
// its host's results and a signed webhook read back, and the hosts exported.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runNodeScript } from '@org/test-support/node-script';
import { Webhook } from 'standardwebhooks';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { startStubServer, type StubServer } from '@org/test-support/stub-server';
import { makeDataDir, runCli, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';

const KEY = 'deadbeef-0000-0000-0000-00000000c0de';
const CLIENT_CLI = fileURLToPath(new URL('../packages/client/bin/audit-client.js', import.meta.url));
const report = readFileSync(lynisFixturePath('report.dat'), 'utf8');

let dataDir: string;
let removeDataDir: () => Promise<void>;
let server: ServerProcess;
let receiver: StubServer;
let token: string;
beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  await seedKeys(dataDir, { valid: [KEY] });
  token = (await runCli(['admin-tokens', 'create', '--label', 'compliance'], dataDir)).stdout.trim();
  expect(await runCli(['policies', 'enable-baseline'], dataDir)).toMatchObject({ code: 0, stderr: expect.stringContaining('Created policy Baseline') });
  expect(await runCli(['policies', 'enable-baseline'], dataDir)).toMatchObject({ code: 1, stderr: 'audit-server: A policy named "Baseline" exists\n' });
  receiver = await startStubServer(() => ({ status: 204, body: '' }));
  server = await startServerProcess(dataDir, ['--plain-http', '--webhook-allow-private']);
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await removeDataDir?.();
});

const admin = async <T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T; headers: Headers }> => {
  const response = await fetch(`${server.adminUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json');
  return { status: response.status, body: (json && text ? JSON.parse(text) : text) as T, headers: response.headers };
};

it('evaluates the real Lynis report against the baseline, tells a signed webhook, and exports the host', async () => {
  const created = await admin<{ webhook: { id: string }; secret: string }>('/api/admin/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['report.stored', 'host.noncompliant'] }),
  });
  expect(created.status).toBe(201);
  const upload = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: report, licensekey: KEY, hostid: 'compliance-host', hostid2: 'x' }),
  });
  expect(upload.status).toBe(200);

  // The report is stored, evaluated and told of within seconds: both events arrive, each verified.
  await expect.poll(() => receiver.requests.length, { timeout: 15_000 }).toBe(2);
  const events = receiver.requests.map(
    (request) =>
      new Webhook(created.body.secret).verify(request.body.toString(), request.headers as Record<string, string>) as {
        type: string;
        data: Record<string, unknown>;
      },
  );
  expect(events.map((event) => event.type).sort()).toEqual(['host.noncompliant', 'report.stored']);
  const noncompliant = events.find((event) => event.type === 'host.noncompliant')!;
  expect(noncompliant.data).toMatchObject({
    policyName: 'Baseline',
    hostId: 'compliance-host',
    failingRules: ['no-vulnerable-packages'],
  });

  const hosts = await admin<{ items: { id: string; compliance: string }[] }>('/api/admin/hosts');
  expect(hosts.body.items).toEqual([expect.objectContaining({ compliance: 'noncompliant' })]);
  const compliance = await admin<{ status: string; results: { ruleId: string; status: string; value: string | null }[] }>(
    `/api/admin/hosts/${hosts.body.items[0]!.id}/compliance`,
  );
  expect(compliance.body.status).toBe('fail');
  expect(compliance.body.results.map((result) => [result.ruleId, result.status, result.value])).toEqual([
    ['audited-recently', 'pass', expect.stringMatching(/^duration\(/)],
    ['firewall-active', 'pass', '"1"'],
    ['hardening-index', 'pass', '56'],
    ['no-vulnerable-packages', 'fail', '81'],
    // Its two warnings are the ones the baseline leaves out (PKGS-7392 and LOGG-2138).
    ['no-warnings', 'pass', '0'],
  ]);
  // The preview answers the same, per rule, from the latest reports alone.
  const preview = await admin<{ hostsWithReports: number; evaluatedHosts: number; rules: { ruleId: string; failing: number }[] }>(
    '/api/admin/policies/baseline/preview',
  );
  expect(preview.body).toMatchObject({ hostsWithReports: 1, evaluatedHosts: 1 });
  expect(preview.body.rules.filter((rule) => rule.failing > 0).map((rule) => rule.ruleId)).toEqual(['no-vulnerable-packages']);
  const overview = await admin<{ compliance: { policies: number; evaluatedHosts: number; rate: number } }>('/api/admin/overview');
  expect(overview.body.compliance).toMatchObject({ policies: 1, evaluatedHosts: 1, rate: 0 });

  const exported = await admin<string>('/api/admin/exports/hosts?format=csv');
  expect(exported.headers.get('content-disposition')).toBe('attachment; filename="hosts.csv"');
  const [header, row] = exported.body.trim().split('\n');
  expect(header).toBe(
    'id,hostname,hostId,keyId,keyLabel,os,lynisVersion,groups,tags,customerName,firstSeen,lastSeen,state,stateSince,reportCount,hardeningIndex,warnings,suggestions,compliance,failingRules',
  );
  expect(row).toContain(',compliance-host,');
  expect(row).toMatch(/,active,\d{4}-\d{2}-\d{2}T[\d:.]+Z,1,56,2,45,noncompliant,Baseline\/no-vulnerable-packages$/);

  const log = await admin<{ items: { status: string }[] }>(`/api/admin/webhooks/${created.body.webhook.id}/deliveries`);
  expect(log.body.items.map((item) => item.status)).toEqual(['delivered', 'delivered']);
  // Neither the key nor the webhook's secret reaches the log.
  const logs = server.logs.join('\n');
  expect(logs).not.toContain(KEY);
  expect(logs).not.toContain(created.body.secret);
});

it('refuses a policy whose rules do not check, naming each rule and where', async () => {
  const refused = await admin<{ status: number; errors: unknown[] }>('/api/admin/policies', {
    method: 'POST',
    body: JSON.stringify({
      name: 'Broken',
      rules: [
        { id: 'index', expression: 'summary.hardeningIndex >= ' },
        { id: 'regex', expression: "report.os_name.matches('(a+)+$')" },
      ],
    }),
  });
  expect(refused.status).toBe(400);
  expect(refused.body.errors).toEqual([
    { ruleId: 'index', position: 26, message: 'Unexpected token: EOF' },
    { ruleId: 'regex', position: expect.any(Number), message: 'matches() is not allowed: use contains(), startsWith() or endsWith()' },
  ]);
  const webhookRefused = await admin<{ status: number }>('/api/admin/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url: 'ftp://example.org/', events: ['report.stored'] }),
  });
  expect(webhookRefused.status).toBe(400);
  // The baseline once more: a conflict naming it, not a second copy (delete or rename it to add the shipped one again).
  const baselineAgain = await admin<{ detail: string }>('/api/admin/policies/baseline', { method: 'POST' });
  expect(baselineAgain).toMatchObject({ status: 409, body: { detail: 'A policy named "Baseline" exists' } });
});

it('audit-client lists policies and their results, subscribes a webhook, reads its log, and exports hosts', async () => {
  const client = (...args: string[]) => runNodeScript(CLIENT_CLI, args, { PATH: process.env.PATH!, AUDIT_URL: server.adminUrl, AUDIT_ADMIN_TOKEN: token });
  const listed = await client('policies', 'list');
  expect(listed).toMatchObject({ code: 0, stderr: '' });
  expect(listed.stdout).toMatch(/^ID\s+NAME\s+ENABLED\s+RULES\s+PASS\s+FAIL\s+ERROR\s+WAIVED\s+QUARANTINED\n\S+\s+Baseline\s+yes\s+5\s+0\s+1\s+0\s+0\s+-\n$/);
  const policyId = listed.stdout.split('\n')[1]!.split(/\s+/)[0]!;
  const results = await client('policies', 'results', policyId, '--status', 'fail');
  expect(results.stdout).toMatch(/localhost\s+no-vulnerable-packages\s+fail\s+81\s/);
  expect(results.stdout).toContain('results 1-1 of 1');
  // The preview counts the same host the same way, without a policy's results.
  const preview = await runCli(['policies', 'preview-baseline'], dataDir);
  expect(preview).toMatchObject({ code: 0, stderr: '' });
  expect(preview.stdout).toMatch(/^RULE\s+EVALUATED\s+PASS\s+FAIL\s+ERROR\s+PASSING\n/);
  expect(preview.stdout).toMatch(/\nno-vulnerable-packages\s+1\s+0\s+1\s+0\s+0%\n/);
  expect(preview.stdout).toMatch(/\nhardening-index\s+1\s+1\s+0\s+0\s+100%\n/);
  expect(preview.stdout).toContain('hosts evaluated: 1 of 1 with a report\nhosts failing or erring on a rule: 1 of 1\n');
  // The same from audit-client, through the admin API.
  const clientPreview = await client('policies', 'preview-baseline');
  expect(clientPreview).toMatchObject({ code: 0, stderr: '' });
  expect(clientPreview.stdout).toMatch(/\nno-vulnerable-packages\s+1\s+0\s+1\s+0\n/);
  expect(clientPreview.stdout).toContain('hosts in scope: 1 of 1 with a report\nhosts evaluated: 1 (the most recently seen in scope)\n');
  expect(clientPreview.stdout).toContain('hosts failing or erring on a rule: 1 of 1\n');
  expect(await client('policies', 'disable', policyId)).toMatchObject({ code: 0, stdout: `Disabled policy Baseline (${policyId})\n` });
  expect((await client('policies', 'list')).stdout).toMatch(/\sBaseline\s+no\s/);
  expect(await client('policies', 'enable', policyId)).toMatchObject({ code: 0, stdout: `Enabled policy Baseline (${policyId})\n` });
  expect(await client('policies', 'delete', '00000000-0000-4000-8000-000000000000')).toMatchObject({
    code: 5,
    stderr: 'Not found (404): No policy with id 00000000-0000-4000-8000-000000000000\n',
  });

  const created = await client(
    'webhooks',
    'create',
    '--to',
    `${receiver.url}/cli`,
    '--event',
    'report.stored',
    'host.stale',
    'host.identity_changed',
    'key.quota_reached',
    '--max-per-minute',
    '20',
  );
  expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^whsec_\S+\n$/), stderr: expect.stringContaining('shown only now') });
  const webhooks = await client('webhooks', 'list', '--json');
  expect(JSON.parse(webhooks.stdout).items).toHaveLength(2);
  expect(JSON.parse(webhooks.stdout).items.map((item: { maxDeliveriesPerMinute: number }) => item.maxDeliveriesPerMinute)).toEqual([60, 20]);
  expect((await client('webhooks', 'list')).stdout).toMatch(/\sPER MINUTE\s[^\n]*\n[^\n]*\s60\s[^\n]*\n[^\n]*\/cli\s[^\n]*\s20\s/);
  expect(webhooks.stdout).not.toContain(created.stdout.trim());

  const csv = await client('export', 'hosts');
  expect(csv).toMatchObject({ code: 0, stdout: expect.stringMatching(/^id,hostname,hostId,/) });
  expect(csv.stdout.trim().split('\n')).toHaveLength(2);
  expect(await client('export', 'history')).toMatchObject({ code: 1, stderr: expect.stringContaining('export history <host-id>') });
  expect(await client('waivers', 'create', '--policy', policyId, '--reason', 'x', '--expires', '2099-01-01')).toMatchObject({
    code: 1,
    stderr: expect.stringContaining('exactly one of --host, --group and --fleet'),
  });
});
