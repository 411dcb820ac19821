// The collectors' listener: collector paths go to core's node:http adapter, everything else to Express (the admin
// API, the dashboard, the plain-text 404). Both see the same client address under --trust-proxy, and the request
// log carries no secret whichever side answered.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { ALLOWED, createAuditApi, InMemoryKeyStore, InMemoryReportStore, type AuditRateLimiter } from '@org/audit-server-core';
import type { AdminApi, AdminRequest } from '../admin/api.js';
import { createApp, createAdminApp } from './app.js';

const VALID_KEY = 'deadbeef-1111-2222-3333-444455556666';
const ADMIN_TOKEN = `adm_${'7'.repeat(64)}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server?.closeAllConnections();
  server = undefined;
});

/** Serves `createApp` with an admin API that records its requests and a rate limiter that records addresses. */
async function serve(options: { trustProxy?: string; toolSegment?: string } = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void (lines.push(JSON.parse(String(chunk))), done()) }));
  const keyStore = new InMemoryKeyStore();
  keyStore.add(VALID_KEY);
  const limited: string[] = [];
  const rateLimiter: AuditRateLimiter = {
    consumeRequest: async (address) => (limited.push(address), ALLOWED),
    consumeKey: async () => ALLOWED,
    recordFailure: async () => {},
  };
  const api = await createAuditApi({ keyStore, reportStore: new InMemoryReportStore(), rateLimiter, logger, toolSegment: options.toolSegment });
  const adminRequests: AdminRequest[] = [];
  const admin: AdminApi = {
    handle: async (request) => (adminRequests.push(request), { status: 200, headers: { 'content-type': 'application/json' }, body: '{"served":"admin"}' }),
  };
  server = createServer(createApp(api, logger, { admin, trustProxy: options.trustProxy }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, lines, limited, adminRequests };
}

/** The request log's lines, once `count` of them are written (each is written once its answer is sent). */
async function requestLines(lines: Record<string, unknown>[], count: number): Promise<Record<string, unknown>[]> {
  for (let waited = 0; waited < 2000; waited += 10) {
    const found = lines.filter((line) => line['msg'] === 'request completed');
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} request log lines: ${JSON.stringify(lines)}`);
}

const licenseCheck = (url: string, path = '/api/audit/license/', headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { ...FORM, ...headers }, body: `licensekey=${VALID_KEY}&collector_version=105` });

describe('collector paths are answered by core', () => {
  it('answers the license check under /api/<toolSegment>/ and /api/v1/<toolSegment>/, and never asks the admin API', async () => {
    const { url, adminRequests } = await serve({ toolSegment: 'lynis' });
    for (const path of ['/api/lynis/license/', '/api/v1/lynis/license/']) {
      const response = await licenseCheck(url, path);
      expect([response.status, await response.text()]).toEqual([200, 'Response 100']);
    }
    expect(adminRequests).toEqual([]);
  });

  it("gives core's 405 with Allow for a wrong method, and core's 404 for an unknown path under the prefix", async () => {
    const { url } = await serve();
    const wrongMethod = await fetch(`${url}/api/audit/license/`);
    expect([wrongMethod.status, wrongMethod.headers.get('allow'), await wrongMethod.text()]).toEqual([405, 'POST', 'Method not allowed: use POST']);
    const unknown = await fetch(`${url}/api/audit/nothing/`, { method: 'POST' });
    expect([unknown.status, unknown.headers.get('content-type'), await unknown.text()]).toEqual([404, 'text/plain; charset=utf-8', 'Not found']);
  });
});

describe('everything else is answered by Express', () => {
  it('hands /api/admin/… to the admin API with its full path and query', async () => {
    const { url, adminRequests } = await serve();
    const response = await fetch(`${url}/api/admin/hosts?limit=5`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect([response.status, await response.text()]).toEqual([200, '{"served":"admin"}']);
    expect(adminRequests).toMatchObject([{ method: 'GET', path: '/api/admin/hosts', query: { limit: '5' } }]);
  });

  it('serves the dashboard under /dashboard/ with its security headers, and sends /dashboard on to it', async () => {
    const { url } = await serve();
    const page = await fetch(`${url}/dashboard/`);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.status === 200 ? page.headers.get('content-type') : await page.text()).toMatch(/^text\/html|not built/);
    const bare = await fetch(`${url}/dashboard`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/dashboard/']);
  });

  it("sends a digest's link on to its page in the dashboard", async () => {
    const { url } = await serve();
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const link = await fetch(`${url}/dashboard/digests/${id}`, { redirect: 'manual' });
    expect([link.status, link.headers.get('location')]).toEqual([302, `/dashboard/#/digests/${id}`]);
  });

  it('answers other paths, and other /api/v1/ paths, with a plain-text 404', async () => {
    const { url } = await serve();
    for (const path of ['/', '/nothing/here', '/api/v1/other/license/', '/api/other/upload/']) {
      const response = await fetch(`${url}${path}`, { method: 'POST' });
      expect([path, response.status, response.headers.get('content-type'), await response.text()]).toEqual([
        path,
        404,
        'text/plain; charset=utf-8',
        'Not found',
      ]);
    }
  });

  it('serves only the admin API and the dashboard on an admin listener of its own, with its request log', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void (lines.push(JSON.parse(String(chunk))), done()) }));
    const admin: AdminApi = { handle: async () => ({ status: 204, headers: {}, body: '' }) };
    server = createServer(createAdminApp(admin, logger));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${url}/api/admin/keys`)).status).toBe(204);
    const license = await licenseCheck(url);
    expect([license.status, await license.text()]).toEqual([404, 'Not found']);
    const logged = await requestLines(lines, 2);
    expect(logged.map((line) => [line['req'], line['res']])).toEqual([
      [{ method: 'GET', path: '/api/admin/keys', remoteAddress: '127.0.0.1' }, { statusCode: 204 }],
      [{ method: 'POST', path: '/api/audit/license/', remoteAddress: '127.0.0.1' }, { statusCode: 404 }],
    ]);
  });
});

describe('client address', () => {
  const forwarded = { 'x-forwarded-for': '203.0.113.7' };

  it('is the socket peer for both sides without --trust-proxy: X-Forwarded-For is ignored', async () => {
    const { url, limited, adminRequests } = await serve();
    await licenseCheck(url, undefined, forwarded);
    await fetch(`${url}/api/admin/keys`, { headers: forwarded });
    expect(limited).toEqual(['127.0.0.1']);
    expect(adminRequests.map((request) => request.remoteAddress)).toEqual(['127.0.0.1']);
  });

  it.each(['1', 'loopback', '127.0.0.1/8'])('is the forwarded one for both sides with --trust-proxy %s', async (trustProxy) => {
    const { url, limited, adminRequests } = await serve({ trustProxy });
    await licenseCheck(url, undefined, forwarded);
    await fetch(`${url}/api/admin/keys`, { headers: forwarded });
    expect(limited).toEqual(['203.0.113.7']);
    expect(adminRequests.map((request) => request.remoteAddress)).toEqual(['203.0.113.7']);
  });

  it('stops at the first untrusted hop, as Express does', async () => {
    const { url, limited, adminRequests } = await serve({ trustProxy: 'loopback' });
    const chain = { 'x-forwarded-for': '198.51.100.1, 203.0.113.7, 127.0.0.5' };
    await licenseCheck(url, undefined, chain);
    await fetch(`${url}/api/admin/keys`, { headers: chain });
    expect(limited).toEqual(['203.0.113.7']);
    expect(adminRequests.map((request) => request.remoteAddress)).toEqual(['203.0.113.7']);
  });
});

it('logs one line per request on both sides, with the socket address and without any header, key, token or query', async () => {
  const { url, lines } = await serve({ trustProxy: '1' });
  await licenseCheck(url, `/api/audit/license/?licensekey=${VALID_KEY}`, { authorization: `Bearer ${ADMIN_TOKEN}`, 'x-forwarded-for': '203.0.113.7' });
  await fetch(`${url}/api/admin/keys?access_token=${ADMIN_TOKEN}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const logged = await requestLines(lines, 2);
  expect(logged).toEqual([
    expect.objectContaining({
      level: 30,
      req: { method: 'POST', path: '/api/audit/license/', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    }),
    expect.objectContaining({ level: 30, req: { method: 'GET', path: '/api/admin/keys', remoteAddress: '127.0.0.1' }, res: { statusCode: 200 } }),
  ]);
  const everything = JSON.stringify(lines);
  for (const secret of [VALID_KEY, ADMIN_TOKEN, 'Bearer', '203.0.113.7', '?']) expect(everything).not.toContain(secret);
});
