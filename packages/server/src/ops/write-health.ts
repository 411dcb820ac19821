import { randomBytes } from 'node:crypto';
import type { Database } from '../database/dialect.js';
import { databaseTime } from '../database/dialects.js';

/**
 * Bytes the probe writes: about a small Lynis report, so that, as an upload does, it needs space the database may
 * not have (a full disk, or SQLite's `max_page_count`), not just a rewrite of pages it already holds.
 */
const PROBE_BYTES = 64 * 1024;

/**
 * Whether the database takes writes. The report store records how each commit ended; while the last one failed,
 * {@link WriteHealth.writable} tries a real committed write itself, so that readiness recovers once the database
 * takes writes again even when no upload comes (a load balancer sends none to a server that is not ready).
 */
export class WriteHealth {
  #lastWriteFailed = false;
  #probing: Promise<boolean> | undefined;

  constructor(private readonly database: Database) {}

  /** A write was committed. */
  recordSuccess(): void {
    this.#lastWriteFailed = false;
  }

  /** A write failed. */
  recordFailure(): void {
    this.#lastWriteFailed = true;
  }

  /** True unless the last write failed and a probe write fails too; probes share one write at a time. */
  writable(): Promise<boolean> {
    if (!this.#lastWriteFailed) return Promise.resolve(true);
    this.#probing ??= this.#probe().finally(() => (this.#probing = undefined));
    return this.#probing;
  }

  async #probe(): Promise<boolean> {
    const knex = this.database.em.getKnex();
    const write = (payload: Buffer) =>
      knex('write_probe')
        .insert({ id: 1, written_at: databaseTime(this.database, new Date()), payload })
        .onConflict('id')
        .merge();
    try {
      // Fresh random bytes need fresh space (nothing to compress, and more than the row's own pages hold while it
      // is empty); emptying the row again hands that space back to the reports.
      await write(randomBytes(PROBE_BYTES));
      await write(Buffer.alloc(0));
    } catch {
      return false;
    }
    this.recordSuccess();
    return true;
  }
}
