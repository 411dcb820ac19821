// The built server with strict host identity and a low quota of new hosts, set as an operator sets them (flags,
// environment, `audit-server keys` commands): refusals answered and listed under refused uploads, one click (one
// request) to accept a new identity.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Host, LicenseKeyInfo, RejectionPage } from '@org/audit-client';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

let dataDir: string;
let removeDataDir: () => Promise<void>;
let server: ServerProcess;
let token: string;
let key: string;
let keyId: string;
const OTHER_ID2 = 'f'.repeat(64);

beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  token = (await runCli(['admin-tokens', 'create', '--label', 'intake'], dataDir)).stdout.trim();
  key = (await runCli(['keys', 'create', '--label', 'fleet', '--max-hosts', '50'], dataDir)).stdout.trim();
  expect(await runCli(['keys', 'create', '--new-hosts-per-day', 'many'], dataDir)).toMatchObject({
    code: 1,
    stderr: expect.stringContaining('--new-hosts-per-day: give a whole number'),
  });
  const list = await runCli(['keys', 'list'], dataDir);
  expect(list.stdout.split('\n')[0]).toMatch(/NEW HOSTS\/DAY +MAX HOSTS$/);
  expect(list.stdout.split('\n')[1]).toMatch(/ default +50$/);
  keyId = list.stdout.split('\n')[1]!.split(' ')[0]!;
  expect(await runCli(['keys', 'set', keyId, '--max-hosts', 'none'], dataDir)).toMatchObject({ code: 0, stderr: `Changed the settings of key ${keyId}\n` });
  server = await startServerProcess(dataDir, ['--plain-http', '--host-identity', 'strict', '--key-new-hosts-per-day', '3', '--rejections-flush-ms', '100']);
});
afterAll(async () => {
  await server?.stop();
  await removeDataDir?.();
});

const upload = async (hostid: string, hostid2: string) => {
  const response = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: lynisCapture.report.toString('latin1'), licensekey: key, hostid, hostid2 }),
  });
  return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') };
};
const admin = async <T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
  const response = await fetch(`${server.adminUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  return { status: response.status, body: (await response.json()) as T };
};
const refusedReasons = async () => {
  await new Promise((resolve) => setTimeout(resolve, 300)); // the log writes every 100 ms
  return (await admin<RejectionPage>('/api/admin/rejections')).body.items.map((item) => [item.reason, item.hostId, item.count]);
};

it('refuses a fourth new host of the day with 429 until the next UTC day, and a poisoned host with 409, both under refused uploads', async () => {
  // One capture for every host: each its own hostid2, or identity merge would take hosts 2 and 3 for host 1 again.
  for (const [host, hostId2] of [
    ['host-1', lynisCapture.hostId2],
    ['host-2', '2'.repeat(64)],
    ['host-3', '3'.repeat(64)],
  ]) {
    expect((await upload(host!, hostId2!)).status).toBe(200);
  }
  const over = await upload('host-4', '4'.repeat(64));
  expect(over).toMatchObject({ status: 429, body: 'Host quota exceeded: this license key enrolled its 3 new hosts for today (UTC)' });
  expect(Number(over.retryAfter)).toBeGreaterThan(0);
  expect(await upload('host-1', OTHER_ID2)).toMatchObject({ status: 409, body: expect.stringMatching(/^Host identity changed/) });
  expect(await refusedReasons()).toEqual(
    expect.arrayContaining([
      ['host-quota-exceeded', 'host-4', 1],
      ['host-identity-changed', 'host-1', 1],
    ]),
  );
  expect((await admin<LicenseKeyInfo[]>('/api/admin/keys')).body).toMatchObject({ items: [{ id: keyId, newHostsPerDay: null, maxHosts: null }] });
});

it('takes the new identity once accepted', async () => {
  const hosts = (await admin<{ items: Host[] }>('/api/admin/hosts?hostId=host-1')).body.items;
  expect(hosts).toMatchObject([
    { hostId2: lynisCapture.hostId2, identityChange: { previousHostId2: lynisCapture.hostId2, hostId2: OTHER_ID2, refused: true } },
  ]);
  const accepted = await admin<Host>(`/api/admin/hosts/${hosts[0]!.id}/identity/accept`, { method: 'POST', body: JSON.stringify({ hostId2: OTHER_ID2 }) });
  expect(accepted).toMatchObject({ status: 200, body: { hostId2: OTHER_ID2, identityChange: null } });
  expect((await upload('host-1', OTHER_ID2)).status).toBe(200);
});

it("sets and clears a key's expiry from the command line, which the running server applies", async () => {
  const check = async () => (await fetch(`${server.url}/api/audit/license/`, { method: 'POST', body: new URLSearchParams({ licensekey: key }) })).text();
  const listed = async () => (await runCli(['keys', 'list'], dataDir)).stdout.split('\n')[1];
  expect(await runCli(['keys', 'set', keyId, '--expires', '2100-01-01'], dataDir)).toMatchObject({ code: 0, stderr: `Changed the settings of key ${keyId}\n` });
  expect(await listed()).toContain('2100-01-01T00:00:00.000Z');
  expect(await runCli(['keys', 'set', keyId, '--no-expiry'], dataDir)).toMatchObject({ code: 0 });
  expect(await listed()).not.toContain('2100-01-01');
  expect(await runCli(['keys', 'set', keyId, '--expires', '90d', '--no-expiry'], dataDir)).toMatchObject({
    code: 1,
    stderr: expect.stringContaining('give --expires or --no-expiry, not both'),
  });
  expect(await runCli(['keys', 'set', keyId], dataDir)).toMatchObject({ code: 1, stderr: expect.stringContaining('--expires or --no-expiry') });
  expect(await runCli(['keys', 'set', keyId, '--expires', '1s'], dataDir)).toMatchObject({ code: 0 });
  await new Promise((resolve) => setTimeout(resolve, 1800)); // past the expiry and the server's next reread of the keys
  expect(await check()).toBe('Response 500');
  expect(await runCli(['keys', 'set', keyId, '--no-expiry'], dataDir)).toMatchObject({ code: 0 });
  await new Promise((resolve) => setTimeout(resolve, 800));
  expect(await check()).toBe('Response 100');
}, 60_000); // seven command runs, each a process of its own: seconds apiece on a busy machine
