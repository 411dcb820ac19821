import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startPrivateRedis, type PrivateRedis } from '@org/test-support/private-redis';
import { redisUrl } from '@org/test-support/redis';
import { parseServerConfig } from '../config.js';
import { openDatabase } from '../database/open.js';
import { createKey } from '../secrets/license-keys.js';
import { createLogger } from '../ops/logger.js';
import { createRateLimiter, type RateLimitSettings } from './rate-limiter-store.js';
import { startServer, type RunningServer } from '../server.js';

const OFF: RateLimitSettings = { perAddressPerMinute: 0, perKeyPerMinute: 0, failuresPer10Minutes: 0, redisPrefix: 'unused' };

describe('rate limits in memory', () => {
  it('refuses an address over its limit, for at most the rest of the minute', async () => {
    const limiter = await createRateLimiter({ ...OFF, perAddressPerMinute: 2 });
    expect(await limiter.consumeRequest('192.0.2.1')).toEqual({ allowed: true });
    expect(await limiter.consumeRequest('192.0.2.1')).toEqual({ allowed: true });
    const refused = await limiter.consumeRequest('192.0.2.1');
    expect(refused).toMatchObject({ allowed: false });
    expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.allowed === false && refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await limiter.consumeRequest('192.0.2.2')).toEqual({ allowed: true }); // another address
  });

  it('refuses every request of an address after too many failed key checks', async () => {
    const limiter = await createRateLimiter({ ...OFF, failuresPer10Minutes: 2 });
    await limiter.recordFailure('192.0.2.1');
    expect(await limiter.consumeRequest('192.0.2.1')).toEqual({ allowed: true });
    await limiter.recordFailure('192.0.2.1');
    expect(await limiter.consumeRequest('192.0.2.1')).toMatchObject({ allowed: false });
    expect(await limiter.consumeRequest('192.0.2.9')).toEqual({ allowed: true });
  });

  it('limits each key on its own, and a limit of 0 is off', async () => {
    const limiter = await createRateLimiter({ ...OFF, perKeyPerMinute: 1 });
    expect(await limiter.consumeKey('key-a')).toEqual({ allowed: true });
    expect(await limiter.consumeKey('key-a')).toMatchObject({ allowed: false });
    expect(await limiter.consumeKey('key-b')).toEqual({ allowed: true });
    for (let i = 0; i < 100; i++) expect(await limiter.consumeRequest('192.0.2.1')).toEqual({ allowed: true });
  });

  it('refuses to start on a Redis it cannot reach, saying what to check', async () => {
    await expect(createRateLimiter({ ...OFF, redisUrl: 'redis://127.0.0.1:1' })).rejects.toThrow(/Cannot connect to Redis .*REDIS_URL/);
  });
});

describe('rate limits in Redis, shared by two servers', () => {
  let dataDir: string;
  let servers: RunningServer[] = [];
  let key: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'audit-redis-test-'));
    const orm = await openDatabase(dataDir);
    key = (await createKey(orm)).key;
    await orm.close();
    const config = parseServerConfig({
      dataDir,
      host: '127.0.0.1',
      port: '0',
      plainHttp: true,
      opsPort: 'off',
      redisUrl: redisUrl(),
      redisPrefix: `audit-test-${randomUUID()}`, // counts of no other test or collector on this Redis
      rateLimitAddress: '10',
      rateLimitKey: '0',
      rateLimitFailures: '3',
    });
    servers = [await startServer(config, createLogger('silent')), await startServer(config, createLogger('silent'))];
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const check = async (server: RunningServer, licensekey: string) => {
    const response = await fetch(`${server.url}/api/audit/license/`, { method: 'POST', body: new URLSearchParams({ licensekey }) });
    return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') };
  };

  it('counts requests from one address across both servers', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await check(a, key)).status);
    for (let i = 0; i < 6; i++) statuses.push((await check(b, key)).status);
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    const refused = await check(a, key);
    expect(refused).toMatchObject({ status: 429, body: 'Too many requests' });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it('counts failed key checks across both servers', async () => {
    // The address limit is used up by now, so this runs on a fresh prefix with only the failure limit.
    const shared = { ...OFF, redisUrl: redisUrl(), redisPrefix: `audit-test-${randomUUID()}`, failuresPer10Minutes: 3 };
    const [a, b] = [await createRateLimiter(shared), await createRateLimiter(shared)];
    try {
      await a.recordFailure('192.0.2.7');
      await b.recordFailure('192.0.2.7');
      expect(await a.consumeRequest('192.0.2.7')).toEqual({ allowed: true });
      await a.recordFailure('192.0.2.7');
      expect(await b.consumeRequest('192.0.2.7')).toMatchObject({ allowed: false });
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('a Redis that goes away and comes back', () => {
  const FAILURE_LIMIT = 3;
  let redis: PrivateRedis | undefined;
  let dataDir: string;
  let server: RunningServer | undefined;
  let key: string;
  const logs: { level: number; msg: string }[] = [];

  beforeAll(async () => {
    redis = await startPrivateRedis();
    dataDir = await mkdtemp(join(tmpdir(), 'audit-redis-outage-'));
    const orm = await openDatabase(dataDir);
    key = (await createKey(orm)).key;
    await orm.close();
    const config = parseServerConfig({
      dataDir,
      host: '127.0.0.1',
      port: '0',
      plainHttp: true,
      opsPort: '0',
      redisUrl: redis.url,
      redisPrefix: 'outage',
      rateLimitAddress: '0',
      rateLimitKey: '0',
      rateLimitFailures: String(FAILURE_LIMIT),
    });
    const logger = pino(
      { level: 'info' },
      new Writable({ write: (chunk, _encoding, done) => void (logs.push(JSON.parse(String(chunk)) as { level: number; msg: string }), done()) }),
    );
    server = await startServer(config, logger);
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const check = async (licensekey: string) =>
    (await fetch(`${server!.url}/api/audit/license/`, { method: 'POST', body: new URLSearchParams({ licensekey }) })).status;
  const readiness = async () => {
    const answer = await fetch(`${server!.opsUrl}/readyz`);
    return [answer.status, await answer.text()];
  };
  const storeUp = async () => /^audit_rate_limit_store_up (\d)$/m.exec(await (await fetch(`${server!.opsUrl}/metrics`)).text())?.[1];
  const logged = (msg: string) => logs.filter((line) => line.msg === msg);
  /** Waits (at most 10 s) until `msg` was logged. */
  async function untilLogged(msg: string): Promise<void> {
    for (const started = Date.now(); logged(msg).length === 0; await new Promise((resolve) => setTimeout(resolve, 50))) {
      if (Date.now() - started > 10_000) throw new Error(`not logged within 10 s: ${msg}`);
    }
  }

  it('says so once each way (log, metric, readiness detail) and keeps a lockout counted while it was away', async () => {
    expect(await check(key)).toBe(200);
    expect(await storeUp()).toBe('1');
    expect(await readiness()).toEqual([200, 'ready']);

    await redis!.stop();
    await untilLogged('rate-limit store unreachable: counting in memory');
    // The memory limiter answers: requests still work, the server stays ready and says why it counts alone.
    for (let i = 0; i < 5; i++) expect(await check(key)).toBe(200);
    expect(await storeUp()).toBe('0');
    expect(await readiness()).toEqual([200, 'ready (rate limits counted in memory: Redis unreachable)']);
    // An address scanning keys during the outage is locked out.
    for (let i = 0; i < FAILURE_LIMIT; i++) expect(await check('0000-not-a-key')).toBe(401);
    expect(await check(key)).toBe(429);

    await redis!.start();
    await untilLogged('rate-limit store reachable again: counting in Redis');
    expect(await storeUp()).toBe('1');
    expect(await readiness()).toEqual([200, 'ready']);
    expect(await check(key)).toBe(429); // the new, empty Redis knows nothing of those failures; this server remembers
    expect(logged('rate-limit store unreachable: counting in memory')).toEqual([expect.objectContaining({ level: 40 })]);
    expect(logged('rate-limit store reachable again: counting in Redis')).toEqual([expect.objectContaining({ level: 30 })]);
  }, 30_000);
});

describe('the client address', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'audit-proxy-test-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  /** Statuses of license checks, each claiming another client in X-Forwarded-For. */
  async function statusesClaimingOtherClients(trustProxy: string | undefined): Promise<number[]> {
    const config = parseServerConfig({ dataDir, host: '127.0.0.1', port: '0', plainHttp: true, opsPort: 'off', rateLimitAddress: '2', trustProxy });
    const server = await startServer(config, createLogger('silent'));
    try {
      const statuses: number[] = [];
      for (const client of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
        const response = await fetch(`${server.url}/api/audit/license/`, {
          method: 'POST',
          body: new URLSearchParams({ licensekey: 'abc' }),
          headers: { 'x-forwarded-for': client },
        });
        statuses.push(response.status);
      }
      return statuses;
    } finally {
      await server.close();
    }
  }

  it('is the connection address: X-Forwarded-For cannot spread one client over many limits', async () => {
    expect(await statusesClaimingOtherClients(undefined)).toEqual([401, 401, 429]);
  });

  it('is the forwarded address once the proxy it came through is trusted', async () => {
    expect(await statusesClaimingOtherClients('loopback')).toEqual([401, 401, 401]);
  });
});
