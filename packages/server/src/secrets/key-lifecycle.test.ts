import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { parseDuration, parseExpiry } from '../duration.js';
import { LicenseKeyRecord } from '../database/entities.js';
import { createKey, importKeys, listKeys, parseKeyList, revokeKey, rotateKey, setKeySettings } from './license-keys.js';
import { OrmKeyStore } from './license-key-store.js';

const HOUR = 3_600_000;

describe.each(DIALECTS)('keys on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  let stores: OrmKeyStore[];
  beforeEach(async () => {
    orm = await openDatabase(database.location);
    stores = [];
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const store of stores) await store.close();
    await orm.close();
  });
  const openStore = async (on: Database = orm) => {
    const store = await OrmKeyStore.open(on, { refreshIntervalMs: 60_000, lastUsedFlushMs: 60_000 });
    stores.push(store);
    return store;
  };

  describe('key lifecycle', () => {
    it('creates keys Lynis can send unchanged, with at least 128 bits', async () => {
      const keys = await Promise.all(Array.from({ length: 20 }, () => createKey(orm)));
      for (const { key } of keys) {
        expect(key).toMatch(/^[a-f0-9-]+$/);
        expect(key.replaceAll('-', '').length * 4).toBeGreaterThanOrEqual(128);
      }
      expect(new Set(keys.map((k) => k.key)).size).toBe(20);
    });

    it('treats a key past its expiry as revoked', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-01T00:00:00Z'));
      const { id, key } = await createKey(orm, { expiresAt: new Date('2026-11-01T01:00:00Z') });
      const store = await openStore();
      expect(await store.lookup(key)).toEqual({ state: 'valid', keyId: id });
      vi.setSystemTime(new Date('2026-11-01T01:00:00Z'));
      expect(await store.lookup(key)).toEqual({ state: 'revoked', keyId: id });
      expect((await listKeys(orm))[0]).toMatchObject({ id, state: 'expired' });
    });

    it('rotates: a new key with the same label, the old one valid until the grace period ends', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-11-01T00:00:00Z'));
      const old = await createKey(orm, { label: 'web' });
      const rotated = await rotateKey(orm, old.id, 24 * HOUR);
      expect(rotated.oldExpiresAt).toEqual(new Date('2026-11-02T00:00:00Z'));
      const store = await openStore();
      expect(await store.lookup(old.key)).toEqual({ state: 'valid', keyId: old.id });
      expect(await store.lookup(rotated.key)).toEqual({ state: 'valid', keyId: rotated.id });
      vi.setSystemTime(new Date('2026-11-02T00:00:01Z'));
      expect(await store.lookup(old.key)).toEqual({ state: 'revoked', keyId: old.id });
      expect(await store.lookup(rotated.key)).toEqual({ state: 'valid', keyId: rotated.id });
      const listed = Object.fromEntries((await listKeys(orm)).map((k) => [k.id, [k.label, k.state]]));
      expect(listed).toEqual({ [old.id]: ['web', 'expired'], [rotated.id]: ['web', 'valid'] });
      await expect(rotateKey(orm, old.id, HOUR)).rejects.toThrow(/already revoked or expired/);
    });

    it('keeps an earlier expiry when the grace period would outlast it', async () => {
      const expiresAt = new Date(Date.now() + HOUR);
      const old = await createKey(orm, { expiresAt });
      expect((await rotateKey(orm, old.id, 48 * HOUR)).oldExpiresAt).toEqual(expiresAt);
    });

    it('shows a revocation to every server once it rereads the keys', async () => {
      const { id, key } = await createKey(orm);
      const otherOrm = await openDatabase(database.location); // a second server on the same database
      const there = await OrmKeyStore.open(otherOrm, { refreshIntervalMs: 60_000 });
      try {
        const here = await openStore();
        expect(await there.lookup(key)).toEqual({ state: 'valid', keyId: id });
        await revokeKey(orm, id);
        expect(await there.lookup(key)).toEqual({ state: 'valid', keyId: id }); // from memory until the next reread
        await there.refresh();
        expect(await there.lookup(key)).toEqual({ state: 'revoked', keyId: id });
        await here.refresh();
        expect(await here.lookup(key)).toEqual({ state: 'revoked', keyId: id });
      } finally {
        await there.close();
        await otherOrm.close();
      }
    });

    it('shows an expiry set, cleared or moved to every server once it rereads the keys', async () => {
      const { id, key } = await createKey(orm);
      const otherOrm = await openDatabase(database.location); // a second server on the same database
      const there = await OrmKeyStore.open(otherOrm, { refreshIntervalMs: 60_000 });
      try {
        const lookupsAfterRefresh = async () => {
          await there.refresh();
          return (await there.lookup(key)).state;
        };
        expect(await lookupsAfterRefresh()).toBe('valid');
        await setKeySettings(orm, id, { expiresAt: new Date(Date.now() - 1000) });
        expect(await lookupsAfterRefresh()).toBe('revoked');
        await setKeySettings(orm, id, { expiresAt: null });
        expect(await lookupsAfterRefresh()).toBe('valid');
        await setKeySettings(orm, id, { expiresAt: new Date(Date.now() + HOUR) });
        expect(await lookupsAfterRefresh()).toBe('valid');
        expect((await listKeys(orm))[0]!.expiresAt!.getTime()).toBeGreaterThan(Date.now());
      } finally {
        await there.close();
        await otherOrm.close();
      }
    });

    it('lets an operator move the expiry rotation gave the old key', async () => {
      const old = await createKey(orm);
      await rotateKey(orm, old.id, HOUR);
      const later = new Date(Date.now() + 48 * HOUR);
      await setKeySettings(orm, old.id, { expiresAt: later });
      expect((await listKeys(orm)).find((k) => k.id === old.id)).toMatchObject({ state: 'valid', expiresAt: later });
      await expect(setKeySettings(orm, '0f8fad5b-d9cb-469f-a165-70867728950e', { expiresAt: null })).rejects.toThrow(/No license key/);
    });

    it('sees keys created after it started on their first lookup, without waiting for a refresh', async () => {
      const store = await openStore();
      const { id, key } = await createKey(orm);
      expect(await store.lookup(key)).toEqual({ state: 'valid', keyId: id });
    });

    it('keeps the last use in memory and writes it in one batch', async () => {
      const { id, key } = await createKey(orm);
      const store = await openStore();
      for (let i = 0; i < 50; i++) await store.lookup(key);
      expect((await orm.em.fork().findOneOrFail(LicenseKeyRecord, { id })).lastUsedAt).toBeNull();
      await store.flushLastUsed();
      const [summary] = await listKeys(orm);
      expect(summary!.lastUsedAt).toBeInstanceOf(Date);
      expect(Date.now() - summary!.lastUsedAt!.getTime()).toBeLessThan(60_000);
    });

    it('writes pending last-use times on close', async () => {
      const { id, key } = await createKey(orm);
      const store = await OrmKeyStore.open(orm);
      await store.lookup(key);
      await store.close();
      expect((await orm.em.fork().findOneOrFail(LicenseKeyRecord, { id })).lastUsedAt).toBeInstanceOf(Date);
    });
  });

  describe('key import', () => {
    it('stores every key of a list, or none, and names the bad line without its content', async () => {
      const text = '# moved from the old collector\ndeadbeef-0001\n\n  deadbeef-0002  \r\n';
      expect(parseKeyList(text)).toEqual(['deadbeef-0001', 'deadbeef-0002']);
      expect(() => parseKeyList('deadbeef-0001\nSecret-Key-9\n')).toThrow(/^line 2: a license key may use only a-f, 0-9 and "-"/);
      expect(() => parseKeyList('deadbeef-0001\nSecret-Key-9\n')).not.toThrow(/Secret/);
      expect(() => parseKeyList('# nothing\n')).toThrow(/no keys given/);

      const ids = await importKeys(orm, ['deadbeef-0001', 'deadbeef-0002'], { label: 'imported' });
      expect(ids).toHaveLength(2);
      await expect(importKeys(orm, ['deadbeef-0003', 'deadbeef-0001'])).rejects.toThrow(/^key 2: this key is already stored$/);
      await expect(importKeys(orm, ['deadbeef-0004', 'deadbeef-0004'])).rejects.toThrow(/^key 2: the same key as key 1$/);
      expect((await listKeys(orm)).map((k) => k.label)).toEqual(['imported', 'imported']); // nothing of the refused batches
      const store = await openStore();
      expect(await store.lookup('deadbeef-0002')).toEqual({ state: 'valid', keyId: ids[1] });
    });
  });
});

describe('durations', () => {
  it('parses durations and expiries, and explains bad ones', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('7d')).toBe(7 * 24 * HOUR);
    expect(parseDuration('0s')).toBe(0);
    expect(() => parseDuration('7 days')).toThrow(/e\.g\. 30m, 12h, 7d or 2w/);
    const now = new Date('2026-11-01T00:00:00Z');
    expect(parseExpiry('12h', now)).toEqual(new Date('2026-11-01T12:00:00Z'));
    expect(parseExpiry('2027-01-31', now)).toEqual(new Date('2027-01-31T00:00:00Z'));
    expect(() => parseExpiry('2026-10-01', now)).toThrow(/already past/);
    expect(() => parseExpiry('soon', now)).toThrow(/neither a duration/);
  });
});
