import type { AddressInfo } from 'node:net';
import { request as httpRequest, type Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import { createAuditApi, type AuditLogger } from './audit-api.js';
import { auditMiddleware } from './express.js';
import { InMemoryKeyStore, InMemoryReportStore } from './memory-stores.js';

const report = readLynisFixture('report.dat');
const VALID_KEY = 'deadbeef-0000-0000-0000-000000000001';
const REVOKED_KEY = 'deadbeef-0000-0000-0000-00000000dead';
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const MAX_BODY = 256 * 1024;

const keyStore = new InMemoryKeyStore();
const reportStore = new InMemoryReportStore();
const logLines: string[] = [];
const logger: AuditLogger = {
  info: (fields, message) => logLines.push(JSON.stringify({ ...fields, message })),
  warn: (fields, message) => logLines.push(JSON.stringify({ ...fields, message })),
  error: (fields, message) => logLines.push(JSON.stringify({ ...fields, message })),
};
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const validKeyId = keyStore.add(VALID_KEY);
  keyStore.revoke(keyStore.add(REVOKED_KEY));
  expect(validKeyId).toBeTruthy();
  const api = await createAuditApi({ keyStore, reportStore, maxBodyBytes: MAX_BODY, logger });
  const app = express();
  app.get('/elsewhere', (_req, res) => res.send('host app'));
  app.use('/collector', auditMiddleware(api));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/collector`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  reportStore.reports.clear();
  logLines.length = 0;
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const post = (path: string, body: BodyInit, headers?: Record<string, string>) => fetch(`${baseUrl}${path}`, { method: 'POST', body, headers });

describe.each(['/api/audit', '/api/v1/audit'])('license check at %s/license/', (prefix) => {
  it('answers exactly "Response 100" (12 bytes, text/plain, 200) for a valid key', async () => {
    const response = await post(`${prefix}/license/`, form({ licensekey: VALID_KEY, collector_version: '105' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from('Response 100'));
  });

  it.each([
    ['an unknown key', form({ licensekey: 'deadbeef-0000-0000-0000-000000000002' })],
    ['a revoked key', form({ licensekey: REVOKED_KEY })],
    ['an empty key', form({ licensekey: '' })],
    ['no key', form({ collector_version: '105' })],
    [
      'the key twice',
      new URLSearchParams([
        ['licensekey', VALID_KEY],
        ['licensekey', VALID_KEY],
      ]),
    ],
    ['a JSON body', JSON.stringify({ licensekey: VALID_KEY })],
  ])('answers exactly "Response 500" with 401 for %s', async (_name, body) => {
    const headers = typeof body === 'string' ? { 'content-type': 'application/json' } : undefined;
    const response = await post(`${prefix}/license/`, body, headers);
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('Response 500');
  });
});

describe.each(['/api/audit', '/api/v1/audit'])('upload at %s/upload/', (prefix) => {
  const upload = (fields: Record<string, string>) => post(`${prefix}/upload/`, form(fields));

  it('stores a raw report as Lynis sends it, with the key redacted, and answers its id', async () => {
    const response = await upload({ data: report.toString('utf8'), licensekey: VALID_KEY, hostid: HOST_ID, hostid2: 'f'.repeat(64) });
    expect(response.status).toBe(200);
    const id = (await response.text()).match(/^OK (\S+)$/)?.[1];
    const stored = reportStore.reports.get(id!);
    expect(stored).toMatchObject({ hostId: HOST_ID, hostId2: 'f'.repeat(64), encoding: 'raw', size: report.length });
    expect(stored!.content.toString()).toBe(report.toString().replace(`license_key=${VALID_KEY}`, 'license_key=[redacted]'));
    expect(stored!.summary).toMatchObject({ lynisVersion: '3.0.8', hostname: 'localhost', hardeningIndex: 56, testsPerformed: 235 });
    expect(stored!.summary!.warnings.map((w) => w.testId)).toEqual(['PKGS-7392', 'LOGG-2138']);
    expect(stored!.summary!.suggestions).toHaveLength(45);
  });

  it('redacts the presented key wherever it occurs in the stored report', async () => {
    const planted = `${report.toString('utf8')}config_data=uploaded with ${VALID_KEY}\n`;
    const response = await upload({ data: planted, licensekey: VALID_KEY, hostid: HOST_ID });
    expect(response.status).toBe(200);
    const id = (await response.text()).match(/^OK (\S+)$/)?.[1];
    const stored = reportStore.reports.get(id!)!.content.toString();
    expect(stored).not.toContain(VALID_KEY);
    expect(stored).toContain('config_data=uploaded with [redacted]\n');
  });

  it('decodes a base64 report, and reads the same summary from it as from the raw report', async () => {
    const response = await upload({ data: report.toString('base64'), licensekey: VALID_KEY, hostid: HOST_ID });
    expect(response.status).toBe(200);
    const [stored] = reportStore.reports.values();
    expect(stored).toMatchObject({ encoding: 'base64', size: report.length, hostId2: undefined });
    expect(stored!.content.toString()).not.toContain(VALID_KEY);
    await upload({ data: report.toString('utf8'), licensekey: VALID_KEY, hostid: HOST_ID });
    const [fromBase64, fromRaw] = reportStore.reports.values();
    expect(fromRaw!.encoding).toBe('raw');
    expect(fromBase64!.summary).toEqual(fromRaw!.summary);
    expect(fromBase64!.summary).toMatchObject({ hardeningIndex: 56, os: { fullName: 'Debian GNU/Linux 12 (bookworm)' } });
  });

  it.each([
    ['arbitrary bytes', Buffer.from([0x00, 0xff, 0x10, 0x80, 0xfe, 0x7f, 0xc3, 0x28])],
    ['UTF-8 text that is no Lynis report', Buffer.from('just=some\nkey=values\n')],
  ])('refuses %s sent as base64 as not a report (400), storing nothing', async (_name, bytes) => {
    const response = await upload({ data: bytes.toString('base64'), licensekey: VALID_KEY, hostid: HOST_ID });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('Not a report: no report_version_major= or lynis_version= line');
    expect(reportStore.reports.size).toBe(0);
  });

  it.each([['a finished Lynis report that is not UTF-8', Buffer.from('lynis_version=3.0.8\nhostname=caf\xe9\nfinish=true\n', 'latin1')]])(
    'stores %s sent as base64 with a null summary',
    async (_name, bytes) => {
      const response = await upload({ data: bytes.toString('base64'), licensekey: VALID_KEY, hostid: HOST_ID });
      expect(response.status).toBe(200);
      const [stored] = reportStore.reports.values();
      expect(stored!.content).toEqual(bytes);
      expect(stored!.summary).toBeNull();
    },
  );

  it('accepts multipart with the report as a file part', async () => {
    const body = new FormData();
    body.set('licensekey', VALID_KEY);
    body.set('hostid', HOST_ID);
    body.set('data', new Blob([report]), 'report.dat');
    const response = await post(`${prefix}/upload/`, body);
    expect(response.status).toBe(200);
    expect([...reportStore.reports.values()][0]!.size).toBe(report.length);
  });

  it.each([
    ['an unknown key', { licensekey: 'nope', hostid: HOST_ID, data: 'os=Linux\n' }],
    ['a revoked key', { licensekey: REVOKED_KEY, hostid: HOST_ID, data: 'os=Linux\n' }],
    ['no key', { hostid: HOST_ID, data: 'os=Linux\n' }],
    ['a bad key and no other field', { licensekey: 'nope' }],
  ])('answers 401 for %s and stores nothing', async (_name, fields) => {
    const response = await upload(fields);
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('Invalid license key');
    expect(reportStore.reports.size).toBe(0);
  });

  it.each([
    ['no hostid', { licensekey: VALID_KEY, data: 'os=Linux\n' }, /hostid/],
    ['no data', { licensekey: VALID_KEY, hostid: HOST_ID }, /data/],
    ['empty data', { licensekey: VALID_KEY, hostid: HOST_ID, data: '' }, /data/],
    ['a hostid with spaces', { licensekey: VALID_KEY, hostid: 'my host', data: 'os=Linux\n' }, /hostid/],
    ['a hostid of 256 characters', { licensekey: VALID_KEY, hostid: 'a'.repeat(256), data: 'os=Linux\n' }, /hostid/],
    ['a hostid2 of 256 characters', { licensekey: VALID_KEY, hostid: HOST_ID, hostid2: 'b'.repeat(256), data: 'os=Linux\n' }, /hostid2/],
    [
      'more than 32 fields',
      new URLSearchParams([['licensekey', VALID_KEY], ['hostid', HOST_ID], ['data', 'os=Linux\n'], ...Array.from({ length: 30 }, (_, i) => [`x${i}`, 'y'])]),
      /^Invalid form data: more than 32 form fields$/,
    ],
    [
      'hostid twice',
      new URLSearchParams([
        ['licensekey', VALID_KEY],
        ['hostid', 'a'],
        ['hostid', 'b'],
        ['data', 'os=Linux\n'],
      ]),
      /hostid given more than once/,
    ],
    ['data that is no report', { licensekey: VALID_KEY, hostid: HOST_ID, data: 'hello world' }, /Invalid data: line 1/],
  ])('answers 400 with a reason for %s and stores nothing', async (_name, fields, reason) => {
    const response = await post(`${prefix}/upload/`, fields instanceof URLSearchParams ? fields : form(fields));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(reason);
    expect(reportStore.reports.size).toBe(0);
  });

  it('answers 415 to a JSON body', async () => {
    const response = await post(`${prefix}/upload/`, JSON.stringify({ licensekey: VALID_KEY }), { 'content-type': 'application/json' });
    expect(response.status).toBe(415);
  });

  it('answers 400 to broken multipart', async () => {
    const response = await post(`${prefix}/upload/`, '--x\r\nContent-Disposition: form-data; name="licensekey"\r\n\r\nab', {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/^Invalid form data: /);
  });

  it('answers 400 to multipart cut off inside a file part (which once ended the process)', async () => {
    const body = '--x\r\nContent-Disposition: form-data; name="data"; filename="r.dat"\r\n\r\nos=Linux\n';
    const response = await post(`${prefix}/upload/`, body, { 'content-type': 'multipart/form-data; boundary=x' });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('Invalid form data: Unexpected end of form');
  });
});

describe('body limit', () => {
  it('answers 413 to a declared Content-Length over the limit without reading the body', async () => {
    const { status, body } = await rawPost('/api/audit/upload/', { 'content-length': String(MAX_BODY + 1) }, 'licensekey=x');
    expect(status).toBe(413);
    expect(body).toBe(`Request body too large (limit ${MAX_BODY} bytes)`);
  });
  // A chunked body passing the limit mid-stream is checked for every adapter in adapters.test.ts.
});

describe('routing', () => {
  it('serves the tool segment it is given', async () => {
    const api = await createAuditApi({ keyStore, reportStore, toolSegment: 'lynis' });
    const handle = (path: string) => api.handle({ method: 'GET', path, headers: {}, body: undefined as never });
    expect((await handle('/api/lynis/license/'))?.status).toBe(405);
    expect((await handle('/api/v1/lynis/license/'))?.status).toBe(405);
    expect(await handle('/api/audit/license/')).toBeUndefined();
  });

  it('answers 405 with Allow: POST to other methods, 404 under its prefix, and leaves other paths to the host app', async () => {
    const get = await fetch(`${baseUrl}/api/audit/license/`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await post('/api/audit/other/', form({}))).status).toBe(404);
    expect((await post('/api/audit/license', form({ licensekey: VALID_KEY }))).status).toBe(404);
    expect(await (await fetch(`${baseUrl.replace('/collector', '')}/elsewhere`)).text()).toBe('host app');
  });
});

describe('logging', () => {
  it('logs rejected uploads with reason and host, never the key', async () => {
    await post('/api/audit/upload/', form({ licensekey: REVOKED_KEY, hostid: HOST_ID, data: 'os=Linux\n' }));
    await post('/api/audit/upload/', form({ licensekey: VALID_KEY, hostid: HOST_ID, data: 'not a report' }));
    await post('/api/audit/upload/', form({ licensekey: VALID_KEY, hostid: HOST_ID, data: report.toString() }));
    expect(logLines.map((line) => JSON.parse(line).reason ?? JSON.parse(line).message)).toEqual(['invalid-key', 'invalid-data', 'report stored']);
    expect(JSON.parse(logLines[0]!)).toMatchObject({ hostId: HOST_ID, keyId: expect.any(String) });
    for (const line of logLines) {
      expect(line).not.toContain(VALID_KEY);
      expect(line).not.toContain(REVOKED_KEY);
    }
  });
});

/** A POST whose headers are sent as given (fetch would set Content-Length itself). */
function rawPost(path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        request.destroy(); // the declared body never comes
        resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString() });
      });
    });
    request.on('error', reject);
    request.write(body); // far fewer bytes than declared: only an answer that does not wait for the body ends this
  });
}
