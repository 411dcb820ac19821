// Where the admin API is served: on the collectors' port (default), on a listener of its own, or nowhere.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAdminToken } from './secrets/admin-tokens.js';
import { parseServerConfig } from './config.js';
import { openDatabase } from './database/open.js';
import { createLogger } from './ops/logger.js';
import { startServer, type RunningServer } from './server.js';

let dataDir: string;
let token: string;
let server: RunningServer | undefined;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'audit-admin-listener-test-'));
  const orm = await openDatabase(dataDir);
  ({ token } = await createAdminToken(orm, { label: 'tests' }));
  await orm.close();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

const start = (settings: Record<string, string | boolean>) =>
  startServer(parseServerConfig({ dataDir, host: '127.0.0.1', port: '0', opsPort: 'off', ...settings }), createLogger('silent'));

interface Answer {
  status: number;
  type: string | undefined;
  body: string;
}

/** One request on a connection of its own; over HTTPS trusting only the data directory's self-signed certificate. */
async function send(url: string, path: string, init: { method?: string; body?: string; authorized?: boolean } = {}): Promise<Answer> {
  const headers: Record<string, string> = init.authorized === false ? {} : { authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  if (url.startsWith('http:')) {
    const response = await fetch(`${url}${path}`, { method: init.method, headers, body: init.body });
    return { status: response.status, type: response.headers.get('content-type') ?? undefined, body: await response.text() };
  }
  const ca = await readFile(join(dataDir, 'tls-cert.pem'));
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}${path}`, { method: init.method ?? 'GET', headers, ca, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, type: response.headers['content-type'], body }));
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

const licenseCheck = (url: string) => send(url, '/api/audit/license/', { method: 'POST', body: 'licensekey=deadbeef-0000', authorized: false });

it("serves the admin API on the collectors' port by default", async () => {
  server = await start({ plainHttp: true });
  expect(server.adminUrl).toBe(server.url);
  expect((await send(server.url, '/api/admin/keys')).status).toBe(200);
  expect(await licenseCheck(server.url)).toMatchObject({ status: 401, body: 'Response 500' });
});

it("serves only the admin API on a listener of its own (same TLS identity and connection cap), and 404 on the collectors' port", async () => {
  server = await start({ adminListen: '127.0.0.1:0', maxConnectionsPerAddress: '2' });
  const { url, adminUrl } = server;
  expect(adminUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(adminUrl).not.toBe(url);

  const listed = await send(adminUrl!, '/api/admin/keys');
  expect(listed).toMatchObject({ status: 200, body: '{"items":[]}' });
  expect((await send(adminUrl!, '/api/admin/keys', { authorized: false })).status).toBe(401);
  expect(await send(url, '/api/admin/keys')).toEqual({ status: 404, type: 'text/plain; charset=utf-8', body: 'Not found' });
  expect((await send(url, '/api/admin/hosts?limit=0', { authorized: false })).status).toBe(404);

  expect(await licenseCheck(url)).toMatchObject({ status: 401, body: 'Response 500' });
  expect(await licenseCheck(adminUrl!)).toMatchObject({ status: 404, body: 'Not found' });

  // The same certificate, and the same cap on connections per address.
  const port = Number(new URL(adminUrl!).port);
  const handshake = () =>
    new Promise<ReturnType<typeof connectTls>>((resolve, reject) => {
      const options = { host: '127.0.0.1', port, localAddress: '127.0.0.4', rejectUnauthorized: false }; // localAddress: passed on to net.connect
      const socket = connectTls(options, () => resolve(socket));
      socket.once('error', reject);
      socket.once('close', () => reject(new Error('closed before the handshake finished')));
    });
  const held = [await handshake(), await handshake()];
  expect(held[0]!.getPeerX509Certificate()!.fingerprint256).toBe(server.fingerprint256);
  await expect(handshake()).rejects.toThrow();
  held.forEach((socket) => socket.destroy());
});

it("serves a separate admin listener over plain HTTP when the collectors' port is plain HTTP", async () => {
  server = await start({ plainHttp: true, adminListen: '[::1]:0' });
  expect(server.adminUrl).toMatch(/^http:\/\/\[::1\]:\d+$/);
  expect((await send(server.adminUrl!, '/api/admin/hosts')).status).toBe(200);
  expect((await send(server.url, '/api/admin/hosts')).status).toBe(404);
});

it('does not serve the admin API at all when turned off', async () => {
  server = await start({ plainHttp: true, adminListen: 'off' });
  expect(server.adminUrl).toBeUndefined();
  for (const path of ['/api/admin/keys', '/api/admin/hosts', '/api/admin/nothing']) {
    expect(await send(server.url, path)).toEqual({ status: 404, type: 'text/plain; charset=utf-8', body: 'Not found' });
  }
  expect(await licenseCheck(server.url)).toMatchObject({ status: 401, body: 'Response 500' });
});
