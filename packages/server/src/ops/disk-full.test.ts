// A full disk under SQLite: uploads are answered 503 and store nothing, /readyz says the database is not writable,
// and both recover by themselves once space is back. SQLite's `max_page_count` on the server's connection makes
// writes fail with SQLITE_FULL ("database or disk is full"), exactly as a full disk does.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pino } from 'pino';
import { createAuditApi } from '@org/audit-server-core';
import { LYNIS_FIXTURES_DIR } from '@org/test-support/lynis-fixtures';
import { createAdminApi } from '../admin/api.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createApp } from '../http/app.js';
import { openDatabase, type Database } from '../database/open.js';
import { HostRecord, ReportRecord } from '../database/entities.js';
import { createKey } from '../secrets/license-keys.js';
import { createMetrics } from './metrics.js';
import { createOpsServer } from './endpoints.js';
import { OrmReportStore } from '../reports/report-store.js';
import { OrmKeyStore } from '../secrets/license-key-store.js';
import { WriteHealth } from './write-health.js';

let dataDir: string;
let database: Database;
let keyStore: OrmKeyStore;
let servers: Server[] = [];
let url: string;
let opsUrl: string;
let licenseKey: string;
let adminToken: string;
let report: string;
const logs: string[] = [];

/** Serves the audit and admin API and the operations endpoints on free ports, wired as `startServer` wires them. */
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'audit-disk-full-'));
  database = await openDatabase(dataDir);
  ({ key: licenseKey } = await createKey(database));
  ({ token: adminToken } = await createAdminToken(database, { label: 'disk full' }));
  report = (await readFile(join(LYNIS_FIXTURES_DIR, 'report.dat'), 'utf8')).replace(/^license_key=.*\n/m, '');
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void (logs.push(String(chunk)), done()) }));
  const writeHealth = new WriteHealth(database);
  keyStore = await OrmKeyStore.open(database);
  const audit = await createAuditApi({ keyStore, reportStore: new OrmReportStore(database, { writeHealth }), logger });
  const admin = await createAdminApi({ database, logger });
  const metrics = createMetrics({ bodyBytesInFlight: () => audit.bodyBytesInFlight() });
  servers = [
    createServer(createApp(audit, logger, { admin })),
    createOpsServer({ orm: database, registry: metrics.registry, isShuttingDown: () => false, writeHealth }),
  ];
  const [app, ops] = servers as [Server, Server];
  for (const server of servers) server.listen(0, '127.0.0.1');
  await Promise.all(servers.map((server) => once(server, 'listening')));
  url = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  opsUrl = `http://127.0.0.1:${(ops.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const server of servers) {
    server.close();
    server.closeAllConnections();
  }
  await keyStore?.close().catch(() => {}); // its last-use write may meet the full disk
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const upload = (hostid: string) =>
  fetch(`${url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ licensekey: licenseKey, hostid, hostid2: `${hostid}-2`, data: `${report}disk_full_test=${hostid}\n` }),
  });
const readiness = async () => {
  const answer = await fetch(`${opsUrl}/readyz`);
  return [answer.status, await answer.text()];
};
const stored = async () => {
  const em = database.em.fork();
  return { reports: await em.count(ReportRecord, {}), hosts: await em.count(HostRecord, {}) };
};
const execute = (sql: string) => database.em.getConnection().execute<Record<string, number>[]>(sql);

it('answers uploads 503 and stores nothing while the disk is full, reports not ready, and recovers by itself', async () => {
  expect((await upload('a'.repeat(40))).status).toBe(200);
  expect(await readiness()).toEqual([200, 'ready']);
  const before = await stored();

  // The disk is full: the database cannot grow beyond the pages it has.
  const pages = (await execute('pragma page_count'))[0]!['page_count'];
  await execute(`pragma max_page_count = ${pages}`);
  const refused = await upload('b'.repeat(40));
  expect(refused.status).toBe(503);
  expect(refused.headers.get('retry-after')).toBe('10');
  expect(await refused.text()).toBe('Service unavailable, try again later');
  expect(await stored()).toEqual(before); // neither the report nor its host
  expect(logs.filter((line) => line.includes('"dependency unavailable"') && line.includes('SQLITE_FULL'))).toHaveLength(1); // the cause, not the failed ROLLBACK after it

  // Not ready, and it stays so while the disk is full: each check tries a real write.
  expect(await readiness()).toEqual([503, 'not ready: database not writable']);
  expect(await readiness()).toEqual([503, 'not ready: database not writable']);
  // Reading still works: operators can look at what is stored.
  const hosts = await fetch(`${url}/api/admin/hosts`, { headers: { authorization: `Bearer ${adminToken}` } });
  expect(hosts.status).toBe(200);

  // Space is back; no upload comes (a load balancer sends none to a server that is not ready), yet it recovers.
  await execute('pragma max_page_count = 1073741823');
  expect(await readiness()).toEqual([200, 'ready']);
  expect((await upload('b'.repeat(40))).status).toBe(200);
  expect(await stored()).toEqual({ reports: before.reports + 1, hosts: before.hosts + 1 });
});
