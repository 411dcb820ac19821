import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MikroORM } from '@mikro-orm/sqlite';
import type { ReportToStore } from '@org/audit-server-core';
import { openDatabase } from './database.js';
import { createKey } from './key-admin.js';
import { OrmReportStore } from './stores.js';

let dataDir: string;
let orm: MikroORM;
/** A second connection to the same file: what it sees has been committed. */
let observer: MikroORM;
let keyId: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'audit-store-test-'));
  orm = await openDatabase(dataDir);
  observer = await openDatabase(dataDir);
  ({ id: keyId } = await createKey(orm));
});
afterEach(async () => {
  await orm.close();
  await observer.close();
  await rm(dataDir, { recursive: true, force: true });
});

const report = (hostId: string, overrides: Partial<ReportToStore> = {}): ReportToStore => ({
  keyId, hostId, receivedAt: new Date(), encoding: 'raw', size: 9, sha256: 'a'.repeat(64), content: Buffer.from(`os=${hostId}\n`), summary: null, ...overrides,
});

async function committedIds(): Promise<string[]> {
  const rows = await observer.em.getConnection().execute<{ id: string }[]>('select id from report');
  return rows.map((row) => row.id);
}

describe('group commit', () => {
  it('writes concurrent saves together, and each resolves only once its report is committed', async () => {
    const store = new OrmReportStore(orm);
    const transactions = vi.spyOn(orm.em.getKnex(), 'transaction');
    const seenOnResolve: boolean[] = [];
    const saves = Array.from({ length: 20 }, (_, i) =>
      store.save(report(`host-${i}`)).then(async ({ id }) => {
        seenOnResolve.push((await committedIds()).includes(id));
        return id;
      }),
    );
    const ids = await Promise.all(saves);
    expect(new Set(ids).size).toBe(20);
    expect(seenOnResolve).toEqual(Array(20).fill(true));
    expect((await committedIds()).sort()).toEqual([...ids].sort());
    // The first save commits alone; the 19 that arrive meanwhile share the next transaction.
    expect(transactions).toHaveBeenCalledTimes(2);
  });

  it('fails only the report the database refuses; the rest of its group is stored', async () => {
    const store = new OrmReportStore(orm);
    const first = store.save(report('first'));
    const group = [store.save(report('good-1')), store.save(report('bad', { keyId: 'no-such-key' })), store.save(report('good-2'))];
    const results = await Promise.allSettled([first, ...group]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    const stored = await committedIds();
    expect(stored).toHaveLength(3);
    for (const r of [results[0], results[1], results[3]]) expect(stored).toContain((r as PromiseFulfilledResult<{ id: string }>).value.id);
  });

  it('rejects every save of a group that cannot be committed, and keeps working afterwards', async () => {
    const store = new OrmReportStore(orm);
    const first = store.save(report('first'));
    const doomed = [store.save(report('bad-1', { keyId: 'missing-1' })), store.save(report('bad-2', { keyId: 'missing-2' }))];
    await expect(first).resolves.toMatchObject({ id: expect.any(String) });
    for (const save of doomed) await expect(save).rejects.toThrow(/FOREIGN KEY/);
    const { id } = await store.save(report('later'));
    expect((await committedIds()).sort()).toEqual([(await first).id, id].sort());
  });

  it('starts a new transaction where the next report would pass the group size in bytes', async () => {
    const store = new OrmReportStore(orm, { maxGroupBytes: 25 });
    const transactions = vi.spyOn(orm.em.getKnex(), 'transaction');
    const content = Buffer.alloc(10, 'a');
    const ids = await Promise.all(['a', 'b', 'c', 'd'].map((host) => store.save(report(host, { content })).then((saved) => saved.id)));
    // a alone (nothing was waiting), then b + c (20 bytes), then d: 30 bytes would pass 25.
    expect(transactions).toHaveBeenCalledTimes(3);
    expect((await committedIds()).sort()).toEqual([...ids].sort());
  });

  it('keeps reports that were answered when the database is closed and reopened', async () => {
    const store = new OrmReportStore(orm);
    const ids = await Promise.all([1, 2, 3].map((i) => store.save(report(`host-${i}`)).then((saved) => saved.id)));
    await orm.close();
    orm = await openDatabase(dataDir);
    const rows = await orm.em.getConnection().execute<{ id: string; host_id: string }[]>('select id, host_id from report order by host_id');
    expect(rows).toEqual(ids.map((id, i) => ({ id, host_id: `host-${i + 1}` })));
  });
});
