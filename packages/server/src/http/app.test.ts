// The request log: one line per request with method, path and status; never a query string, and no stack trace
// for an answer the server gave on purpose.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { pino } from 'pino';
import { createAuditApi, InMemoryKeyStore, InMemoryReportStore } from '@org/audit-server-core';
import type { AdminApi } from '../admin/api.js';
import { problemResponse } from '../admin/responses.js';
import { createApp } from './app.js';

let server: Server;
let url: string;
let lines: Record<string, unknown>[];

/** Serves the app with an admin API that answers `answer` (or fails), logging into `lines`. */
async function serve(admin: AdminApi): Promise<void> {
  lines = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void (lines.push(JSON.parse(String(chunk))), done()) }));
  const audit = await createAuditApi({ keyStore: new InMemoryKeyStore(), reportStore: new InMemoryReportStore(), logger });
  server = createServer(createApp(audit, logger, { admin }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const answering = (status: number): AdminApi => ({ handle: async () => problemResponse(status, 'try again later', { 'retry-after': '5' }) });

beforeEach(() => serve(answering(200)));
afterEach(() => {
  server.close();
  server.closeAllConnections();
});

/** The request log's lines (each written once its answer is sent, just after the client has it). */
async function requestLines(count: number): Promise<Record<string, unknown>[]> {
  for (let waited = 0; waited < 2000; waited += 10) {
    const found = lines.filter((line) => line['req'] !== undefined);
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} request log lines: ${JSON.stringify(lines)}`);
}

it('logs the path without the query string, so that no secret sent in a URL reaches the log', async () => {
  const secrets = ['deadbeef-1111-2222-3333-444455556666', `adm_${'7'.repeat(64)}`, 's3cr3t-value'];
  await fetch(`${url}/api/audit/license/?licensekey=${secrets[0]}`, { method: 'POST' });
  await fetch(`${url}/api/admin/hosts?access_token=${secrets[1]}&limit=5`);
  await fetch(`${url}/nothing/here?token=${secrets[2]}`);
  const logged = await requestLines(3);
  expect(logged.map((line) => line['req'])).toEqual([
    { method: 'POST', path: '/api/audit/license/', remoteAddress: '127.0.0.1' },
    { method: 'GET', path: '/api/admin/hosts', remoteAddress: '127.0.0.1' },
    { method: 'GET', path: '/nothing/here', remoteAddress: '127.0.0.1' },
  ]);
  const everything = JSON.stringify(lines);
  for (const secret of secrets) expect(everything).not.toContain(secret);
  expect(everything).not.toContain('?');
});

it('logs a deliberate 5xx answer (503 busy) as one line with method, path and status, without an error or stack', async () => {
  await serve(answering(503));
  const response = await fetch(`${url}/api/admin/keys`);
  expect(response.status).toBe(503);
  const [line] = await requestLines(1);
  expect(line).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', path: '/api/admin/keys' }, res: { statusCode: 503 } });
  expect(line).not.toHaveProperty('err');
  expect(line).not.toHaveProperty('error');
  expect(JSON.stringify(lines)).not.toMatch(/stack|failed with status code/);
  expect(lines).toHaveLength(1);
});

it('still logs an unexpected error with its name and message (no stack), and the request line after it', async () => {
  await serve({
    handle: async () => {
      throw new TypeError('cannot read the database');
    },
  });
  const response = await fetch(`${url}/api/admin/keys`);
  expect(response.status).toBe(500);
  await requestLines(1);
  expect(lines).toEqual([
    expect.objectContaining({ level: 50, msg: 'request failed', error: { type: 'TypeError', message: 'cannot read the database' } }),
    expect.objectContaining({ msg: 'request completed', req: expect.objectContaining({ path: '/api/admin/keys' }), res: { statusCode: 500 } }),
  ]);
  expect(JSON.stringify(lines)).not.toMatch(/stack|failed with status code/);
});
