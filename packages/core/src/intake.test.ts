// Admission before buffering: what an anonymous client can make the intake hold, and for how long.
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { formPostHead, sendRaw, type OpenRequest } from '@org/test-support/raw-https';
import { createAuditApi, type AuditApiOptions } from './audit-api.js';
import { InMemoryKeyStore, InMemoryReportStore } from './memory-stores.js';
import { createAuditListener } from './node-http.js';
import type { AuditRateLimiter } from './rate-limit.js';
import { minimalReport } from '@org/test-support/lynis-report';

const VALID_KEY = 'deadbeef-0000-0000-0000-000000000001';
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const REPORT = minimalReport('os=Linux', 'hostname=web1');
const urlencoded = (fields: Record<string, string>) => Buffer.from(new URLSearchParams(fields).toString(), 'latin1');
const uploadBody = (licensekey: string, data = REPORT) => urlencoded({ data, licensekey, hostid: HOST_ID });

let server: Server | undefined;
const open: OpenRequest[] = [];
afterEach(async () => {
  for (const request of open.splice(0)) request.socket.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Serves the API through core's node:http adapter; remembers the failures and rejections it saw. */
async function serve(options: Partial<AuditApiOptions> = {}) {
  const keyStore = new InMemoryKeyStore();
  keyStore.add(VALID_KEY);
  const reportStore = new InMemoryReportStore();
  const failures: string[] = [];
  const rateLimiter: AuditRateLimiter = {
    consumeRequest: async () => ({ allowed: true }),
    consumeKey: async () => ({ allowed: true }),
    recordFailure: async (address) => void failures.push(address),
  };
  const rejected: { reason: string; status: number; keyId: string }[] = [];
  const api = await createAuditApi({
    keyStore,
    reportStore,
    rateLimiter,
    hooks: { onRequestRejected: (event) => void rejected.push(event) },
    ...options,
  });
  server = createServer(createAuditListener(api));
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  /** Sends the head and the first `sent` bytes of `body`, keeping the connection open. */
  const start = async (path: string, body: Buffer, sent: number, localAddress = '127.0.0.1') => {
    const request = await sendRaw(port, Buffer.concat([formPostHead(path, body.length), body.subarray(0, sent)]), { tls: false, localAddress });
    open.push(request);
    return request;
  };
  const complete = async (path: string, body: Buffer, localAddress = '127.0.0.1') => {
    const request = await start(path, body, body.length, localAddress);
    const response = await request.response;
    return { status: response.status, body: response.body.toString(), headers: response.headers };
  };
  return { port, start, complete, reportStore, failures, rejected };
}

describe('routing before reading', () => {
  it('answers an unknown path under the prefix, and a path without its slash, without reading the body', async () => {
    const { start } = await serve();
    for (const path of ['/api/audit/nonexistent', '/api/audit/license']) {
      // 15 MB declared, 10 bytes sent: the answer comes at once, and the connection is closed.
      const request = await start(path, Buffer.alloc(15_000_000, 'a'), 10);
      const response = await request.response;
      expect([response.status, response.body.toString(), response.headers['connection']]).toEqual([404, 'Not found', 'close']);
      await request.closed;
    }
  });

  it('answers a wrong method without reading the body', async () => {
    const { port } = await serve();
    const request = await sendRaw(port, Buffer.from('PUT /api/audit/upload/ HTTP/1.1\r\nHost: x\r\nContent-Length: 15000000\r\n\r\nabc'), { tls: false });
    open.push(request);
    const response = await request.response;
    expect([response.status, response.headers['connection']]).toEqual([405, 'close']);
    await request.closed;
  });
});

describe('license check bodies', () => {
  it('have their own small limit: a large one is refused 413 before it is read', async () => {
    const { start, complete, rejected } = await serve({ maxBodyBytes: 16 * 1024 * 1024 });
    const declared = await start('/api/audit/license/', Buffer.alloc(15_000_000, 'a'), 100);
    expect((await declared.response).status).toBe(413);
    expect((await complete('/api/audit/license/', urlencoded({ licensekey: VALID_KEY, pad: 'x'.repeat(20_000) }))).status).toBe(413);
    expect((await complete('/api/audit/license/', urlencoded({ licensekey: VALID_KEY, collector_version: '105' }))).body).toBe('Response 100');
    expect(rejected.map((event) => event.reason)).toEqual(['too-large', 'too-large']);
  });
});

describe('the memory budget', () => {
  it('counts the bytes of bodies as they arrive: one that does not fit gets 503, and uploads go on once bytes are free', async () => {
    const { start, complete, reportStore, rejected } = await serve({ maxBodyBytesInFlight: 100_000 });
    const big = uploadBody(VALID_KEY, `${REPORT}${'padding=x\n'.repeat(6000)}`); // about 71 kB
    const holding = await start('/api/audit/upload/', big, 60_000); // holds 60 kB, still arriving
    await expect.poll(() => rejected.length, { timeout: 200 }).toBe(0);
    // Declares more than is free: refused before a byte is read.
    const refused = await complete('/api/audit/upload/', big, '127.0.0.2');
    expect(refused).toMatchObject({ status: 503, body: 'Server busy, try again later', headers: expect.objectContaining({ 'retry-after': '5' }) });
    // A small upload still fits beside it.
    expect((await complete('/api/audit/upload/', uploadBody(VALID_KEY), '127.0.0.3')).status).toBe(200);
    holding.socket.write(big.subarray(60_000));
    expect((await holding.response).status).toBe(200);
    expect((await complete('/api/audit/upload/', big, '127.0.0.2')).status).toBe(200);
    expect(reportStore.reports.size).toBe(3);
    expect(rejected).toEqual([expect.objectContaining({ reason: 'busy', status: 503 })]);
  });

  it('refuses a body that passes the budget while it arrives, without a declared length', async () => {
    const { port, rejected } = await serve({ maxBodyBytesInFlight: 50_000 });
    const body = uploadBody(VALID_KEY, `${REPORT}${'padding=x\n'.repeat(6000)}`);
    const head = 'POST /api/audit/upload/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n';
    const request = await sendRaw(
      port,
      Buffer.concat([Buffer.from(head), Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]),
      { tls: false },
    );
    open.push(request);
    const response = await request.response;
    expect([response.status, response.headers['connection']]).toEqual([503, 'close']);
    expect(rejected).toEqual([expect.objectContaining({ reason: 'busy' })]);
  });
});

describe('bodies per address', () => {
  it('caps the bodies one address sends at once (429), while other addresses are served', async () => {
    const { start, complete, rejected } = await serve({ maxBodiesPerAddress: 2 });
    const body = uploadBody(VALID_KEY);
    const first = await start('/api/audit/upload/', body, 10, '127.0.0.2');
    await start('/api/audit/upload/', body, 10, '127.0.0.2');
    await expect.poll(async () => (await complete('/api/audit/upload/', body, '127.0.0.2')).status).toBe(429);
    expect((await complete('/api/audit/upload/', body, '127.0.0.3')).status).toBe(200);
    first.socket.write(body.subarray(10));
    expect((await first.response).status).toBe(200);
    expect((await complete('/api/audit/upload/', body, '127.0.0.2')).status).toBe(200);
    expect(rejected).toContainEqual(expect.objectContaining({ reason: 'rate-limited', status: 429 }));
  });
});

describe('the minimum body rate', () => {
  it('cuts off a body that arrives too slowly with 408 and closes its connection, without counting a failed key', async () => {
    const { start, failures, rejected } = await serve({ minBodyBytesPerSecond: 1000, bodyGraceMs: 300 });
    const body = uploadBody('not-a-key');
    const started = Date.now();
    const slow = await start('/api/audit/upload/', body, 5);
    const response = await slow.response;
    expect([response.status, response.body.toString(), response.headers['connection']]).toEqual([408, 'Request body too slow', 'close']);
    await slow.closed;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(failures).toEqual([]);
    expect(rejected).toEqual([expect.objectContaining({ reason: 'too-slow', status: 408 })]);
  });

  it('lets a body that keeps arriving at the rate finish', async () => {
    const { start } = await serve({ minBodyBytesPerSecond: 100, bodyGraceMs: 300 });
    const body = uploadBody(VALID_KEY);
    const request = await start('/api/audit/upload/', body, 10);
    for (let sent = 10; sent < body.length; sent += 40) {
      await new Promise((resolve) => setTimeout(resolve, 100)); // 400 bytes a second
      request.socket.write(body.subarray(sent, sent + 40));
    }
    expect((await request.response).status).toBe(200);
  });
});

describe('a key sent before the report', () => {
  it('is checked at once: an invalid one is refused 401 before the rest of the body, and counts as a failure', async () => {
    const { start, failures, rejected, reportStore } = await serve();
    const body = urlencoded({ licensekey: 'deadbeef-0000-0000-0000-00000000beef', hostid: HOST_ID, data: `${REPORT}${'x=y\n'.repeat(100_000)}` });
    const request = await start('/api/audit/upload/', body, 200);
    const response = await request.response;
    expect([response.status, response.body.toString(), response.headers['connection']]).toEqual([401, 'Invalid license key', 'close']);
    await request.closed;
    expect(failures).toEqual(['127.0.0.1']);
    expect(rejected).toEqual([expect.objectContaining({ reason: 'invalid-key', status: 401 })]);
    expect(reportStore.reports.size).toBe(0);
  });

  it('lets a valid key first go on to the report, as multipart too', async () => {
    const { start, reportStore } = await serve();
    const body = urlencoded({ licensekey: VALID_KEY, hostid: HOST_ID, data: REPORT });
    const request = await start('/api/audit/upload/', body, 60);
    await new Promise((resolve) => setTimeout(resolve, 100));
    request.socket.write(body.subarray(60));
    expect((await request.response).status).toBe(200);
    expect(reportStore.reports.size).toBe(1);
  });

  it('is checked at once in a multipart body too', async () => {
    const { port, failures } = await serve();
    const boundary = 'xyzzy';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const start = part('licensekey', 'deadbeef-0000-0000-0000-00000000beef') + part('hostid', HOST_ID);
    const declared = start.length + 1_000_000;
    const head = formPostHead('/api/audit/upload/', declared, `multipart/form-data; boundary=${boundary}`);
    const request = await sendRaw(
      port,
      Buffer.concat([head, Buffer.from(start), Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\nos=Linux\n`)]),
      { tls: false },
    );
    open.push(request);
    expect((await request.response).status).toBe(401);
    expect(failures).toEqual(['127.0.0.1']);
  });
});

describe('connections kept open', () => {
  /** Sends each request on one kept-open connection, its body `bodyDelayMs` after its headers (0: together). */
  async function onOneConnection(port: number, requests: { path: string; body: Buffer }[], bodyDelayMs: number) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answers = [];
      for (const { path, body } of requests) {
        answers.push(
          await new Promise<{ status?: number; body: string; connection?: string; reused: boolean }>((resolve, reject) => {
            const request = httpRequest(
              {
                port,
                host: '127.0.0.1',
                path,
                method: 'POST',
                agent,
                headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': body.length },
              },
              (response) => {
                let text = '';
                response
                  .on('data', (chunk) => (text += chunk))
                  .on('end', () => resolve({ status: response.statusCode, body: text, connection: response.headers.connection, reused: request.reusedSocket }));
              },
            );
            request.on('error', reject);
            if (bodyDelayMs === 0) return void request.end(body);
            request.flushHeaders();
            setTimeout(() => request.end(body), bodyDelayMs);
          }),
        );
      }
      return answers;
    } finally {
      agent.destroy();
    }
  }

  it.each([
    ['with its headers', 0],
    ['after its headers', 50],
  ])('answers checks and uploads whose body arrives %s, and keeps the connection', async (_, delayMs) => {
    const { port, reportStore } = await serve();
    const report = minimalReport('os=Linux', 'hostname=web1', 'warning[]=A-1|x&y=%z|');
    const answers = await onOneConnection(
      port,
      [
        { path: '/api/audit/license/', body: urlencoded({ licensekey: VALID_KEY, collector_version: '105' }) },
        { path: '/api/audit/license/', body: urlencoded({ licensekey: 'deadbeef-0000-0000-0000-00000000beef' }) },
        { path: '/api/audit/upload/', body: uploadBody(VALID_KEY, report) },
        { path: '/api/audit/license/', body: urlencoded({ licensekey: VALID_KEY }) },
      ],
      delayMs,
    );
    expect(answers.map(({ status, body }) => [status, body])).toEqual([
      [200, 'Response 100'],
      [401, 'Response 500'],
      [200, expect.stringMatching(/^OK [0-9a-f-]{36}$/)],
      [200, 'Response 100'],
    ]);
    expect(answers.map(({ connection, reused }) => [connection, reused])).toEqual([
      ['keep-alive', false],
      ['keep-alive', true],
      ['keep-alive', true],
      ['keep-alive', true],
    ]);
    expect([...reportStore.reports.values()].map((stored) => stored.content.toString('latin1'))).toEqual([report]);
  });
});
