// A revoked key is refused by every running server within one second, without restarting any of them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

let servers: ServerProcess[] = [];
let removeDataDir: () => Promise<void>;
let dataDir: string;
beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  await runCli(['keys', 'list'], dataDir); // creates the database before two servers open it
  servers = await Promise.all([startServerProcess(dataDir, ['--plain-http']), startServerProcess(dataDir, ['--plain-http'])]);
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await removeDataDir?.();
});

const check = async (server: ServerProcess, licensekey: string) =>
  (await fetch(`${server.url}/api/audit/license/`, { method: 'POST', body: new URLSearchParams({ licensekey }) })).text();
const oneSecond = () => new Promise((resolve) => setTimeout(resolve, 1000));

it('two servers on one database accept a new key, and refuse it within a second of its revocation', async () => {
  const created = await runCli(['keys', 'create'], dataDir);
  const key = created.stdout.trim();
  const id = /Created key (\S+)/.exec(created.stderr)![1]!;
  await oneSecond();
  expect(await Promise.all(servers.map((server) => check(server, key)))).toEqual(['Response 100', 'Response 100']);
  expect((await runCli(['keys', 'revoke', id], dataDir)).code).toBe(0);
  await oneSecond();
  expect(await Promise.all(servers.map((server) => check(server, key)))).toEqual(['Response 500', 'Response 500']);
});

it('both servers accept a key made by keys create as soon as the command returns', async () => {
  const key = (await runCli(['keys', 'create'], dataDir)).stdout.trim();
  expect(await Promise.all(servers.map((server) => check(server, key)))).toEqual(['Response 100', 'Response 100']);
});

it('after a rotation without grace period, both servers accept the new key and refuse the old one', async () => {
  const created = await runCli(['keys', 'create'], dataDir);
  const old = created.stdout.trim();
  const id = /Created key (\S+)/.exec(created.stderr)![1]!;
  const rotated = await runCli(['keys', 'rotate', id, '--grace', '0s'], dataDir);
  expect(rotated.stderr).toMatch(new RegExp(`key ${id} stops working at `));
  await oneSecond();
  expect(await Promise.all(servers.map((server) => check(server, rotated.stdout.trim())))).toEqual(['Response 100', 'Response 100']);
  expect(await Promise.all(servers.map((server) => check(server, old)))).toEqual(['Response 500', 'Response 500']);
});
