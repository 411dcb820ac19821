// `audit-server hosts list`, the built CLI straight on the database, with the host list's newer filters: operating
// system, license key, compliance, failing policy and rule, and the order; each bad value refused, saying which flag.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { makeDataDir, runCli, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';

const KEY = 'deadbeef-0000-0000-0000-00000000f11e';
const fixture = readFileSync(lynisFixturePath('report.dat'), 'utf8');

let dataDir: string;
let removeDataDir: () => Promise<void>;
let server: ServerProcess;
let keyId: string;
let policyId: string;

/** Uploads the fixture report under another host name and hardening index, as Lynis would. */
async function upload(hostId: string, hostname: string, hardeningIndex: number): Promise<void> {
  const report = fixture.replace(/^hostname=.*$/m, `hostname=${hostname}`).replace(/^hardening_index=.*$/m, `hardening_index=${hardeningIndex}`);
  const answer = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: report, licensekey: KEY, hostid: hostId }),
  });
  expect(answer.status).toBe(200);
}

/** The host names `hosts list --json` lists with `args`. */
const listed = async (...args: string[]) =>
  (JSON.parse((await runCli(['hosts', 'list', '--json', ...args], dataDir)).stdout) as { items: { hostname: string }[] }).items.map((host) => host.hostname);

beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  await seedKeys(dataDir, { valid: [KEY] });
  const token = (await runCli(['admin-tokens', 'create', '--label', 'hosts cli'], dataDir)).stdout.trim();
  server = await startServerProcess(dataDir, ['--plain-http']);
  await upload('host-web', 'web-01', 70);
  await upload('host-db', 'db-01', 50);
  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/admin/${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  keyId = ((await (await admin('keys')).json()) as { items: { id: string }[] }).items[0]!.id;
  const policy = await admin('policies', {
    method: 'POST',
    body: JSON.stringify({ name: 'Index', rules: [{ id: 'hardening-index', expression: 'summary.hardeningIndex >= 60' }] }),
  });
  policyId = ((await policy.json()) as { id: string }).id;
});
afterAll(async () => {
  await server?.stop();
  await removeDataDir?.();
});

it('hosts list: filters by operating system, key, compliance and failing policy and rule, sorted and ordered', async () => {
  expect(await listed('--os', 'debian gnu/linux 12 (bookworm)', '--sort', 'hostname', '--order', 'asc')).toEqual(['db-01', 'web-01']);
  expect(await listed('--os', 'Rocky Linux')).toEqual([]);
  expect(await listed('--key', keyId, '--sort', 'hardeningIndex', '--order', 'desc')).toEqual(['web-01', 'db-01']);
  // The results arrive once the server's evaluator has run the policy.
  await expect.poll(() => listed('--compliance', 'noncompliant'), { timeout: 15_000, interval: 300 }).toEqual(['db-01']);
  expect(await listed('--compliance', 'compliant')).toEqual(['web-01']);
  expect(await listed('--failing-policy', policyId, '--failing-rule', 'hardening-index')).toEqual(['db-01']);
  expect(await listed('--failing-rule', 'no-such-rule')).toEqual([]);
  expect(await listed('--sort', 'compliance')).toEqual(['db-01', 'web-01']);
  expect(await listed('--sort', 'compliance', '--order', 'asc')).toEqual(['web-01', 'db-01']);
  const table = await runCli(['hosts', 'list', '--failing-policy', policyId], dataDir);
  expect(table).toMatchObject({ code: 0, stderr: '' });
  expect(table.stdout).toMatch(/\n\S+\s+db-01\s[^\n]+\nhosts 1-1 of 1\n$/);
}, 60_000);

it('hosts list: a bad value exits 1 naming the flag, and a license key given for its id is not repeated', async () => {
  const refused = (...args: string[]) => runCli(['hosts', 'list', ...args], dataDir);
  expect(await refused('--compliance', 'failing')).toEqual({
    code: 1,
    stdout: '',
    stderr: 'audit-server: --compliance must be one of compliant, noncompliant, waived, unknown\n',
  });
  expect(await refused('--sort', 'index')).toMatchObject({
    code: 1,
    stderr: 'audit-server: --sort must be one of lastSeen, hostname, hardeningIndex, warnings, compliance\n',
  });
  expect(await refused('--order', 'up')).toMatchObject({ code: 1, stderr: 'audit-server: --order must be one of desc, asc\n' });
  expect(await refused('--failing-policy', 'Index')).toMatchObject({ code: 1, stderr: expect.stringContaining("--failing-policy must be a policy's id") });
  expect(await refused('--failing-rule', 'Hardening_Index')).toMatchObject({ code: 1, stderr: expect.stringContaining('--failing-rule must be a rule id') });
  const typedKey = await refused('--key', KEY.replace('0000-0000', '1111-1111').concat('-ab'));
  expect(typedKey).toMatchObject({
    code: 1,
    stdout: '',
    stderr: "audit-server: --key must be a license key's id (the ID column of keys list, a UUID), never the key itself\n",
  });
}, 60_000);
