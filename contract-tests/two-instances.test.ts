// Two servers sharing one PostgreSQL database and one Redis, as a deployment behind a load balancer runs them:
// interleaved concurrent uploads from several collectors are each stored once, hosts are not duplicated, and a key
// revoked through the admin API of one server is refused by both within about a second.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { createAdminToken, HostRecord, importKey, openDatabase, ReportRecord, reportBytesOf } from '@org/audit-server';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { createScratchDatabase } from '@org/test-support/postgres';
import { redisUrl } from '@org/test-support/redis';
import { keepAliveAgent, postBytes } from './support/http.js';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

/** Uploads per collector, sent alternately to the two servers. */
const UPLOADS_EACH = 25;
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
// The real report without its license_key line, so that what is stored is byte for byte what was sent.
const baseReport = readFileSync(lynisFixturePath('report.dat'), 'utf8').replace(/^license_key=.*\n/m, '');
const newKey = () => randomBytes(16).toString('hex').match(/.{8}/g)!.join('-');

let scratch: { url: string; drop: () => Promise<void> };
/** The database URL the servers get, with a password (the test server trusts local connections) to look for in their output. */
let serverDatabaseUrl: string;
let password: string;
let dataDirs: { dataDir: string; remove: () => Promise<void> }[] = [];
let servers: ServerProcess[] = [];
const keys = [newKey(), newKey(), newKey()];
const keyIds: string[] = [];
let adminToken: string;
/**
 * Starts both servers once, before the first test. Awaited by every test's `beforeEach`, so that without
 * PostgreSQL or Redis every test fails with the reason (a failing `beforeAll` would only skip them).
 */
let started: Promise<void> | undefined;
beforeEach(() => (started ??= startServers()));
async function startServers(): Promise<void> {
  const redis = redisUrl();
  scratch = await createScratchDatabase();
  dataDirs = [await makeDataDir(), await makeDataDir()];
  // Migrated and seeded before the servers start, as an operator would prepare it.
  const orm = await openDatabase({ dataDir: dataDirs[0]!.dataDir, databaseUrl: scratch.url });
  for (const key of keys) keyIds.push(await importKey(orm, key));
  ({ token: adminToken } = await createAdminToken(orm, { label: 'two instances' }));
  await orm.close();
  const withPassword = new URL(scratch.url);
  withPassword.password ||= `never-in-logs-${randomBytes(6).toString('hex')}`;
  [serverDatabaseUrl, password] = [withPassword.toString(), withPassword.password];
  const prefix = `audit-two-instances-${randomBytes(6).toString('hex')}`;
  servers = await Promise.all(
    dataDirs.map(({ dataDir }) =>
      startServerProcess(dataDir, ['--plain-http', '--redis-url', redis, '--redis-prefix', prefix], { databaseUrl: serverDatabaseUrl }),
    ),
  );
}
afterAll(async () => {
  for (const server of servers) await server.stop();
  await scratch?.drop();
  for (const dir of dataDirs) await dir.remove();
});

it('both servers are ready: database reachable, every migration applied', async () => {
  for (const server of servers) {
    const ready = await fetch(`${server.opsUrl}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([200, 'ready']);
  }
});

it('stores every upload once and keeps one host per key and hostid, whichever server took each upload', async () => {
  // Collectors: two per (key, hostid) on key 0 (the same host uploading through both servers at once),
  // and one hostid under two keys (two hosts).
  const hostA = sha256('host-a').slice(0, 40);
  const hostB = sha256('host-b').slice(0, 40);
  const hostC = sha256('host-c').slice(0, 40);
  const collectors = [
    { key: 0, hostid: hostA },
    { key: 0, hostid: hostA },
    { key: 0, hostid: hostB },
    { key: 0, hostid: hostB },
    { key: 1, hostid: hostC },
    { key: 2, hostid: hostC },
  ];
  const agents = servers.map(() => keepAliveAgent(collectors.length));
  const sent: { id: string; sha256: string; key: number; hostid: string; server: number }[] = [];
  const started = Date.now();
  await Promise.all(
    collectors.map(async ({ key, hostid }, collector) => {
      for (let i = 0; i < UPLOADS_EACH; i++) {
        const server = (collector + i) % 2; // interleaved: each collector alternates, neighbours start on different servers
        const report = `${baseReport}two_instances=${collector}-${i}-${randomBytes(6).toString('hex')}\n`;
        const body = new URLSearchParams({ licensekey: keys[key]!, hostid, hostid2: `${hostid}-${i % 3}`, data: report });
        const answer = await postBytes(
          agents[server]!,
          `${servers[server]!.url}/api/audit/upload/`,
          { 'content-type': 'application/x-www-form-urlencoded' },
          Buffer.from(body.toString()),
        );
        expect(answer.status, answer.body).toBe(200);
        sent.push({ id: /^OK (\S+)$/.exec(answer.body)![1]!, sha256: sha256(report), key, hostid, server });
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  for (const agent of agents) agent.destroy();

  const orm = await openDatabase({ dataDir: dataDirs[0]!.dataDir, databaseUrl: scratch.url });
  try {
    const em = orm.em.fork();
    const reports = await em.find(ReportRecord, {}, { fields: ['id', 'sha256', 'content', 'contentEncoding', 'contentSha256', 'hostRecord'] });
    expect(reports).toHaveLength(sent.length);
    const byId = new Map(reports.map((r) => [r.id, r]));
    for (const upload of sent) {
      const stored = byId.get(upload.id);
      expect(stored, `report ${upload.id} is missing`).toBeDefined();
      // Read as the server reads it: stored as received at first, compressed by its background pass soon after.
      expect([stored!.sha256, sha256(await reportBytesOf(stored!))]).toEqual([upload.sha256, upload.sha256]);
    }
    const hosts = await em.find(HostRecord, {});
    const expected = new Map<string, number>();
    for (const upload of sent) expected.set(`${keyIds[upload.key]} ${upload.hostid}`, (expected.get(`${keyIds[upload.key]} ${upload.hostid}`) ?? 0) + 1);
    expect(new Map(hosts.map((h) => [`${h.key.id} ${h.hostId}`, h.reportCount]))).toEqual(expected);
    for (const host of hosts) expect(reports.filter((r) => r.hostRecord.id === host.id)).toHaveLength(host.reportCount);
    console.log(
      `two instances: ${sent.length} uploads from ${collectors.length} collectors (${sent.filter((u) => u.server === 0).length} / ${sent.filter((u) => u.server === 1).length} per server) ` +
        `in ${seconds.toFixed(1)} s (${Math.round(sent.length / seconds)}/s), ${reports.length} stored, ${hosts.length} hosts`,
    );
  } finally {
    await orm.close();
  }
}, 60_000);

it('refuses a key on both servers within about a second of its revocation through the admin API of one', async () => {
  const check = async (server: ServerProcess) =>
    (await fetch(`${server.url}/api/audit/license/`, { method: 'POST', body: new URLSearchParams({ licensekey: keys[0]! }) })).text();
  expect(await Promise.all(servers.map(check))).toEqual(['Response 100', 'Response 100']);
  const revoked = await fetch(`${servers[0]!.url}/api/admin/keys/${keyIds[0]}/revoke`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` } });
  expect([revoked.status, await revoked.json()]).toEqual([200, expect.objectContaining({ id: keyIds[0], state: 'revoked' })]);
  const revokedAt = Date.now();
  // Each server refuses the key once it rereads the keys (every 500 ms): poll both until they do.
  const refusedAfterMs = await Promise.all(
    servers.map(async (server) => {
      while (Date.now() - revokedAt < 3000) {
        if ((await check(server)) === 'Response 500') return Date.now() - revokedAt;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return Infinity;
    }),
  );
  for (const ms of refusedAfterMs) expect(ms).toBeLessThanOrEqual(1000);
  for (const server of servers) {
    expect(JSON.parse(server.logs.find((line) => line.includes('audit server listening'))!)).toMatchObject({ database: 'postgresql' });
    expect(server.logs.join('\n') + server.stderr()).not.toContain(password);
    expect(server.logs.join('\n') + server.stderr()).not.toContain(adminToken);
  }
  console.log(`two instances: revoked key refused by the servers ${refusedAfterMs.join(' and ')} ms after the revocation`);
});

it("accepts a person's session on both servers: signed in on one, known and signed out on the other", async () => {
  const email = 'grace@example.org';
  const personPassword = 'a long enough password';
  const added = await runCli(
    ['users', 'add', '--email', email, '--role', 'viewer', '--password-stdin'],
    dataDirs[0]!.dataDir,
    personPassword,
    serverDatabaseUrl,
  );
  expect(added.code, added.stderr).toBe(0);
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const signedIn = await fetch(`${first.url}/api/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: personPassword }),
  });
  expect(signedIn.status).toBe(204);
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  const session = await fetch(`${second.url}/api/admin/session`, { headers: { cookie } });
  expect(await session.json()).toEqual({
    kind: 'user',
    email,
    displayName: null,
    role: 'viewer',
    userId: expect.any(String),
    scope: { customers: [], groups: [] },
  });
  expect((await fetch(`${second.url}/api/admin/session`, { method: 'DELETE', headers: { cookie, origin: second.url } })).status).toBe(204);
  expect((await fetch(`${first.url}/api/admin/session`, { headers: { cookie } })).status).toBe(401);
  for (const server of servers) expect(server.logs.join('\n')).not.toContain(cookie.split('=')[1]);
});
