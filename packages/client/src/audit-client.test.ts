// The thin layer against a tiny local server that answers whatever a test tells it to, and records what it got.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStubServer, unusedPort, type StubReply, type StubServer } from '@org/test-support/stub-server';
import { minimalReport } from '@org/test-support/lynis-report';
import { createAuditClient, type AuditClientOptions } from './audit-client.js';
import { InvalidKeyError, NetworkError, RateLimitedError, RequestRejectedError, ServerError, ServiceUnavailableError, TooLargeError } from './errors.js';

const KEY = 'deadbeef-0000-0000-0000-000000000001';
let stub: StubServer;
let reply: StubReply;

/** What the stub got, its body read as a form. */
const received = () => stub.requests.map((request) => ({ url: request.url, headers: request.headers, form: new URLSearchParams(request.body.toString()) }));

beforeAll(async () => {
  stub = await startStubServer(() => (reply === 'hang' ? reply : { ...reply, headers: { 'content-type': 'text/plain; charset=utf-8', ...reply.headers } }));
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
  reply = { status: 200, body: 'Response 100' };
});

const client = (options: Partial<AuditClientOptions> = {}) => createAuditClient({ baseUrl: stub.url, ...options });
const upload = { licenseKey: KEY, hostId: 'host-1', report: minimalReport() };

describe('checkLicense', () => {
  it('sends the key url-encoded like Lynis, to the current path, and maps Response 100 to valid', async () => {
    await expect(client().checkLicense(KEY, { collectorVersion: '105' })).resolves.toEqual({ valid: true });
    expect(received()).toHaveLength(1);
    expect(received()[0]!.url).toBe('/api/audit/license/');
    expect(received()[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(received()[0]!.form)).toEqual({ licensekey: KEY, collector_version: '105' });
  });

  it('maps 401 with Response 500 to invalid', async () => {
    reply = { status: 401, body: 'Response 500' };
    await expect(client().checkLicense(KEY)).resolves.toEqual({ valid: false });
    expect(Object.fromEntries(received()[0]!.form)).toEqual({ licensekey: KEY });
  });

  it.each([
    { status: 200, body: 'Response 100\n' },
    { status: 200, body: 'Response 500' },
    { status: 401, body: 'Response 100' },
    { status: 500, body: 'Internal error' },
    { status: 404, body: 'Not found' },
  ])('treats any other answer as an error, not as invalid: $status $body', async (answer) => {
    reply = answer;
    await expect(client().checkLicense(KEY)).rejects.toBeInstanceOf(ServerError);
  });

  it('uses the legacy path and a renamed tool segment, keeping Content-Length', async () => {
    await client({ legacyPaths: true }).checkLicense(KEY);
    await client({ toolSegment: 'lynis' }).checkLicense(KEY);
    await client({ toolSegment: 'lynis', legacyPaths: true, baseUrl: `${stub.url}/collector/` }).checkLicense(KEY);
    expect(received().map((r) => r.url)).toEqual(['/api/v1/audit/license/', '/api/lynis/license/', '/collector/api/v1/lynis/license/']);
    expect(received()[2]!.headers['content-length']).toBe(String(`licensekey=${KEY}`.length));
    expect(received()[2]!.headers['transfer-encoding']).toBeUndefined();
  });

  it('refuses a tool segment the server could not have', () => {
    expect(() => client({ toolSegment: 'a/b' })).toThrow(TypeError);
  });
});

describe('uploadReport', () => {
  it('sends the raw report text by default, like Lynis, and resolves with the stored id', async () => {
    reply = { status: 200, body: 'OK 0f8fad5b-d9cb-469f-a165-70867728950e' };
    await expect(client().uploadReport({ ...upload, hostId2: 'host-2' })).resolves.toEqual({ id: '0f8fad5b-d9cb-469f-a165-70867728950e' });
    expect(received()[0]!.url).toBe('/api/audit/upload/');
    expect(Object.fromEntries(received()[0]!.form)).toEqual({ licensekey: KEY, hostid: 'host-1', hostid2: 'host-2', data: upload.report });
  });

  it('sends a Buffer base64-encoded when asked, byte for byte, and leaves out an absent hostid2', async () => {
    reply = { status: 200, body: 'OK id-1' };
    const bytes = Buffer.from([0xff, 0x00, 0x41, 0x0a]);
    await client({ legacyPaths: true }).uploadReport({ ...upload, report: bytes, encoding: 'base64' });
    expect(received()[0]!.url).toBe('/api/v1/audit/upload/');
    expect(received()[0]!.form.get('data')).toBe(bytes.toString('base64'));
    expect(received()[0]!.form.has('hostid2')).toBe(false);
  });

  it('refuses to send bytes that are not UTF-8 as raw text, before sending anything', async () => {
    await expect(client().uploadReport({ ...upload, report: Buffer.from([0xff, 0xfe]) })).rejects.toThrow(/encoding 'base64'/);
    expect(received()).toHaveLength(0);
  });

  it.each([
    [{ status: 401, body: 'Invalid license key' }, InvalidKeyError, { code: 'invalid-key', status: 401 }],
    [
      { status: 400, body: "Invalid request: must have required property 'hostid'\nmore" },
      RequestRejectedError,
      { code: 'rejected', reason: "Invalid request: must have required property 'hostid'" },
    ],
    [{ status: 415, body: 'Send the fields as form data' }, RequestRejectedError, { code: 'rejected', status: 415 }],
    [{ status: 413, body: 'Request body too large (limit 10 bytes)' }, TooLargeError, { code: 'too-large', reason: 'Request body too large (limit 10 bytes)' }],
    [{ status: 429, body: 'Too many requests', headers: { 'retry-after': '7' } }, RateLimitedError, { code: 'rate-limited', retryAfterSeconds: 7 }],
    [{ status: 429, body: 'Too many requests' }, RateLimitedError, { retryAfterSeconds: undefined }],
    [
      { status: 503, body: 'Server busy, try again later', headers: { 'retry-after': '5' } },
      ServiceUnavailableError,
      { code: 'unavailable', status: 503, retryAfterSeconds: 5 },
    ],
    [{ status: 500, body: 'Internal server error' }, ServerError, { code: 'server', status: 500 }],
    [{ status: 200, body: 'Stored' }, ServerError, { code: 'server', status: 200 }],
  ] as const)('maps %j to a typed error', async (answer, type, fields) => {
    reply = answer;
    const error = await client()
      .uploadReport(upload)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject(fields);
  });

  it('never puts the key into an error message, even when the server echoes it', async () => {
    reply = { status: 400, body: `Invalid request: licensekey ${KEY} looks odd` };
    const error = (await client()
      .uploadReport(upload)
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('licensekey [redacted] looks odd');
    expect(error.message).not.toContain(KEY);
  });
});

describe('no answer', () => {
  it('is a NetworkError when nothing listens', async () => {
    const port = await unusedPort();
    const error = await createAuditClient({ baseUrl: `http://127.0.0.1:${port}` })
      .checkLicense(KEY)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(`No answer from http://127.0.0.1:${port}/api/audit/license/: connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('is a NetworkError when the server does not answer within the timeout', async () => {
    reply = 'hang';
    await expect(client({ timeoutMs: 200 }).checkLicense(KEY)).rejects.toBeInstanceOf(NetworkError);
  });
});
