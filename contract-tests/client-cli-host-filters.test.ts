// `audit-client`, the built CLI, against the reference server as a process: the host list's filters on `hosts` and
// on `export hosts|findings` (to stdout and to a file), `facets`, and `webhooks test` sending a signed test event to
// a receiver on 127.0.0.1; ids and rule ids refused before anything is sent.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { runNodeScript, type CommandRun } from '@org/test-support/node-script';
import { startStubServer, type StubServer } from '@org/test-support/stub-server';
import { reportAs, storeReport } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const CLIENT_CLI = fileURLToPath(new URL('../packages/client/bin/audit-client.js', import.meta.url));
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const WEB = '1111111111111111111111111111111111111111';
const DB = '2222222222222222222222222222222222222222';
/** A license key as the server makes them, typed where its id belongs. */
const TYPED_KEY = 'c27252dc-825aa697-11377ecf-48f3267d-0e162415-3f983a76';

let server: ServerProcess;
let receiver: StubServer;
let removeDataDir: () => Promise<void>;
let env: Record<string, string>;
let keyId: string;
let policyId: string;

const client = (...args: string[]): Promise<CommandRun> => runNodeScript(CLIENT_CLI, args, { PATH: process.env.PATH!, ...env });
/** The host names of a `--json` answer of `hosts` (or of an export's JSON array). */
const hostnames = (json: string) => {
  const value = JSON.parse(json) as { items: { hostname: string }[] } | { hostname: string }[];
  return (Array.isArray(value) ? value : value.items).map((host) => host.hostname);
};
/** Requests the server logged for the admin API so far. */
const adminRequests = () => server.logs.filter((line) => line.includes('/api/admin/')).length;

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  keyId = await importKey(orm, lynisCapture.key, { label: 'fleet' });
  await storeReport(orm, keyId, WEB, reportAs(WEB, 'web-01', 70, [], { 'system-groups': 'webservers', tags: 'production' }));
  await storeReport(orm, keyId, DB, reportAs(DB, 'db-01', 50, [], { 'system-groups': 'databases', tags: 'production' }));
  const { token } = await createAdminToken(orm, { label: 'cli filters' });
  await orm.close();
  receiver = await startStubServer(() => ({ status: 204, body: '' }));
  server = await startServerProcess(data.dataDir, ['--plain-http', '--webhook-allow-private']);
  env = { AUDIT_URL: server.url, AUDIT_ADMIN_TOKEN: token };
  const policy = await fetch(`${server.url}/api/admin/policies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Index', rules: [{ id: 'hardening-index', expression: 'summary.hardeningIndex >= 60' }] }),
  });
  policyId = ((await policy.json()) as { id: string }).id;
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await removeDataDir?.();
});

it('hosts: filters by group, tag, key, compliance and failing policy and rule, sorted', async () => {
  expect(hostnames((await client('hosts', '--group', 'webservers', '--json')).stdout)).toEqual(['web-01']);
  expect(hostnames((await client('hosts', '--tag', 'production', '--key', keyId, '--sort', 'hostname', '--order', 'asc', '--json')).stdout)).toEqual([
    'db-01',
    'web-01',
  ]);
  // The policy's results arrive once the evaluator has run.
  await expect
    .poll(async () => hostnames((await client('hosts', '--compliance', 'noncompliant', '--json')).stdout), { timeout: 15_000, interval: 300 })
    .toEqual(['db-01']);
  const failing = await client('hosts', '--failing-policy', policyId, '--failing-rule', 'hardening-index');
  expect(failing).toMatchObject({ code: 0, stderr: '' });
  expect(failing.stdout.split('\n')[1]).toMatch(/^\S+\s+db-01\s/);
  expect(failing.stdout).not.toContain('web-01');
  expect(hostnames((await client('hosts', '--sort', 'compliance', '--order', 'desc', '--json')).stdout)).toEqual(['db-01', 'web-01']);
}, 60_000);

it('export hosts and findings: only the hosts the filters select, to stdout or a file', async () => {
  const file = join(server.dataDir, 'web.json');
  expect(await client('export', 'hosts', '--group', 'webservers', '--format', 'json', '--output', file)).toEqual({ code: 0, stdout: '', stderr: '' });
  expect(hostnames(await readFile(file, 'utf8'))).toEqual(['web-01']);
  const csv = await client('export', 'hosts', '--tag', 'production', '--sort', 'hostname', '--order', 'asc');
  expect(csv.code).toBe(0);
  const [header, ...rows] = csv.stdout.trim().split('\n');
  const column = header!.split(',').indexOf('hostname');
  expect(rows.map((row) => row.split(',')[column])).toEqual(['db-01', 'web-01']);
  // One row per host and finding: the hosts the rows name.
  const findingHosts = async (...filters: string[]) =>
    new Set((JSON.parse((await client('export', 'findings', '--format', 'json', ...filters)).stdout) as { hostname: string }[]).map((row) => row.hostname));
  expect(await findingHosts()).toEqual(new Set(['db-01', 'web-01']));
  expect(await findingHosts('--group', 'databases')).toEqual(new Set(['db-01']));
  expect(await client('export', 'findings', '--sort', 'hostname')).toEqual({ code: 1, stdout: '', stderr: '--sort and --order order export hosts only\n' });
  expect(await client('export', 'history', MISSING_ID, '--group', 'x')).toEqual({ code: 1, stdout: '', stderr: 'export history takes no host filters\n' });
}, 60_000);

it('facets: each field’s values with their host counts, one field, or those containing a text', async () => {
  const groups = await client('facets', '--field', 'group');
  expect(groups).toMatchObject({ code: 0, stderr: '' });
  expect(groups.stdout.split('\n').map((line) => line.split(/\s{2,}/))).toEqual([
    ['FIELD', 'VALUE', 'LABEL', 'HOSTS'],
    ['group', 'databases', '-', '1'],
    ['group', 'webservers', '-', '1'],
    [''],
  ]);
  const keys = JSON.parse((await client('facets', '--field', 'key', '--json')).stdout) as { key: unknown[]; group: unknown[] };
  expect(keys).toMatchObject({ key: [{ value: keyId, label: 'fleet', hosts: 2 }], group: [] });
  const web = await client('facets', '--q', 'WEB', '--limit', '5');
  expect(web.stdout).toContain('webservers');
  expect(web.stdout).not.toContain('databases');
}, 60_000);

it('webhooks test: a signed webhook.test event to a disabled subscription’s receiver, in its delivery log', async () => {
  const created = JSON.parse((await client('webhooks', 'create', '--to', `${receiver.url}/hook`, '--event', 'host.stale', '--json')).stdout) as {
    webhook: { id: string };
    secret: string;
  };
  const id = created.webhook.id;
  expect((await client('webhooks', 'update', id, '--disable')).code).toBe(0);
  const sent = await client('webhooks', 'test', id);
  expect(sent).toMatchObject({
    code: 0,
    stderr: '',
    stdout: expect.stringMatching(/^Queued test event msg_[0-9a-f]{32} as delivery [0-9a-f-]{36}; see webhooks deliveries /),
  });
  await expect.poll(() => receiver.requests.length, { timeout: 10_000 }).toBe(1);
  const [request] = receiver.requests;
  const event = new Webhook(created.secret).verify(request!.body.toString(), request!.headers as Record<string, string>);
  expect(event).toMatchObject({ type: 'webhook.test', data: { test: true, webhookId: id } });
  const log = await client('webhooks', 'deliveries', id);
  expect(log.stdout.split('\n')[0]!.split(/\s{2,}/)).toEqual(['ID', 'EVENT', 'HOST', 'STATUS', 'ATTEMPTS', 'LAST', 'CREATED']);
  expect(log.stdout.split('\n')[1]).toMatch(/^\S+\s+webhook\.test\s+-\s+(pending|delivered)\s/);
  expect(await client('webhooks', 'test', MISSING_ID)).toEqual({ code: 5, stdout: '', stderr: `Not found (404): No webhook with id ${MISSING_ID}\n` });
}, 60_000);

it('refuses ids, rule ids and a license key given for its id before sending anything, never echoing the key', async () => {
  const before = adminRequests();
  const results = await Promise.all([
    client('webhooks', 'test', 'not-an-id'),
    client('hosts', '--failing-policy', 'web'),
    client('export', 'hosts', '--failing-policy', `${MISSING_ID}x`),
    client('hosts', '--failing-rule', 'Hardening_Index'),
    client('hosts', '--key', TYPED_KEY),
    client('hosts', '--compliance', 'bad'),
    client('facets', '--field', 'hostname'),
  ]);
  expect(results.map((result) => result.code)).toEqual([3, 3, 3, 1, 1, 1, 1]);
  expect(results[0].stderr).toContain("is invalid for argument 'webhook-id'. must be an id");
  expect(results[3].stderr).toContain('must be a rule id');
  expect(results[4].stderr).toBe("--key must be a license key's id, the ID column of `keys list` (a UUID), never the key itself\n");
  expect(results[4].stderr).not.toContain(TYPED_KEY);
  expect(results[5].stderr).toContain('Allowed choices are compliant, noncompliant, waived, unknown');
  expect(results[6].stderr).toContain('Allowed choices are group, tag, os, key, customer');
  await new Promise((resolve) => setTimeout(resolve, 200)); // the request log arrives through a pipe
  expect(adminRequests()).toBe(before);
}, 60_000);

it('hosts decommission, reactivate, bulk-state and delete: the state each leaves, and a delete only with --yes', async () => {
  const listed = JSON.parse((await client('hosts', '--json')).stdout) as { items: { id: string; hostname: string }[] };
  const idOf = (name: string) => listed.items.find((host) => host.hostname === name)!.id;
  const [db, web] = [idOf('db-01'), idOf('web-01')];
  expect(await client('hosts', 'decommission', db)).toMatchObject({
    code: 0,
    stderr: '',
    stdout: expect.stringMatching(new RegExp(`^Host db-01 \\(${db}\\) is decommissioned since \\d{4}-\\d{2}-\\d{2} [\\d:]+ UTC \\(by an operator\\)\\.\\n$`)),
  });
  // Out of the default list, in the decommissioned one; the host says since when and why.
  expect(hostnames((await client('hosts', '--json')).stdout)).toEqual(['web-01']);
  expect(hostnames((await client('hosts', 'list', '--state', 'decommissioned', '--json')).stdout)).toEqual(['db-01']);
  expect((await client('host', db)).stdout).toMatch(/\nState +decommissioned since .+ UTC \(by an operator\)\n/);
  expect(await client('hosts', 'bulk-state', 'reactivate', '--group', 'databases', '--state', 'decommissioned')).toEqual({
    code: 0,
    stdout: '1 of 1 host reactivated\n',
    stderr: '',
  });
  expect(await client('hosts', 'bulk-state', 'decommission', '--ids', `${db},${web}`)).toEqual({
    code: 0,
    stdout: '2 of 2 hosts decommissioned\n',
    stderr: '',
  });
  expect(hostnames((await client('hosts', '--json')).stdout)).toEqual([]);
  expect((await client('hosts', 'reactivate', web, '--json')).stdout).toContain('"state": "active"');
  expect(await client('hosts', 'bulk-state', 'reactivate', '--state', 'all')).toEqual({
    code: 0,
    stdout: '1 of 2 hosts reactivated; the others were not decommissioned\n',
    stderr: '',
  });
  // A delete without --yes sends nothing; with it, the host is gone.
  const before = adminRequests();
  expect(await client('hosts', 'delete', db)).toEqual({
    code: 1,
    stdout: '',
    stderr: `this deletes host ${db} and all its reports for good; add --yes to do it\n`,
  });
  expect(adminRequests()).toBe(before);
  expect(await client('hosts', 'delete', db, '--yes')).toEqual({ code: 0, stdout: '', stderr: `Deleted host ${db}\n` });
  expect((await client('host', db)).code).toBe(5);
  expect(hostnames((await client('hosts', '--state', 'all', '--json')).stdout)).toEqual(['web-01']);
}, 60_000);
