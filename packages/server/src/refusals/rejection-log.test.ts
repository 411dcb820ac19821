import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import type { RequestRejectedEvent } from '@org/audit-server-core';
import type { RejectionPage } from '../generated/types.gen.js';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { openDatabase, type Database } from '../database/open.js';
import { RejectionLog, type RejectionLogOptions } from './rejection-log.js';
import { createAdminToken } from '../secrets/admin-tokens.js';

const KEY_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const silent = pino({ level: 'silent' });

/** A refused upload from `hostId` at `remoteAddress`, with the key `KEY_ID`. */
const refusal = (overrides: Partial<RequestRejectedEvent> = {}): RequestRejectedEvent => ({
  operation: 'uploadReport',
  reason: 'invalid-data',
  status: 400,
  keyId: KEY_ID,
  hostId: 'web-01',
  remoteAddress: '203.0.113.7',
  ...overrides,
});

interface StoredRow {
  day: string;
  operation: string;
  reason: string;
  key_id: string;
  host_id: string;
  remote_address: string;
  folded: boolean | number;
  count: number;
}

describe.each(DIALECTS)('rejection log on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let clock: Date;
  const logs: RejectionLog[] = [];
  const logOn = (on: Database, options: RejectionLogOptions = {}) => {
    const log = new RejectionLog(on, silent, { now: () => clock, ...options });
    logs.push(log);
    return log;
  };
  const stored = async (on = database) =>
    ((await on.em.getKnex()('rejection').select('*').orderBy(['day', 'host_id', 'remote_address'])) as StoredRow[]).map((row) => ({
      ...row,
      folded: Boolean(row.folded),
      count: Number(row.count),
    }));
  const totalCount = async () => (await stored()).reduce((sum, row) => sum + row.count, 0);

  beforeEach(async () => {
    clock = new Date('2026-11-22T13:41:25.000Z');
    database = await openDatabase(location.location);
  });
  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close();
    await database.close();
  });

  it('counts refusals in memory and adds them up in the table, one row per day, operation, reason, key, hostid and address', async () => {
    const log = logOn(database);
    log.record(refusal());
    log.record(refusal());
    log.record(refusal({ remoteAddress: '198.51.100.1' }));
    log.record(refusal({ operation: 'checkLicense', reason: 'invalid-key', keyId: 'unknown', hostId: undefined }));
    expect(await stored()).toEqual([]); // nothing written in the request path
    await log.flush();
    expect(log.pendingGroups).toBe(0);
    clock = new Date('2026-11-22T15:00:00.000Z');
    log.record(refusal());
    await log.flush();
    clock = new Date('2026-11-23T00:00:01.000Z');
    log.record(refusal());
    await log.flush();

    const rows = await stored();
    expect(
      rows.map(({ day, operation, reason, key_id, host_id, remote_address, folded, count }) => [
        day,
        operation,
        reason,
        key_id,
        host_id,
        remote_address,
        folded,
        count,
      ]),
    ).toEqual([
      ['2026-11-22', 'checkLicense', 'invalid-key', '', '', '203.0.113.7', false, 1],
      ['2026-11-22', 'uploadReport', 'invalid-data', KEY_ID, 'web-01', '198.51.100.1', false, 1],
      ['2026-11-22', 'uploadReport', 'invalid-data', KEY_ID, 'web-01', '203.0.113.7', false, 3],
      ['2026-11-23', 'uploadReport', 'invalid-data', KEY_ID, 'web-01', '203.0.113.7', false, 1],
    ]);
  });

  it('records a hostid or address the contract refuses as unknown, and a key id only when it names a key record', async () => {
    const log = logOn(database);
    log.record(refusal({ hostId: 'x'.repeat(256), remoteAddress: 'not an address' }));
    log.record(refusal({ hostId: 'web 01\u0000', keyId: 'unknown', reason: 'Invalid Reason!' }));
    await log.flush();
    expect((await stored()).map((row) => [row.key_id, row.host_id, row.remote_address, row.reason])).toEqual([
      [KEY_ID, '', '', 'invalid-data'],
      ['', '', '203.0.113.7', 'other'],
    ]);
  });

  it('folds thousands of random hostids and addresses beyond its bounds, keeping every count', async () => {
    const log = logOn(database, { maxPendingGroups: 50, maxGroupsPerDay: 120 });
    const random = () => Math.random().toString(36).slice(2);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 1000; i++) log.record(refusal({ hostId: random(), remoteAddress: `10.${i % 256}.${round}.${i >> 8}` }));
      expect(log.pendingGroups).toBeLessThanOrEqual(51); // the bound and one folded group
      await log.flush();
    }
    const rows = await stored();
    expect(rows.filter((row) => !row.folded)).toHaveLength(120);
    expect(rows.filter((row) => row.folded)).toEqual([expect.objectContaining({ host_id: '', remote_address: '', count: 5000 - 120 })]);
    expect(await totalCount()).toBe(5000);
  });

  it('still adds to a stored group once the day is at its bound', async () => {
    const log = logOn(database, { maxGroupsPerDay: 2 });
    log.record(refusal({ hostId: 'a' }));
    log.record(refusal({ hostId: 'b' }));
    await log.flush();
    log.record(refusal({ hostId: 'a' }));
    log.record(refusal({ hostId: 'c' }));
    await log.flush();
    expect((await stored()).map((row) => [row.host_id, row.folded, row.count])).toEqual([
      ['', true, 1],
      ['a', false, 2],
      ['b', false, 1],
    ]);
  });

  it('keeps the counts of a failed write for the next one', async () => {
    const log = logOn(database);
    log.record(refusal());
    log.record(refusal({ hostId: 'db-01' }));
    vi.spyOn(database.em, 'getKnex').mockReturnValueOnce({ transaction: () => Promise.reject(new Error('connection terminated')) } as never);
    await log.flush();
    expect(log.pendingGroups).toBe(2);
    log.record(refusal());
    await log.flush();
    expect(log.pendingGroups).toBe(0);
    expect((await stored()).map((row) => [row.host_id, row.count])).toEqual([
      ['db-01', 1],
      ['web-01', 2],
    ]);
  });

  it('deletes the days older than keepDays', async () => {
    const log = logOn(database, { keepDays: 30 });
    for (const day of ['2026-10-23', '2026-10-24', '2026-11-22']) {
      clock = new Date(`${day}T12:00:00.000Z`);
      log.record(refusal());
      await log.flush();
    }
    clock = new Date('2026-11-22T13:00:00.000Z');
    expect(await log.prune()).toBe(1);
    expect((await stored()).map((row) => row.day)).toEqual(['2026-10-24', '2026-11-22']);
  });

  it('lists refusals through GET /api/admin/rejections, grouped with their addresses, newest first, filtered', async () => {
    const log = logOn(database);
    log.record(refusal());
    log.record(refusal({ remoteAddress: '198.51.100.1' }));
    log.record(refusal({ remoteAddress: '198.51.100.1' }));
    log.record(refusal({ operation: 'checkLicense', reason: 'invalid-key', keyId: 'unknown', hostId: undefined, remoteAddress: '192.0.2.9' }));
    clock = new Date('2026-11-21T08:00:00.000Z');
    log.record(refusal({ hostId: 'db-01' }));
    await log.flush();
    const { token } = await createAdminToken(database);
    const admin: AdminApi = await createAdminApi({ database });
    const list = async (query: Record<string, string> = {}) => {
      const response = await admin.handle({
        method: 'GET',
        path: '/api/admin/rejections',
        query,
        headers: { authorization: `Bearer ${token}` },
        body: { kind: 'none' },
      });
      // JSON answers are strings; only exports stream.
      if (typeof response.body !== 'string') throw new Error('expected a JSON answer');
      return { status: response.status, body: JSON.parse(response.body) as RejectionPage };
    };

    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(body.items).toEqual([
      expect.objectContaining({
        day: '2026-11-22',
        operation: 'checkLicense',
        reason: 'invalid-key',
        keyId: null,
        hostId: null,
        remoteAddresses: ['192.0.2.9'],
        count: 1,
      }), // the same time: by operation

      {
        day: '2026-11-22',
        operation: 'uploadReport',
        reason: 'invalid-data',
        keyId: KEY_ID,
        hostId: 'web-01',
        folded: false,
        remoteAddresses: ['198.51.100.1', '203.0.113.7'],
        addressCount: 2,
        count: 3,
        firstAt: '2026-11-22T13:41:25.000Z',
        lastAt: '2026-11-22T13:41:25.000Z',
      },
      expect.objectContaining({ day: '2026-11-21', hostId: 'db-01', count: 1 }),
    ]);
    expect((await list({ since: '2026-11-22' })).body.total).toBe(2);
    expect((await list({ reason: 'invalid-key' })).body.items.map((item) => item.reason)).toEqual(['invalid-key']);
    expect((await list({ hostId: 'db-01' })).body.items.map((item) => item.day)).toEqual(['2026-11-21']);
    expect((await list({ keyId: KEY_ID, operation: 'uploadReport' })).body.total).toBe(2);
    expect((await list({ limit: '1', offset: '2' })).body.items.map((item) => item.hostId)).toEqual(['db-01']);
    expect((await list({ since: 'yesterday' })).status).toBe(400);
  });
});

describe('rejection log on postgresql, two servers', () => {
  const location = useTestDatabase('postgresql');

  it('adds up the counts of two servers writing the same groups at once', async () => {
    const [first, second] = [await openDatabase(location.location), await openDatabase(location.location)];
    const clock = () => new Date('2026-11-22T13:41:25.000Z');
    const logs = [new RejectionLog(first, silent, { now: clock }), new RejectionLog(second, silent, { now: clock })];
    try {
      for (let round = 0; round < 10; round++) {
        for (const log of logs) {
          for (let host = 0; host < 200; host++) log.record(refusal({ hostId: `host-${host}` }));
        }
        await Promise.all(logs.map((log) => log.flush()));
        expect(logs.map((log) => log.pendingGroups)).toEqual([0, 0]);
      }
      const rows = await first.em.getKnex()('rejection').select<{ host_id: string; count: number }[]>('host_id', 'count');
      expect(rows).toHaveLength(200);
      expect(rows.every((row) => Number(row.count) === 20)).toBe(true);
    } finally {
      for (const log of logs) await log.close();
      await first.close();
      await second.close();
    }
  });
});
