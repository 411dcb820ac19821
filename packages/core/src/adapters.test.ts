// One table of requests, sent over real HTTP to the same API served by every adapter: the answers, what is
// stored and the hook events must be the same whichever adapter carries the request.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import { createAuditApi, type AuditApi } from './audit-api.js';
import { auditMiddleware } from './express.js';
import { createAuditFetchHandler } from './fetch.js';
import type { ReportStoredEvent, RequestCompletedEvent, RequestRejectedEvent } from './hooks.js';
import { InMemoryKeyStore, InMemoryReportStore } from './memory-stores.js';
import { createAuditListener } from './node-http.js';

const report = readLynisFixture('report.dat');
const VALID_KEY = 'deadbeef-0000-0000-0000-000000000001';
const REVOKED_KEY = 'deadbeef-0000-0000-0000-00000000dead';
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const MAX_BODY = 256 * 1024;
const BASE = '/collector';
/** What every host answers for a path that is not the API's, to prove the adapter handed the request back. */
const HOST_ANSWER = { status: 418, body: 'host app' };

const keyStore = new InMemoryKeyStore();
const validKeyId = keyStore.add(VALID_KEY);
const revokedKeyId = keyStore.add(REVOKED_KEY);
keyStore.revoke(revokedKeyId);
const reportStore = new InMemoryReportStore();
const events = { stored: [] as ReportStoredEvent[], rejected: [] as RequestRejectedEvent[], completed: [] as RequestCompletedEvent[] };

/** Each adapter, started on its own port with the API under {@link BASE}. */
const adapters: Record<string, (api: AuditApi) => Server> = {
  express: (api) => {
    const app = express();
    app.use(BASE, auditMiddleware(api));
    app.use((_req, res) => void res.status(HOST_ANSWER.status).send(HOST_ANSWER.body));
    return createServer(app);
  },
  'node:http': (api) =>
    createServer(
      createAuditListener(api, {
        basePath: `${BASE}/`,
        onUnhandled: (_req, res) => res.writeHead(HOST_ANSWER.status).end(HOST_ANSWER.body),
      }),
    ),
  fetch: (api) => {
    const handler = createAuditFetchHandler(api, { basePath: BASE });
    // A minimal fetch host on node:http, as Hono's node-server or Bun.serve would be.
    return createServer(
      (req: IncomingMessage, res: ServerResponse) =>
        void (async () => {
          const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
          const request = new Request(`http://${req.headers.host}${req.url}`, {
            method: req.method,
            headers: req.headers as Record<string, string>,
            body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
            duplex: 'half',
          } as RequestInit);
          const response =
            (await handler(request, { remoteAddress: req.socket.remoteAddress })) ?? new Response(HOST_ANSWER.body, { status: HOST_ANSWER.status });
          res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
        })(),
    );
  },
};

interface Row {
  name: string;
  method?: string;
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Send this Content-Length but only the given body, as a client whose body is still coming. */
  declaredLength?: number;
  status: number;
  answer: string | RegExp;
  stored?: number;
  rejected?: Partial<RequestRejectedEvent>;
}

const urlencoded = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const boundary = 'parity-boundary';
const multipart = Buffer.concat([
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="licensekey"\r\n\r\n${VALID_KEY}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="hostid"\r\n\r\n${HOST_ID}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="report.dat"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  ),
  report,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);

const table: Row[] = [
  {
    name: 'license check, valid key',
    path: '/api/audit/license/',
    body: urlencoded({ licensekey: VALID_KEY, collector_version: '105' }),
    status: 200,
    answer: 'Response 100',
  },
  { name: 'license check, legacy path', path: '/api/v1/audit/license/', body: urlencoded({ licensekey: VALID_KEY }), status: 200, answer: 'Response 100' },
  {
    name: 'license check, unknown key',
    path: '/api/audit/license/',
    body: urlencoded({ licensekey: 'deadbeef' }),
    status: 401,
    answer: 'Response 500',
    rejected: { operation: 'checkLicense', reason: 'invalid-key', keyId: 'unknown' },
  },
  {
    name: 'license check, revoked key',
    path: '/api/audit/license/',
    body: urlencoded({ licensekey: REVOKED_KEY }),
    status: 401,
    answer: 'Response 500',
    rejected: { reason: 'invalid-key', keyId: revokedKeyId },
  },
  {
    name: 'license check, JSON',
    path: '/api/audit/license/',
    body: JSON.stringify({ licensekey: VALID_KEY }),
    headers: { 'content-type': 'application/json' },
    status: 401,
    answer: 'Response 500',
    rejected: { reason: 'unsupported-type' },
  },
  {
    name: 'upload, raw report',
    path: '/api/audit/upload/',
    body: urlencoded({ data: report.toString(), licensekey: VALID_KEY, hostid: HOST_ID, hostid2: 'f'.repeat(64) }),
    status: 200,
    answer: /^OK [0-9a-f-]{36}$/,
    stored: 1,
  },
  {
    name: 'upload, base64 report, legacy path',
    path: '/api/v1/audit/upload/',
    body: urlencoded({ data: report.toString('base64'), licensekey: VALID_KEY, hostid: HOST_ID }),
    status: 200,
    answer: /^OK /,
    stored: 1,
  },
  {
    name: 'upload, multipart',
    path: '/api/audit/upload/',
    body: multipart,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    status: 200,
    answer: /^OK /,
    stored: 1,
  },
  {
    name: 'upload, unknown key',
    path: '/api/audit/upload/',
    body: urlencoded({ data: 'os=Linux\n', licensekey: 'nope', hostid: HOST_ID }),
    status: 401,
    answer: 'Invalid license key',
    rejected: { operation: 'uploadReport', reason: 'invalid-key', keyId: 'unknown', hostId: HOST_ID, status: 401 },
  },
  {
    name: 'upload, revoked key',
    path: '/api/audit/upload/',
    body: urlencoded({ data: 'os=Linux\n', licensekey: REVOKED_KEY, hostid: HOST_ID }),
    status: 401,
    answer: 'Invalid license key',
    rejected: { reason: 'invalid-key', keyId: revokedKeyId },
  },
  {
    name: 'upload, no hostid',
    path: '/api/audit/upload/',
    body: urlencoded({ data: 'os=Linux\n', licensekey: VALID_KEY }),
    status: 400,
    answer: /^Invalid request: .*hostid/,
    rejected: { reason: 'invalid-request', keyId: validKeyId },
  },
  {
    name: 'upload, data that is no report',
    path: '/api/audit/upload/',
    body: urlencoded({ data: 'hello world', licensekey: VALID_KEY, hostid: HOST_ID }),
    status: 400,
    answer: /^Invalid data: line 1/,
    rejected: { reason: 'invalid-data', keyId: validKeyId, hostId: HOST_ID },
  },
  {
    name: 'upload, JSON',
    path: '/api/audit/upload/',
    body: JSON.stringify({ licensekey: VALID_KEY }),
    headers: { 'content-type': 'application/json' },
    status: 415,
    answer: /^Send the fields as/,
    rejected: { reason: 'unsupported-type', status: 415 },
  },
  {
    name: 'upload, broken multipart',
    path: '/api/audit/upload/',
    body: '--x\r\nContent-Disposition: form-data; name="licensekey"\r\n\r\nab',
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    status: 400,
    answer: /^Invalid form data: /,
    rejected: { reason: 'malformed' },
  },
  {
    name: 'upload, declared body over the limit',
    path: '/api/audit/upload/',
    body: 'licensekey=x',
    declaredLength: MAX_BODY + 1,
    status: 413,
    answer: `Request body too large (limit ${MAX_BODY} bytes)`,
    rejected: { reason: 'too-large', status: 413 },
  },
  {
    name: 'GET of the license path',
    method: 'GET',
    path: '/api/audit/license/',
    status: 405,
    answer: 'Method not allowed: use POST',
    rejected: { reason: 'method-not-allowed' },
  },
  { name: 'unknown path under the prefix', path: '/api/audit/other/', body: '', status: 404, answer: 'Not found' },
  { name: 'path without the trailing slash', path: '/api/audit/license', body: urlencoded({ licensekey: VALID_KEY }), status: 404, answer: 'Not found' },
];

describe.each(Object.keys(adapters))('%s adapter', (adapterName) => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const api = await createAuditApi({
      keyStore,
      reportStore,
      maxBodyBytes: MAX_BODY,
      hooks: {
        onReportStored: (event) => void events.stored.push(event),
        onRequestRejected: (event) => void events.rejected.push(event),
        onRequestCompleted: (event) => void events.completed.push(event),
      },
    });
    server = adapters[adapterName]!(api);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    reportStore.reports.clear();
    events.stored.length = 0;
    events.rejected.length = 0;
    events.completed.length = 0;
  });

  it.each(table)('$name → $status', async (row) => {
    const response = await send(port, { ...row, path: `${BASE}${row.path}` });
    expect(response.status).toBe(row.status);
    if (typeof row.answer === 'string') expect(response.body).toBe(row.answer);
    else expect(response.body).toMatch(row.answer);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.body)));
    expect(reportStore.reports.size).toBe(row.stored ?? 0);
    expect(events.stored).toHaveLength(row.stored ?? 0);
    expect(events.rejected).toEqual(row.rejected ? [expect.objectContaining({ status: row.status, ...row.rejected })] : []);
    for (const event of events.rejected) expect(JSON.stringify(event)).not.toContain(REVOKED_KEY);
    expect(events.completed).toEqual([expect.objectContaining({ status: row.status })]);
  });

  it('reports a stored upload to the hook with its id, key id, host ids, size, hash, hardening index and the client address', async () => {
    const upload = table[5]!;
    const response = await send(port, { ...upload, path: `${BASE}${upload.path}` });
    const event = events.stored[0]!;
    expect(response.body).toBe(`OK ${event.reportId}`);
    expect(event).toEqual({
      reportId: expect.any(String),
      keyId: validKeyId,
      hostId: HOST_ID,
      hostId2: 'f'.repeat(64),
      size: report.length,
      sha256: reportStore.reports.get(event.reportId)!.sha256,
      encoding: 'raw',
      hardeningIndex: 56,
      remoteAddress: expect.stringMatching(/127\.0\.0\.1$/),
    });
    expect(events.completed[0]).toMatchObject({ operation: 'uploadReport', status: 200, bytesReceived: Buffer.byteLength(upload.body!) });
  });

  it('answers 413 while a chunked body over the limit is still arriving, having read only about the limit', async () => {
    const total = 64 * MAX_BODY;
    const chunk = Buffer.alloc(16 * 1024, 'a');
    let sent = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `${BASE}/api/audit/upload/`,
        headers: { ...FORM, 'transfer-encoding': 'chunked' },
      });
      let answered = false;
      request.on('response', (response) => {
        answered = true;
        response.resume();
        request.destroy();
        resolve(response.statusCode!);
      });
      request.on('error', (error) => answered || reject(error));
      request.write(`licensekey=${VALID_KEY}&hostid=h&data=`);
      const pump = (): void => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        if (!answered) request.end();
      };
      pump();
    });
    expect(status).toBe(413);
    expect(sent).toBeLessThan(total / 4);
    expect(events.completed).toEqual([expect.objectContaining({ status: 413, bytesReceived: expect.any(Number) })]);
    expect(events.completed[0]!.bytesReceived).toBeGreaterThan(MAX_BODY);
    expect(events.completed[0]!.bytesReceived).toBeLessThan(2 * MAX_BODY);
    expect(reportStore.reports.size).toBe(0);
  });

  it('hands requests outside its base path back to the host', async () => {
    for (const path of ['/elsewhere', '/api/audit/license/', `${BASE}x/api/audit/license/`]) {
      const response = await send(port, { path, body: urlencoded({ licensekey: VALID_KEY }) });
      expect({ path, status: response.status, body: response.body }).toEqual({ path, ...HOST_ANSWER });
    }
    expect(events.completed).toEqual([]);
  });
});

/** One request with exactly the headers given (fetch would set Content-Length itself). */
function send(port: number, row: Pick<Row, 'method' | 'path' | 'body' | 'headers' | 'declaredLength'>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const body = row.body === undefined ? undefined : Buffer.from(row.body);
    const method = row.method ?? 'POST';
    const headers = { ...(method === 'POST' ? FORM : {}), ...row.headers };
    if (body) Object.assign(headers, { 'content-length': String(row.declaredLength ?? body.length) });
    const request = httpRequest({ host: '127.0.0.1', port, path: row.path, method, headers });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (row.declaredLength) request.destroy(); // the rest of the declared body never comes
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() });
      });
    });
    request.on('error', reject);
    if (row.declaredLength) request.write(body!);
    else request.end(body);
  });
}
