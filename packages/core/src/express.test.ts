import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import { createAuditApi } from './audit-api.js';
import { auditMiddleware } from './express.js';
import type { RequestRejectedEvent } from './hooks.js';
import { InMemoryKeyStore, InMemoryReportStore } from './memory-stores.js';

const report = readLynisFixture('report.dat');
const KEY = 'deadbeef-0000-0000-0000-000000000001';
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';

// An app that parses bodies itself, with its own limit and proxy setting, before mounting the handlers.
const reportStore = new InMemoryReportStore();
const rejected: RequestRejectedEvent[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const keyStore = new InMemoryKeyStore();
  keyStore.add(KEY);
  const api = await createAuditApi({ keyStore, reportStore, hooks: { onRequestRejected: (event) => void rejected.push(event) } });
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use(express.urlencoded({ limit: '100kb' }));
  app.use('/audit-collector', auditMiddleware(api));
  app.use(express.text());
  app.use('/late', auditMiddleware(api));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const upload = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}/audit-collector/api/audit/upload/`, { method: 'POST', body: new URLSearchParams(fields), headers });

describe("Express adapter after the app's own body parser", () => {
  it('uses the fields express.urlencoded parsed and stores the exact report bytes', async () => {
    const response = await upload({ data: report.toString(), licensekey: KEY, hostid: HOST_ID });
    expect(response.status).toBe(200);
    const id = (await response.text()).slice(3);
    expect(reportStore.reports.get(id)).toMatchObject({ size: report.length, encoding: 'raw' });
    expect(reportStore.reports.get(id)!.content.toString()).toBe(report.toString().replace(`license_key=${KEY}`, 'license_key=[redacted]'));
  });

  it('leaves the body limit to the app: its parser answers 413 past 100 kB', async () => {
    const response = await upload({ data: 'a'.repeat(150 * 1024), licensekey: KEY, hostid: HOST_ID });
    expect(response.status).toBe(413);
  });

  it("names the client by req.ip, which follows the app's trust proxy setting", async () => {
    rejected.length = 0;
    await upload({ data: 'os=Linux\n', licensekey: 'deadbeef', hostid: HOST_ID }, { 'x-forwarded-for': '203.0.113.9' });
    expect(rejected).toEqual([expect.objectContaining({ reason: 'invalid-key', remoteAddress: '203.0.113.9' })]);
  });

  it('refuses to guess when another parser consumed the body into something that is no form', async () => {
    const response = await fetch(`${baseUrl}/late/api/audit/license/`, { method: 'POST', body: 'licensekey=x', headers: { 'content-type': 'text/plain' } });
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('mount it first');
  });
});
