import { describe, expect, it } from 'vitest';
import { InvalidKeyError, RateLimitedError, RequestRejectedError, ServiceUnavailableError } from './errors.js';
import { retryRateLimited, uploadBatch } from './upload-batch.js';

/** Records the waits instead of waiting. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('retryRateLimited', () => {
  it('retries after each 429, waiting the Retry-After seconds, until it succeeds', async () => {
    const { waits, sleep } = recordingSleep();
    let calls = 0;
    const result = await retryRateLimited(
      async () => {
        if (++calls <= 2) throw new RateLimitedError(3);
        return 'stored';
      },
      { retries: 3, maxRetryWaitSeconds: 60, sleep },
    );
    expect(result).toBe('stored');
    expect(calls).toBe(3);
    expect(waits).toEqual([3000, 3000]);
  });

  it('retries a 503 (server busy or its database unavailable) the same way', async () => {
    const { waits, sleep } = recordingSleep();
    let calls = 0;
    const result = await retryRateLimited(
      async () => {
        if (++calls === 1) throw new ServiceUnavailableError(10, 'Service unavailable, try again later');
        return 'stored';
      },
      { retries: 3, maxRetryWaitSeconds: 60, sleep },
    );
    expect([result, calls, waits]).toEqual(['stored', 2, [10_000]]);
  });

  it('waits 1, 2, 4 s when the server sends no Retry-After, and gives up after the retries', async () => {
    const { waits, sleep } = recordingSleep();
    let calls = 0;
    const task = async () => {
      calls++;
      throw new RateLimitedError(undefined);
    };
    await expect(retryRateLimited(task, { retries: 3, maxRetryWaitSeconds: 60, sleep })).rejects.toBeInstanceOf(RateLimitedError);
    expect(calls).toBe(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it('gives up at once when asked to wait longer than the maximum, and never retries other errors', async () => {
    const { waits, sleep } = recordingSleep();
    await expect(
      retryRateLimited(
        async () => {
          throw new RateLimitedError(3600);
        },
        { retries: 3, maxRetryWaitSeconds: 300, sleep },
      ),
    ).rejects.toMatchObject({ retryAfterSeconds: 3600 });
    let calls = 0;
    await expect(
      retryRateLimited(
        async () => {
          calls++;
          throw new RequestRejectedError(400, 'bad');
        },
        { retries: 3, maxRetryWaitSeconds: 300, sleep },
      ),
    ).rejects.toBeInstanceOf(RequestRejectedError);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });
});

describe('uploadBatch', () => {
  it('never has more than `concurrency` uploads in flight, and keeps the outcomes in input order', async () => {
    let inFlight = 0;
    let highest = 0;
    const items = Array.from({ length: 10 }, (_, i) => `report-${i}`);
    const outcomes = await uploadBatch(
      items,
      async (item) => {
        highest = Math.max(highest, ++inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return { id: `id-of-${item}` };
      },
      { concurrency: 3, retries: 0, maxRetryWaitSeconds: 60 },
    );
    expect(highest).toBe(3);
    expect(outcomes.map((o) => o.status === 'stored' && o.id)).toEqual(items.map((item) => `id-of-${item}`));
  });

  it('retries a rate-limited item and reports every other failure with its error', async () => {
    const { waits, sleep } = recordingSleep();
    const attempts = new Map<string, number>();
    const outcomes = await uploadBatch(
      ['a', 'b', 'c'],
      async (item) => {
        attempts.set(item, (attempts.get(item) ?? 0) + 1);
        if (item === 'a' && attempts.get(item)! < 3) throw new RateLimitedError(2);
        if (item === 'b') throw new RequestRejectedError(400, 'Invalid data');
        if (item === 'c') throw new RateLimitedError(1);
        return { id: 'id-a' };
      },
      { concurrency: 1, retries: 2, maxRetryWaitSeconds: 60, sleep },
    );
    expect(outcomes).toMatchObject([
      { item: 'a', status: 'stored', id: 'id-a', attempts: 3 },
      { item: 'b', status: 'failed', error: { reason: 'Invalid data' }, attempts: 1 },
      { item: 'c', status: 'failed', error: { code: 'rate-limited' }, attempts: 3 },
    ]);
    expect(waits).toEqual([2000, 2000, 1000, 1000]);
  });

  it('stops starting uploads once the key is refused', async () => {
    const started: string[] = [];
    const finished: number[] = [];
    const outcomes = await uploadBatch(
      ['a', 'b', 'c', 'd'],
      async (item) => {
        started.push(item);
        if (item === 'b') throw new InvalidKeyError(401);
        return { id: item };
      },
      { concurrency: 1, retries: 0, maxRetryWaitSeconds: 60, onOutcome: (_o, done) => finished.push(done) },
    );
    expect(started).toEqual(['a', 'b']);
    expect(outcomes.map((o) => o.status)).toEqual(['stored', 'failed', 'skipped', 'skipped']);
    expect(finished).toEqual([1, 2, 3, 4]);
  });
});
