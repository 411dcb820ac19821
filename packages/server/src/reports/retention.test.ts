import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportToStore } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { HostRecord, ReportRecord } from '../database/entities.js';
import { createKey } from '../secrets/license-keys.js';
import { pruneReports, schedulePruning } from './retention.js';
import { OrmReportStore } from './report-store.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

describe.each(DIALECTS)('retention on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  let keyId: string;
  beforeEach(async () => {
    orm = await openDatabase(database.location);
    ({ id: keyId } = await createKey(orm));
  });
  afterEach(async () => {
    await orm.close();
  });

  /** Stores one report per age (days before NOW) for `hostId`, oldest first; resolves with their ids, newest first. */
  async function reportsAged(hostId: string, ages: number[]): Promise<string[]> {
    const store = new OrmReportStore(orm);
    const ids: string[] = [];
    for (const age of [...ages].sort((a, b) => b - a)) {
      const report: ReportToStore = {
        keyId,
        hostId,
        receivedAt: daysAgo(age),
        encoding: 'raw',
        size: 3,
        sha256: 'a'.repeat(64),
        content: Buffer.from('a=1'),
        summary: null,
      };
      ids.unshift((await store.save(report)).id);
    }
    return ids;
  }
  const storedIds = async () => (await orm.em.fork().find(ReportRecord, {}, { fields: ['id'] })).map((r) => r.id).sort();
  const reportCounts = async () => Object.fromEntries((await orm.em.fork().find(HostRecord, {})).map((h) => [h.hostId, h.reportCount]));

  it('keeps the newest N reports of each host', async () => {
    const web = await reportsAged('web', [1, 2, 3, 4, 5]);
    const db = await reportsAged('db', [1, 2]);
    expect(await pruneReports(orm, { keepLast: 2 }, { now: NOW })).toBe(3);
    expect(await storedIds()).toEqual([...web.slice(0, 2), ...db].sort());
    expect(await reportCounts()).toEqual({ web: 2, db: 2 });
  });

  it("keeps reports younger than D days, and always a host's newest", async () => {
    const web = await reportsAged('web', [1, 10, 40, 50]);
    const stale = await reportsAged('stale', [100, 200]);
    expect(await pruneReports(orm, { maxAgeDays: 30 }, { now: NOW })).toBe(3);
    expect(await storedIds()).toEqual([web[0], web[1], stale[0]].sort());
    expect(await reportCounts()).toEqual({ web: 2, stale: 1 });
  });

  it('with both rules deletes only what both would delete', async () => {
    // 20 days is outside the newest 2 but young: kept. 200 days is old but among the newest 2: kept.
    const web = await reportsAged('web', [1, 10, 20, 40, 50]);
    const old = await reportsAged('old', [100, 200, 300]);
    expect(await pruneReports(orm, { keepLast: 2, maxAgeDays: 30 }, { now: NOW })).toBe(3);
    expect(await storedIds()).toEqual([...web.slice(0, 3), ...old.slice(0, 2)].sort());
  });

  it('counts without deleting on a dry run, and deletes nothing without a rule', async () => {
    const ids = await reportsAged('web', [1, 2, 3]);
    expect(await pruneReports(orm, { keepLast: 1 }, { now: NOW, dryRun: true })).toBe(2);
    expect(await pruneReports(orm, {}, { now: NOW })).toBe(0);
    expect(await storedIds()).toEqual([...ids].sort());
    expect(await reportCounts()).toEqual({ web: 3 });
  });

  it('deletes each report once when two servers prune at the same time', async () => {
    await reportsAged(
      'web',
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    const other = await openDatabase(database.location);
    try {
      const deleted = await Promise.all([pruneReports(orm, { keepLast: 5 }, { now: NOW }), pruneReports(other, { keepLast: 5 }, { now: NOW })]);
      expect(deleted[0] + deleted[1]).toBe(25);
    } finally {
      await other.close();
    }
    expect(await storedIds()).toHaveLength(5);
    expect(await reportCounts()).toEqual({ web: 5 });
  });

  it('prunes on a schedule and logs how many reports each round deleted', async () => {
    await reportsAged('web', [3, 2, 1]);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const schedule = schedulePruning(orm, { keepLast: 1 }, 0.001, logger)!;
    await vi.waitFor(() => expect(lines.length).toBeGreaterThanOrEqual(2), { timeout: 2000 });
    await schedule.stop();
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'pruned reports', deleted: 2, keepLast: 1 });
    expect(JSON.parse(lines[1]!)).toMatchObject({ msg: 'pruned reports', deleted: 0 });
    expect(await reportCounts()).toEqual({ web: 1 });
    expect(schedulePruning(orm, {}, 60, logger)).toBeUndefined();
    expect(schedulePruning(orm, { maxAgeDays: 1 }, 0, logger)).toBeUndefined();
  });

  it('goes on counting new reports of a pruned host', async () => {
    await reportsAged('web', [3, 2, 1]);
    await pruneReports(orm, { keepLast: 1 }, { now: NOW });
    await reportsAged('web', [0]);
    expect(await reportCounts()).toEqual({ web: 2 });
  });
});
