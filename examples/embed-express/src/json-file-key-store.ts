import { readFile } from 'node:fs/promises';
import { hashLicenseKey, type KeyLookup, type KeyStore } from '@org/audit-server-core';

/** One key in the file: never the key itself, only its SHA-256. */
interface KeyEntry {
  id: string;
  sha256: string;
  revoked?: boolean;
}

/**
 * A {@link KeyStore} over a JSON file of key hashes, as an app with its own key database might keep them:
 * `{ "keys": [{ "id": "web-servers", "sha256": "<hex>", "revoked": false }] }`. Call `reload()` after editing the file.
 */
export class JsonFileKeyStore implements KeyStore {
  #byHash = new Map<string, KeyEntry>();

  private constructor(readonly path: string) {}

  /** Reads the file; throws a message naming the file and the entry when it is malformed. */
  static async load(path: string): Promise<JsonFileKeyStore> {
    const store = new JsonFileKeyStore(path);
    await store.reload();
    return store;
  }

  /** Reads the file again; on error the keys read before stay in use. */
  async reload(): Promise<void> {
    const parsed = JSON.parse(await readFile(this.path, 'utf8')) as { keys?: unknown };
    if (!Array.isArray(parsed.keys)) throw new Error(`${this.path}: expected { "keys": [...] }`);
    const byHash = new Map<string, KeyEntry>();
    for (const [index, entry] of (parsed.keys as Partial<KeyEntry>[]).entries()) {
      if (typeof entry.id !== 'string' || !/^[0-9a-f]{64}$/.test(entry.sha256 ?? '')) {
        throw new Error(`${this.path}: keys[${index}] needs an "id" and a "sha256" of 64 lowercase hex digits`);
      }
      byHash.set(entry.sha256!, { id: entry.id, sha256: entry.sha256!, revoked: entry.revoked === true });
    }
    this.#byHash = byHash;
  }

  async lookup(licenseKey: string): Promise<KeyLookup> {
    const entry = this.#byHash.get(hashLicenseKey(licenseKey));
    if (!entry) return { state: 'unknown' };
    return { state: entry.revoked ? 'revoked' : 'valid', keyId: entry.id };
  }
}
