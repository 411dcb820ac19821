import { hashLicenseKey, type KeyLookup, type KeyStore } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { LicenseKeyRecord } from '../database/entities.js';
import { findAlias } from '../enrollment/enrollments.js';
import { recordLastUse } from './secret-records.js';

/** How often a key store rereads key changes, and writes last-use times. */
export interface KeySnapshotOptions {
  /** Milliseconds between checks for key changes (a revoked key is refused within about this long). Default 500. */
  refreshIntervalMs?: number;
  /** Milliseconds between writes of last-use times. Default 30 000. */
  lastUsedFlushMs?: number;
}

/** What an enrollment's alias of a key stands for: never changes once made, so it is cached for good. */
interface AliasEntry {
  keyId: string;
  enrollmentId: string;
}

interface KeyEntry {
  keyId: string;
  revoked: boolean;
  /** Epoch milliseconds after which the key counts as revoked. */
  expiresAt: number | null;
}

/**
 * {@link KeyStore} over the database that answers from memory: a snapshot of every key hash and its state,
 * reread when any key changed (one `max(revision)` query per refresh interval), so lookups of known keys never
 * wait for the database and every server sees a revocation within the interval. A key not in the snapshot waits
 * for a refresh begun after it was asked for, so a key created a moment ago works at once; misses share that
 * refresh, and one fails (core answers 503) when the database cannot say. Last-use times are kept in memory
 * and written in one batch per flush interval and on close. A key it does not know may be an enrollment's alias of
 * a key (`enrollment/`): looked up by its hash once, after the refresh, then answered from memory with its key's state.
 */
export class OrmKeyStore implements KeyStore {
  #keys = new Map<string, KeyEntry>();
  #keysById = new Map<string, KeyEntry>();
  #aliases = new Map<string, AliasEntry>();
  #revision = -1;
  #lastUsed = new Map<string, Date>();
  #refreshing: Promise<void> | undefined;
  /** The refresh that starts when the one in flight ends: what misses arriving during that one wait for. */
  #nextRefresh: Promise<void> | undefined;
  #timers: NodeJS.Timeout[] = [];

  private constructor(private readonly orm: Database) {}

  /** Loads the keys and starts refreshing them and writing last-use times. */
  static async open(orm: Database, options: KeySnapshotOptions = {}): Promise<OrmKeyStore> {
    const store = new OrmKeyStore(orm);
    await store.refresh();
    const every = (ms: number, work: () => Promise<void>) => {
      const timer = setInterval(() => void work().catch(() => {}), ms); // a failed round is retried next round
      timer.unref();
      store.#timers.push(timer);
    };
    every(options.refreshIntervalMs ?? 500, () => store.refresh());
    every(options.lastUsedFlushMs ?? 30_000, () => store.flushLastUsed());
    return store;
  }

  async lookup(licenseKey: string): Promise<KeyLookup> {
    // Found by SHA-256 digest: a lookup's timing can only tell about the digest of the caller's own guess,
    // which reveals nothing about stored keys, so no secret is ever compared byte by byte.
    const hash = hashLicenseKey(licenseKey);
    const entry = this.#keys.get(hash);
    if (entry) return this.#answer(entry);
    const alias = this.#aliases.get(hash);
    if (alias) return this.#answerAlias(alias);
    await this.#refreshStartingNow(); // throws when the database cannot say whether the key exists
    const fresh = this.#keys.get(hash);
    if (fresh) return this.#answer(fresh);
    const found = await findAlias(this.orm, hash);
    if (!found) return { state: 'unknown' };
    this.#aliases.set(hash, found);
    return this.#answerAlias(found);
  }

  #answer(entry: KeyEntry): KeyLookup {
    if (entry.revoked || (entry.expiresAt !== null && entry.expiresAt <= Date.now())) return { state: 'revoked', keyId: entry.keyId };
    this.#lastUsed.set(entry.keyId, new Date());
    return { state: 'valid', keyId: entry.keyId };
  }

  /** An alias is valid while its key is; a key gone from the snapshot counts as revoked. */
  #answerAlias(alias: AliasEntry): KeyLookup {
    const entry = this.#keysById.get(alias.keyId);
    if (!entry) return { state: 'revoked', keyId: alias.keyId };
    const answer = this.#answer(entry);
    return answer.state === 'valid' ? { ...answer, enrollmentId: alias.enrollmentId } : answer;
  }

  /** Rereads the keys if any changed since the last read. */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#reload().finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  /**
   * A refresh begun no earlier than this call: one in flight may have read the keys before the caller's key was
   * made, so it is followed by one more, shared by every caller meanwhile (one query in flight at a time).
   */
  #refreshStartingNow(): Promise<void> {
    if (!this.#refreshing) return this.refresh();
    this.#nextRefresh ??= this.#refreshing
      .catch(() => {}) // its failure is its own callers'; this one reads again
      .then(() => {
        this.#nextRefresh = undefined;
        return this.refresh();
      });
    return this.#nextRefresh;
  }

  async #reload(): Promise<void> {
    const em = this.orm.em.fork();
    const [{ revision }] = await em.execute<[{ revision: number }]>('select coalesce(max(revision), 0) as revision from license_key');
    if (revision === this.#revision) return;
    const records = await em.find(LicenseKeyRecord, {}, { fields: ['id', 'keyHash', 'revokedAt', 'expiresAt'] });
    this.#keys = new Map(records.map((r) => [r.keyHash, { keyId: r.id, revoked: r.revokedAt != null, expiresAt: r.expiresAt ? r.expiresAt.getTime() : null }]));
    this.#keysById = new Map([...this.#keys.values()].map((entry) => [entry.keyId, entry]));
    this.#revision = revision;
  }

  /** Writes the last-use times gathered since the previous write, in one transaction. */
  async flushLastUsed(): Promise<void> {
    if (this.#lastUsed.size === 0) return;
    const batch = this.#lastUsed;
    this.#lastUsed = new Map();
    await this.orm.em.fork().transactional(async (em) => {
      for (const [id, at] of batch) await recordLastUse(em, LicenseKeyRecord, id, at);
    });
  }

  /** Stops refreshing and writes the pending last-use times. */
  async close(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    await Promise.allSettled([this.#refreshing, this.#nextRefresh]); // a failed one is its callers' to report
    await this.flushLastUsed();
  }
}
