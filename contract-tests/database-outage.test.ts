// A PostgreSQL outage seen by a running server: admin requests and uploads are answered 503 with Retry-After
// (never 401, never a lockout of the address), /readyz says why, and everything recovers by itself, at once,
// when PostgreSQL is back. The test runs a PostgreSQL server of its own, which it stops and starts again.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { startPrivatePostgres, type PrivatePostgres } from './support/private-postgres.js';
import { logLine, makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

/** Failed key checks that lock an address: far fewer than the admin requests sent during the outage. */
const FAILURE_LIMIT = 3;
const ADMIN_REQUESTS_DURING_OUTAGE = 20;
const report = readFileSync(lynisFixturePath('report.dat'), 'utf8').replace(/^license_key=.*\n/m, '');
const licenseKey = randomBytes(16).toString('hex').match(/.{8}/g)!.join('-');

let postgres: PrivatePostgres | undefined;
let dataDir: { dataDir: string; remove: () => Promise<void> } | undefined;
let server: ServerProcess | undefined;
let adminToken: string;
/** Awaited by every test's `beforeEach`, so that a failed start fails every test with its reason. */
let started: Promise<void> | undefined;
beforeEach(() => (started ??= start()));
async function start(): Promise<void> {
  postgres = await startPrivatePostgres();
  dataDir = await makeDataDir();
  const orm = await openDatabase({ dataDir: dataDir.dataDir, databaseUrl: postgres.url });
  await importKey(orm, licenseKey);
  ({ token: adminToken } = await createAdminToken(orm, { label: 'outage' }));
  await orm.close();
  server = await startServerProcess(dataDir.dataDir, ['--plain-http', '--rate-limit-failures', String(FAILURE_LIMIT)], { databaseUrl: postgres.url });
}
afterAll(async () => {
  await server?.stop();
  await postgres?.destroy();
  await dataDir?.remove();
});

const admin = () => fetch(`${server!.url}/api/admin/keys`, { headers: { authorization: `Bearer ${adminToken}` } });
const upload = (hostid: string) =>
  fetch(`${server!.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ licensekey: licenseKey, hostid, hostid2: `${hostid}-2`, data: report }),
  });
const licenseCheck = (key: string) => fetch(`${server!.url}/api/audit/license/`, { method: 'POST', body: new URLSearchParams({ licensekey: key }) });
const readiness = async () => {
  const answer = await fetch(`${server!.opsUrl}/readyz`);
  return [answer.status, await answer.text()];
};

it('answers 503 while PostgreSQL is down, locks no address out, and recovers at once when it is back', async () => {
  expect(await readiness()).toEqual([200, 'ready']);
  expect((await admin()).status).toBe(200);
  expect((await upload('a'.repeat(40))).status).toBe(200);

  await postgres!.stop();

  for (let i = 0; i < ADMIN_REQUESTS_DURING_OUTAGE; i++) {
    const answer = await admin();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('10');
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await answer.json()) as { detail: string }).detail).toBe('The database is unavailable; try again later');
  }
  const refused = await upload('b'.repeat(40));
  expect(refused.status).toBe(503);
  expect(refused.headers.get('retry-after')).toBe('10');
  expect(await refused.text()).toBe('Service unavailable, try again later');
  expect(await licenseCheck(licenseKey).then((answer) => answer.text())).toBe('Response 100'); // known keys are answered from memory
  const unknownKey = await licenseCheck('0000-not-a-key-0000'); // only the database could say it is unknown
  expect([unknownKey.status, unknownKey.headers.get('retry-after')]).toEqual([503, '10']);
  expect(await readiness()).toEqual([503, 'not ready: database unreachable']);
  await logLine(server!, (line) => line.includes('"admin request failed: database unavailable"'));
  const unauthorized = server!.logs.filter((line) => line.includes('"admin request unauthorized"'));
  expect(unauthorized).toEqual([]);

  await postgres!.start();

  // Ready again by itself: no upload has succeeded since the failed one, so the check writes itself.
  expect(await readiness()).toEqual([200, 'ready']);
  // The same address, at once: never locked out by the requests made during the outage.
  expect((await admin()).status).toBe(200);
  expect((await upload('b'.repeat(40))).status).toBe(200);
  expect(server!.stderr()).toBe('');
}, 60_000);
