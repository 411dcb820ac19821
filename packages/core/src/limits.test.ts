import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createAuditApi, type AuditApiOptions, type AuditLogger } from './audit-api.js';
import { auditMiddleware } from './express.js';
import { InMemoryKeyStore, InMemoryReportStore } from './memory-stores.js';
import type { AuditRateLimiter, RateLimitDecision } from './rate-limit.js';
import { minimalReport } from '@org/test-support/lynis-report';

const VALID_KEY = 'deadbeef-0000-0000-0000-000000000001';
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const REPORT = minimalReport('os=Linux', 'hostname=web1');

/** Counts like a real limiter, with limits per kind, and remembers what it was asked about. */
class CountingLimiter implements AuditRateLimiter {
  readonly seen: string[] = [];
  readonly counts = new Map<string, number>();
  constructor(private readonly limits: { address?: number; key?: number; failures?: number }) {}

  #count(kind: string, id: string, limit: number | undefined, peek = false): RateLimitDecision {
    const name = `${kind}:${id}`;
    const count = (this.counts.get(name) ?? 0) + (peek ? 0 : 1);
    this.counts.set(name, count);
    return limit !== undefined && count > limit ? { allowed: false, retryAfterSeconds: 42 } : { allowed: true };
  }

  async consumeRequest(address: string) {
    this.seen.push(address);
    const failures = this.counts.get(`failure:${address}`) ?? 0;
    if (this.limits.failures !== undefined && failures >= this.limits.failures) return { allowed: false as const, retryAfterSeconds: 600 };
    return this.#count('address', address, this.limits.address);
  }
  async consumeKey(keyId: string) {
    return this.#count('key', keyId, this.limits.key);
  }
  async recordFailure(address: string) {
    this.#count('failure', address, undefined);
  }
}

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(options: Partial<AuditApiOptions>) {
  const keyStore = new InMemoryKeyStore();
  const keyId = keyStore.add(VALID_KEY);
  const reportStore = new InMemoryReportStore();
  const logs: Record<string, unknown>[] = [];
  const logger: AuditLogger = {
    info: () => {},
    warn: (fields, msg) => logs.push({ ...fields, msg }),
    error: (fields, msg) => logs.push({ ...fields, msg }),
  };
  const api = await createAuditApi({ keyStore, reportStore, logger, ...options });
  const app = express();
  app.use(auditMiddleware(api));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (path: string, fields: Record<string, string>) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', body: new URLSearchParams(fields) });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
  };
  return { url, post, keyId, reportStore, logs };
}

const upload = (licensekey: string) => ({ licensekey, hostid: HOST_ID, data: REPORT });

describe('rate limits', () => {
  it('answers 429 with Retry-After once an address is over its limit, before reading the body', async () => {
    const limiter = new CountingLimiter({ address: 2 });
    const { url, post, reportStore, logs } = await serve({ rateLimiter: limiter, maxBodyBytes: 1024 });
    expect((await post('/api/audit/license/', { licensekey: VALID_KEY })).status).toBe(200);
    expect((await post('/api/audit/upload/', upload(VALID_KEY))).status).toBe(200);
    // Over the body limit too: a 429 rather than a 413 shows that the body was never read.
    const response = await fetch(`${url}/api/audit/upload/`, { method: 'POST', body: new URLSearchParams({ ...upload(VALID_KEY), pad: 'x'.repeat(4096) }) });
    expect({ status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() }).toEqual({
      status: 429,
      retryAfter: '42',
      body: 'Too many requests',
    });
    expect(await post('/api/audit/license/', { licensekey: VALID_KEY })).toEqual({ status: 429, retryAfter: '42', body: 'Too many requests' });
    expect(reportStore.reports.size).toBe(1);
    expect(limiter.seen.every((address) => /127\.0\.0\.1$/.test(address))).toBe(true);
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'upload rejected', reason: 'rate-limited', status: 429, keyId: 'unknown' }));
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'license check rejected', reason: 'rate-limited', status: 429, keyId: 'unknown' }));
  });

  it('counts failed key checks against the address, and refuses it once they pass the limit', async () => {
    const limiter = new CountingLimiter({ failures: 3 });
    const { post } = await serve({ rateLimiter: limiter });
    expect((await post('/api/audit/license/', { licensekey: VALID_KEY })).status).toBe(200);
    expect(await post('/api/audit/license/', { licensekey: 'deadbeef' })).toMatchObject({ status: 401, body: 'Response 500' });
    expect(await post('/api/audit/license/', { collector_version: '105' })).toMatchObject({ status: 401, body: 'Response 500' });
    expect(await post('/api/audit/upload/', upload('badc0ffee'))).toMatchObject({ status: 401, body: 'Invalid license key' });
    expect([...limiter.counts].filter(([name]) => name.startsWith('failure:')).map(([, n]) => n)).toEqual([3]);
    // Now even the valid key is refused from this address: brute force cannot go on.
    expect(await post('/api/audit/license/', { licensekey: VALID_KEY })).toEqual({ status: 429, retryAfter: '600', body: 'Too many requests' });
  });

  it('limits each key: the license check and the upload answer 429 and nothing is stored', async () => {
    const limiter = new CountingLimiter({ key: 1 });
    const { post, keyId, reportStore, logs } = await serve({ rateLimiter: limiter });
    expect((await post('/api/audit/license/', { licensekey: VALID_KEY })).status).toBe(200);
    expect(await post('/api/audit/license/', { licensekey: VALID_KEY })).toMatchObject({ status: 429, body: 'Too many requests' });
    expect(await post('/api/audit/upload/', upload(VALID_KEY))).toMatchObject({ status: 429, retryAfter: '42' });
    expect(reportStore.reports.size).toBe(0);
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'upload rejected', reason: 'rate-limited', keyId, hostId: HOST_ID }));
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'license check rejected', reason: 'rate-limited', keyId }));
    expect(JSON.stringify(logs)).not.toContain(VALID_KEY);
  });
});

describe('a failing store or limiter', () => {
  const failing = () => Promise.reject(new Error('SQLITE_FULL: database or disk is full'));
  const unavailable = { status: 503, retryAfter: '10', body: 'Service unavailable, try again later' };

  it('answers 503 with Retry-After when the key store fails, and never counts that as a failed key check', async () => {
    const limiter = new CountingLimiter({ failures: 1 });
    const { post, logs } = await serve({ rateLimiter: limiter, keyStore: { lookup: failing } });
    expect(await post('/api/audit/license/', { licensekey: VALID_KEY })).toEqual(unavailable);
    expect(await post('/api/audit/upload/', upload(VALID_KEY))).toEqual(unavailable);
    expect(await post('/api/v1/audit/upload/', { ...upload(VALID_KEY), hostid: '' })).toEqual(unavailable); // invalid, but the key could not be checked
    expect([...limiter.counts.keys()].filter((name) => name.startsWith('failure:'))).toEqual([]);
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'dependency unavailable', dependency: 'key store' }));
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'upload rejected', reason: 'unavailable', status: 503 }));
  });

  it('answers 503 with Retry-After, never 200 or 500, when the report store fails', async () => {
    const { post, logs } = await serve({ reportStore: { save: failing } });
    expect(await post('/api/audit/upload/', upload(VALID_KEY))).toEqual(unavailable);
    expect((await post('/api/audit/license/', { licensekey: VALID_KEY })).status).toBe(200);
    expect(logs).toContainEqual(
      expect.objectContaining({
        msg: 'dependency unavailable',
        dependency: 'report store',
        error: expect.objectContaining({ message: 'SQLITE_FULL: database or disk is full' }),
      }),
    );
    expect(JSON.stringify(logs)).not.toContain('stack');
  });

  it('answers 503 when the rate limiter fails', async () => {
    const limiter = new CountingLimiter({});
    limiter.consumeRequest = failing;
    const { post } = await serve({ rateLimiter: limiter });
    expect(await post('/api/audit/upload/', upload(VALID_KEY))).toEqual(unavailable);
  });
});
