import { randomUUID } from 'node:crypto';
import { hashLicenseKey } from './license-key.js';
import type { KeyLookup, KeyStore, ReportStore, ReportToStore } from './stores.js';

/** A {@link KeyStore} in memory, for tests and small embeddings. Keeps only key hashes. */
export class InMemoryKeyStore implements KeyStore {
  readonly #keys = new Map<string, { keyId: string; revoked: boolean }>();

  /** Adds a key and returns its id. */
  add(licenseKey: string, keyId: string = randomUUID()): string {
    this.#keys.set(hashLicenseKey(licenseKey), { keyId, revoked: false });
    return keyId;
  }

  /** Marks the key with this id revoked. Returns whether such a key exists. */
  revoke(keyId: string): boolean {
    const entry = [...this.#keys.values()].find((key) => key.keyId === keyId);
    if (entry) entry.revoked = true;
    return entry !== undefined;
  }

  async lookup(licenseKey: string): Promise<KeyLookup> {
    const entry = this.#keys.get(hashLicenseKey(licenseKey));
    if (!entry) return { state: 'unknown' };
    return { state: entry.revoked ? 'revoked' : 'valid', keyId: entry.keyId };
  }
}

/** A {@link ReportStore} in memory: nothing survives a restart, so only for tests and demos. */
export class InMemoryReportStore implements ReportStore {
  /** Stored reports by id, in arrival order. */
  readonly reports = new Map<string, ReportToStore>();

  async save(report: ReportToStore): Promise<{ id: string }> {
    const id = randomUUID();
    this.reports.set(id, report);
    return { id };
  }
}
