// Operating the reference server as a process: health, readiness and metrics on their own port, graceful
// SIGTERM with an upload in flight, and the config file.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { storedReports } from './support/reports.js';
import { runNodeScript } from '@org/test-support/node-script';
import { CLI, makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

const KEY = 'deadbeef-0000-0000-0000-000000000001';
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const report = readFileSync(lynisFixturePath('report.dat'));
const uploadBody = Buffer.from(new URLSearchParams({ data: report.toString(), licensekey: KEY, hostid: HOST_ID }).toString());
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let dataDir: string;
let removeDataDir: () => Promise<void>;

beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  const orm = await openDatabase(dataDir);
  await importKey(orm, KEY, { label: 'operations' });
  await orm.close();
});
afterAll(() => removeDataDir?.());

describe('health, readiness and metrics', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(dataDir, ['--plain-http']);
  });
  afterAll(() => server?.stop());

  it('answers /healthz and /readyz on the operations port', async () => {
    const health = await fetch(`${server.opsUrl}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, 'ok']);
    const ready = await fetch(`${server.opsUrl}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([200, 'ready']);
  });

  it("never serves them on the collectors' port", async () => {
    expect(server.opsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.opsUrl).not.toBe(server.url);
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await fetch(`${server.url}${path}`)).status).toBe(404);
  });

  it('counts requests by operation and status, uploads accepted and refused by reason, bytes and latency', async () => {
    const post = (path: string, body: BodyInit) => fetch(`${server.url}${path}`, { method: 'POST', body, headers: FORM });
    expect((await post('/api/audit/license/', `licensekey=${KEY}`)).status).toBe(200);
    expect((await post('/api/audit/upload/', uploadBody)).status).toBe(200);
    expect((await post('/api/audit/upload/', `licensekey=deadbeef&hostid=${HOST_ID}&data=os%3DLinux`)).status).toBe(401);
    const metrics = await fetch(`${server.opsUrl}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await metrics.text();
    expect(text).toContain('audit_requests_total{operation="checkLicense",status="200"} 1');
    expect(text).toContain('audit_requests_total{operation="uploadReport",status="200"} 1');
    expect(text).toContain('audit_requests_total{operation="uploadReport",status="401"} 1');
    expect(text).toContain('audit_uploads_accepted_total 1');
    expect(text).toContain('audit_requests_rejected_total{operation="uploadReport",reason="invalid-key"} 1');
    expect(text).toMatch(/audit_request_duration_seconds_count\{operation="uploadReport"\} 2/);
    const bytes = Number(text.match(/audit_request_bytes_received_total\{operation="uploadReport"\} (\d+)/)?.[1]);
    expect(bytes).toBeGreaterThan(uploadBody.length);
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).not.toContain(KEY);
  });
});

describe('graceful shutdown on SIGTERM', () => {
  let server: ServerProcess | undefined;
  afterEach(() => server?.stop());

  it('stops accepting, finishes the upload in flight, reports not ready meanwhile, then exits 0', async () => {
    server = await startServerProcess(dataDir, ['--plain-http']);
    const before = (await storedReports(dataDir)).length;
    const { port } = new URL(server.url);

    // An upload whose body is half sent when the signal arrives.
    const upload = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/audit/upload/',
      headers: { ...FORM, 'content-length': uploadBody.length },
    });
    const answer = responseOf(upload);
    upload.write(uploadBody.subarray(0, uploadBody.length / 2));
    await waitFor(async () => (await fetch(`${server!.opsUrl}/metrics`).then((r) => r.text())).includes('audit_http_requests_in_flight 1'));

    const exited = server.stop();
    await waitFor(() => refused(Number(port)));
    const ready = await fetch(`${server.opsUrl}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([503, 'not ready: shutting down']);

    upload.end(uploadBody.subarray(uploadBody.length / 2));
    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.body).toMatch(/^OK /);
    expect(await exited).toBe(0);
    expect(server.logs.some((line) => JSON.parse(line).msg === 'audit server stopped')).toBe(true);
    const stored = await storedReports(dataDir);
    expect(stored).toHaveLength(before + 1);
    expect(stored.at(-1)!.size).toBe(report.length);
  });
});

describe('configuration file', () => {
  it('is read, and flags and environment override it', async () => {
    const file = join(dataDir, 'config.json');
    const elsewhere = join(dataDir, 'not-this-one');
    await writeFile(file, JSON.stringify({ toolSegment: 'lynis', plainHttp: true, logLevel: 'warn', opsPort: 'off', dataDir: elsewhere }));
    // The flags given here (and by startServerProcess: --ops-port 0) beat the file; had `warn` won, no start line would come.
    // DATA_DIR from the environment beats the file's dataDir: only there is the key that answers "Response 100".
    const server = await startServerProcess(dataDir, ['--config', file, '--log-level', 'info']);
    try {
      expect(server.url).toMatch(/^http:/);
      const listening = server.logs.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'audit server listening');
      expect(listening).toMatchObject({ toolSegment: 'lynis', opsUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
      const response = await fetch(`${server.url}/api/lynis/license/`, { method: 'POST', body: `licensekey=${KEY}`, headers: FORM });
      expect(await response.text()).toBe('Response 100');
    } finally {
      await server.stop();
    }
    await expect(access(elsewhere)).rejects.toThrow(/ENOENT/);
  });

  it('refuses to start on a bad setting, naming the setting and the file', async () => {
    const file = join(dataDir, 'bad.json');
    await writeFile(file, JSON.stringify({ port: 'eighty', toolSegment: 'a/b' }));
    const result = await runCli(['start', '--config', file], dataDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain(`port (in ${file}): must be a port number`);
    expect(result.stderr).toContain(`toolSegment (in ${file}): must be one URL path segment`);
  });
});

describe('boolean settings from the environment', () => {
  it('reads WEBHOOK_ALLOW_PRIVATE as text, refusing what is neither true nor false', async () => {
    const result = await runNodeScript(CLI, ['start', '--plain-http'], { PATH: process.env.PATH!, DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'perhaps' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('webhookAllowPrivate: must be true or false');
  });
});

describe('schema formats', () => {
  it('prints no "unknown format" warning when the admin API compiles the contract, webhook URLs included', async () => {
    const orm = await openDatabase(dataDir);
    const { token } = await createAdminToken(orm, { label: 'formats' });
    await orm.close();
    const server = await startServerProcess(dataDir, ['--plain-http', '--admin-listen', '127.0.0.1:0']);
    try {
      const created = await fetch(`${server.adminUrl}/api/admin/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://hooks.example.org/formats', events: ['report.stored'] }),
      });
      expect(created.status).toBe(201);
    } finally {
      await server.stop();
    }
    expect(server.stderr()).not.toMatch(/unknown format/);
    expect(server.logs.join('\n')).not.toMatch(/unknown format/);
  });
});

function responseOf(request: ClientRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request.on('response', (response: IncomingMessage) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
  });
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** Polls `condition` until it holds; the test's own timeout bounds the wait. */
async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}
