import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ALLOWED, type AuditLogger, type AuditRateLimiter, type RateLimitDecision } from '@org/audit-server-core';
import type { ServerConfig } from '../config.js';

/** The limits, each a number of requests per window; 0 turns a limit off. */
export interface RateLimitSettings {
  /** Requests per minute from one client address. */
  perAddressPerMinute: number;
  /** Requests per minute with one license key. */
  perKeyPerMinute: number;
  /** Failed key checks per 10 minutes from one client address; after that, its requests are refused until the window ends. */
  failuresPer10Minutes: number;
  /** Redis server shared by every instance; counts stay in this process when absent. */
  redisUrl?: string;
  /** Prefix of the Redis keys, so that several collectors can share one Redis. */
  redisPrefix: string;
  /** Where Redis going away and coming back is logged. Default: nowhere. */
  logger?: AuditLogger;
}

/** The rate limits' settings from the server's. */
export function rateLimitSettingsOf(
  config: Pick<ServerConfig, 'rateLimitAddress' | 'rateLimitKey' | 'rateLimitFailures' | 'redisUrl' | 'redisPrefix'>,
  logger: AuditLogger,
): RateLimitSettings {
  return {
    perAddressPerMinute: config.rateLimitAddress,
    perKeyPerMinute: config.rateLimitKey,
    failuresPer10Minutes: config.rateLimitFailures,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    logger,
  };
}

/** Counts failures of one kind (per address, per account, …) and locks a key out once it has too many in a window. */
export interface FailureLockout {
  /** Allowed, or refused with the seconds until the window of this key's failures ends. */
  check(key: string): Promise<RateLimitDecision>;
  /** Counts one failure; answers whether the key may still try (refused: this failure locked it out). */
  record(key: string): Promise<RateLimitDecision>;
  /** Forgets the key's failures (after a success). */
  clear(key: string): Promise<void>;
}

/** An {@link AuditRateLimiter} that must be closed (it may hold a Redis connection). */
export interface ClosableRateLimiter extends AuditRateLimiter {
  /**
   * A lockout after `failures` failures per `windowSeconds`, counted where this limiter counts (in Redis when
   * configured, shared by every instance) under `name`; `failures` 0: never locked out.
   */
  lockout(name: string, failures: number, windowSeconds: number): FailureLockout;
  close(): Promise<void>;
  /** Whether Redis is reachable right now; absent when counts are kept in memory only. */
  sharedStoreReachable?: () => boolean;
}

/**
 * Builds the limits on rate-limiter-flexible: in memory, or in Redis when a URL is given. With Redis, a
 * per-process memory limiter takes over while Redis is unreachable, so an outage never turns into 500s; and
 * failures (of key checks, of sign-ins) are always counted in memory too, so that a lockout earned while Redis was
 * away (or counted by a Redis that restarted empty) still holds when it is back.
 */
export async function createRateLimiter(settings: RateLimitSettings): Promise<ClosableRateLimiter> {
  const redis = settings.redisUrl ? await connectRedis(settings.redisUrl) : undefined;
  const status = redis && watchRedis(redis, settings.logger);
  const limiter = (name: string, points: number, duration: number): RateLimiterAbstract | undefined => {
    if (points <= 0) return undefined;
    const memory = new RateLimiterMemory({ points, duration, keyPrefix: name });
    if (!redis) return memory;
    return new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix: `${settings.redisPrefix}:${name}`, insuranceLimiter: memory });
  };
  const lockout = (name: string, failures: number, windowSeconds: number): FailureLockout => {
    const shared = limiter(name, failures, windowSeconds);
    const here = redis && shared ? new RateLimiterMemory({ points: failures, duration: windowSeconds, keyPrefix: `${name}-here` }) : undefined;
    return lockoutOver([here, shared].filter((counter) => counter !== undefined));
  };
  const perAddress = limiter('address', settings.perAddressPerMinute, 60);
  const perKey = limiter('key', settings.perKeyPerMinute, 60);
  const failedKeyChecks = lockout('failures', settings.failuresPer10Minutes, 600);

  return {
    async consumeRequest(clientAddress) {
      const locked = await failedKeyChecks.check(clientAddress);
      return locked.allowed ? consume(perAddress, clientAddress) : locked;
    },
    consumeKey: (keyId) => consume(perKey, keyId),
    async recordFailure(clientAddress) {
      await failedKeyChecks.record(clientAddress);
    },
    lockout,
    async close() {
      status?.stopWatching();
      await redis?.quit();
    },
    ...(status && { sharedStoreReachable: () => status.reachable }),
  };
}

/**
 * Follows the Redis connection: logs once when it is lost (the memory limiter counts meanwhile) and once when it is
 * back, never once per request.
 */
function watchRedis(redis: Redis, logger: AuditLogger | undefined): { readonly reachable: boolean; stopWatching(): void } {
  let reachable = true;
  let watching = true;
  redis.on('close', () => {
    if (!watching || !reachable) return;
    reachable = false;
    logger?.warn({ component: 'rate limits' }, 'rate-limit store unreachable: counting in memory');
  });
  redis.on('ready', () => {
    if (!watching || reachable) return;
    reachable = true;
    logger?.info({ component: 'rate limits' }, 'rate-limit store reachable again: counting in Redis');
  });
  return {
    get reachable() {
      return reachable;
    },
    stopWatching: () => void (watching = false), // a deliberate quit is no outage
  };
}

/** A lockout over its counters (in memory, and in Redis when configured): locked when any of them is used up. */
function lockoutOver(counters: RateLimiterAbstract[]): FailureLockout {
  const check = async (key: string): Promise<RateLimitDecision> => {
    for (const counter of counters) {
      const counted = await counter.get(key);
      if (counted && counted.consumedPoints >= counter.points) return refusal(counted);
    }
    return ALLOWED;
  };
  return {
    check,
    async record(key) {
      for (const counter of counters) await consume(counter, key);
      return check(key);
    },
    async clear(key) {
      for (const counter of counters) await counter.delete(key);
    },
  };
}

async function consume(limiter: RateLimiterAbstract | undefined, key: string): Promise<RateLimitDecision> {
  if (!limiter) return ALLOWED;
  try {
    await limiter.consume(key);
    return ALLOWED;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return refusal(rejection);
    throw rejection;
  }
}

function refusal(counted: RateLimiterRes): RateLimitDecision {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(counted.msBeforeNext / 1000)) };
}

/** Connects at start, so that a wrong URL fails the start with a clear message instead of every request later. */
async function connectRedis(url: string): Promise<Redis> {
  // Loaded only with a Redis URL: most servers count in memory, and the client adds to every start.
  const { Redis } = await import('ioredis');
  // No offline queue: while Redis is away, calls fail at once and the memory limiter answers instead.
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => {}); // reconnects by itself; the insurance limiter covers the gap
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`Cannot connect to Redis for rate limits (${(error as Error).message}); check REDIS_URL`, { cause: error });
  }
  return redis;
}
