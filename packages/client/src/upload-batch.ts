import { InvalidKeyError, RateLimitedError, ServiceUnavailableError } from './errors.js';

/** How a batch of uploads is run. */
export interface BatchOptions extends Omit<RetryOptions, 'giveUp'> {
  /** Uploads in flight at once. */
  concurrency: number;
  /** Called after each item is finished, in completion order. */
  onOutcome?(outcome: UploadOutcome, finished: number, total: number): void;
}

/** What happened to one item: stored with an id, failed with an error, or skipped after the key was refused. */
export type UploadOutcome =
  | { item: string; status: 'stored'; id: string; attempts: number }
  | { item: string; status: 'failed'; error: Error; attempts: number }
  | { item: string; status: 'skipped'; attempts: 0 };

const defaultSleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** How to retry a request the server rate-limits or cannot take now. */
export interface RetryOptions {
  /** Further attempts after a 429 or 503 answer. */
  retries: number;
  /** A `Retry-After` longer than this gives up at once instead of waiting (seconds). */
  maxRetryWaitSeconds: number;
  sleep?(milliseconds: number): Promise<void>;
  /** Checked before each wait: true stops retrying. */
  giveUp?(): boolean;
}

/**
 * Runs `task`, and again after each 429 (rate limited) or 503 (the server cannot take it now) for up to `retries`
 * times, waiting `Retry-After` seconds (1, 2, 4 … without one).
 */
export async function retryRateLimited<T>(task: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      const askedToWait = error instanceof RateLimitedError || error instanceof ServiceUnavailableError;
      if (!askedToWait || attempt > options.retries || options.giveUp?.()) throw error;
      const wait = error.retryAfterSeconds ?? 2 ** (attempt - 1);
      if (wait > options.maxRetryWaitSeconds) throw error;
      await sleep(wait * 1000);
    }
  }
}

/**
 * Uploads every item with at most `concurrency` in flight, retrying an item the server rate-limits or cannot take
 * now after the `Retry-After` it sent (1, 2, 4 … s when it sent none). A refused key stops the batch: items not yet started are skipped.
 */
export async function uploadBatch(items: string[], upload: (item: string) => Promise<{ id: string }>, options: BatchOptions): Promise<UploadOutcome[]> {
  const outcomes = new Array<UploadOutcome>(items.length);
  let next = 0;
  let finished = 0;
  let keyRefused = false;

  async function attempt(item: string): Promise<UploadOutcome> {
    let attempts = 0;
    try {
      const task = () => {
        attempts++;
        return upload(item);
      };
      const { id } = await retryRateLimited(task, { ...options, giveUp: () => keyRefused });
      return { item, status: 'stored', id, attempts };
    } catch (error) {
      if (error instanceof InvalidKeyError) keyRefused = true;
      return { item, status: 'failed', error: error instanceof Error ? error : new Error(String(error)), attempts };
    }
  }

  async function worker(): Promise<void> {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      outcomes[index] = keyRefused ? { item, status: 'skipped', attempts: 0 } : await attempt(item);
      options.onOutcome?.(outcomes[index], ++finished, items.length);
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, items.length)) }, worker));
  return outcomes;
}
