import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashLicenseKey, type ReportToStore } from '@org/audit-server-core';
import { lynisSummary } from '@org/test-support/lynis-summary';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { HostRecord, LicenseKeyRecord, ReportRecord } from '../database/entities.js';
import { DERIVED_VERSION } from '../hosts/host-derivation.js';
import { hostRecordId } from '../hosts/host-records.js';
import { createKey, importKey, listKeys, revokeKey, rotateKey } from '../secrets/license-keys.js';
import { reportBytesOf } from './report-content.js';
import { OrmReportStore } from './report-store.js';
import { OrmKeyStore } from '../secrets/license-key-store.js';

/** A key id no key has. */
const MISSING_KEY = '00000000-0000-4000-8000-00000000dead';
/** For tests of what one group holds: the saves made while the first commits then share the next group on every dialect. */
const ONE_GROUP_AT_A_TIME = { concurrentGroups: 1 };

describe.each(DIALECTS)('stores on %s', (dialect) => {
  /** A test of what only PostgreSQL does (several writers at once): defined for it alone, never a skipped test elsewhere. */
  function itOnPostgresql(name: string, test: () => Promise<void>) {
    if (dialect === 'postgresql') it(name, test);
  }
  const database = useTestDatabase(dialect);
  let orm: Database;
  /** A second connection to the same database: what it sees has been committed. */
  let observer: Database;
  let keyId: string;
  beforeEach(async () => {
    orm = await openDatabase(database.location);
    observer = await openDatabase(database.location);
    ({ id: keyId } = await createKey(orm));
  });
  afterEach(async () => {
    await orm.close();
    await observer.close();
  });

  const report = (hostId: string, overrides: Partial<ReportToStore> = {}): ReportToStore => ({
    keyId,
    hostId,
    receivedAt: new Date(),
    encoding: 'raw',
    size: 9,
    sha256: 'a'.repeat(64),
    content: Buffer.from(`os=${hostId}\n`),
    summary: null,
    ...overrides,
  });

  async function committedIds(): Promise<string[]> {
    const rows = await observer.em.getConnection().execute<{ id: string }[]>('select id from report');
    return rows.map((row) => row.id);
  }

  const hosts = () => observer.em.fork().find(HostRecord, {}, { orderBy: { hostId: 'asc', id: 'asc' } });

  describe('keys', () => {
    it('stores only the hash and a short prefix of a created key', async () => {
      const { id, key } = await createKey(orm, { label: 'web servers' });
      const record = await orm.em.fork().findOneOrFail(LicenseKeyRecord, { id });
      expect(record.keyHash).toBe(hashLicenseKey(key));
      expect(record.prefix).toBe(key.slice(0, 8));
      const rows = await observer.em.getConnection().execute('select * from license_key');
      expect(JSON.stringify(rows)).not.toContain(key);
    });

    it('looks keys up as valid, revoked or unknown', async () => {
      const { id, key } = await createKey(orm);
      const store = await OrmKeyStore.open(orm);
      expect(await store.lookup(key)).toEqual({ state: 'valid', keyId: id });
      expect(await store.lookup(`${key}0`)).toEqual({ state: 'unknown' });
      expect(await revokeKey(orm, id)).toBe(true);
      await store.refresh();
      expect(await store.lookup(key)).toEqual({ state: 'revoked', keyId: id });
      await store.close();
      expect(await revokeKey(orm, id)).toBe(true);
      expect(await revokeKey(orm, MISSING_KEY)).toBe(false);
      expect(await revokeKey(orm, 'not-a-key-id')).toBe(false);
      await expect(rotateKey(orm, 'not-a-key-id', 0)).rejects.toThrow(/^no key with id not-a-key-id$/);
    });

    it('knows a key created elsewhere on the very next lookup, however long its refresh interval', async () => {
      const store = await OrmKeyStore.open(orm, { refreshIntervalMs: 60_000 });
      try {
        const { id, key } = await createKey(observer); // as `keys create` or another server's admin API would
        expect(await store.lookup(key)).toEqual({ state: 'valid', keyId: id });
        expect(await store.lookup(`${key}0`)).toEqual({ state: 'unknown' });
      } finally {
        await store.close();
      }
    });

    it('answers a flood of unknown keys with at most two revision queries, one at a time', async () => {
      const store = await OrmKeyStore.open(orm, { refreshIntervalMs: 60_000 });
      const connection = orm.em.getConnection();
      const execute = connection.execute.bind(connection);
      let revisionQueries = 0;
      let inFlight = 0;
      let mostInFlight = 0;
      const spy = vi.spyOn(connection, 'execute').mockImplementation((async (query: string, ...rest: unknown[]) => {
        if (!String(query).includes('max(revision)')) return (execute as (...args: unknown[]) => Promise<unknown>)(query, ...rest);
        revisionQueries++;
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        try {
          return await (execute as (...args: unknown[]) => Promise<unknown>)(query, ...rest);
        } finally {
          inFlight--;
        }
      }) as typeof connection.execute);
      try {
        const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => store.lookup(`unknown-key-${i}`)));
        expect(answers.every((answer) => answer.state === 'unknown')).toBe(true);
        expect(revisionQueries).toBeGreaterThanOrEqual(1);
        expect(revisionQueries).toBeLessThanOrEqual(2);
        expect(mostInFlight).toBe(1);
      } finally {
        spy.mockRestore();
        await store.close();
      }
    });

    it('throws on an unknown key while the database is unreachable, and still knows the keys it read', async () => {
      const { id, key } = await createKey(orm);
      const store = await OrmKeyStore.open(orm, { refreshIntervalMs: 60_000 });
      await orm.close(); // every query fails from now on
      expect(await store.lookup(key)).toEqual({ state: 'valid', keyId: id });
      await expect(store.lookup(`${key}0`)).rejects.toThrow();
      await store.close().catch(() => {}); // its last-use write fails too
    });

    it('imports only keys Lynis can send unchanged', async () => {
      const id = await importKey(orm, 'deadbeef-0000-0000-0000-000000000001');
      const store = await OrmKeyStore.open(orm);
      expect(await store.lookup('deadbeef-0000-0000-0000-000000000001')).toEqual({ state: 'valid', keyId: id });
      await store.close();
      await expect(importKey(orm, 'Test-Key-0001')).rejects.toThrow(/only a-f, 0-9 and "-"/);
    });

    it('lists keys with state and last upload, never the key', async () => {
      const first = await createKey(orm, { label: 'first' });
      const second = await createKey(orm, { label: 'second' });
      await revokeKey(orm, second.id);
      const receivedAt = new Date('2026-11-01T10:00:00Z');
      await new OrmReportStore(orm).save({ ...report('h', { receivedAt }), keyId: first.id });
      const keys = await listKeys(orm);
      expect(keys.filter((k) => k.id !== keyId)).toMatchObject([
        { id: first.id, label: 'first', state: 'valid', lastUploadAt: receivedAt },
        { id: second.id, label: 'second', state: 'revoked', lastUploadAt: null },
      ]);
      expect(JSON.stringify(keys)).not.toContain(first.key);
    });
  });

  describe('reports', () => {
    it('keeps every field and the exact bytes', async () => {
      const content = Buffer.from([0, 1, 2, 255, 10]);
      const receivedAt = new Date();
      const { id } = await new OrmReportStore(orm).save(
        report('host-1', { hostId2: 'host-2', receivedAt, encoding: 'base64', size: 5, sha256: 'b'.repeat(64), content }),
      );
      const stored = await observer.em.fork().findOneOrFail(ReportRecord, { id });
      expect(stored).toMatchObject({ hostId: 'host-1', hostId2: 'host-2', receivedAt, encoding: 'base64', size: 5, sha256: 'b'.repeat(64) });
      expect(stored.hostRecord.id).toBe(hostRecordId(keyId, 'host-1'));
      expect(await reportBytesOf(stored)).toEqual(content);
      // Not a Lynis report: no summary columns.
      expect(stored).toMatchObject({ hostname: null, lynisVersion: null, hardeningIndex: null, warningCount: null, suggestionCount: null });
    });

    it('keeps what the Lynis summary says in columns', async () => {
      const summary = lynisSummary();
      const { id } = await new OrmReportStore(orm).save(report('host-1', { summary }));
      const stored = await observer.em.fork().findOneOrFail(ReportRecord, { id });
      expect(stored).toMatchObject({ hostname: 'web-01', lynisVersion: '3.0.8', hardeningIndex: 56, warningCount: 1, suggestionCount: 2 });
    });

    it('shortens summary texts too long for their column, and drops NUL characters', async () => {
      const summary = lynisSummary({ hostname: `a\u0000${'b'.repeat(300)}`, os: { ...lynisSummary().os, fullName: 'x'.repeat(400) } });
      const { id } = await new OrmReportStore(orm).save(report('host-1', { summary }));
      const stored = await observer.em.fork().findOneOrFail(ReportRecord, { id });
      expect(stored.hostname).toBe(`a${'b'.repeat(254)}`);
      const [host] = await hosts();
      expect(host!.osName).toBe('x'.repeat(255));
    });

    it('refuses a report for a key that does not exist', async () => {
      const save = new OrmReportStore(orm).save(report('h', { keyId: MISSING_KEY }));
      await expect(save).rejects.toThrow(/foreign key/i);
      expect(await committedIds()).toEqual([]);
      expect(await hosts()).toEqual([]);
    });
  });

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
      // Saves that arrive while a commit is under way share the next transaction. Each report is compressed first (two
      // at a time, on the threadpool), so how they fall into groups depends on timing; one transaction per report would not.
      expect(transactions.mock.calls.length).toBeLessThan(20);
    });

    it('fails only the report the database refuses; the rest of its group is stored', async () => {
      const store = new OrmReportStore(orm);
      const first = store.save(report('first'));
      const group = [store.save(report('good-1')), store.save(report('bad', { keyId: MISSING_KEY })), store.save(report('good-2'))];
      const results = await Promise.allSettled([first, ...group]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/foreign key/i);
      const stored = await committedIds();
      expect(stored).toHaveLength(3);
      for (const r of [results[0], results[1], results[3]]) expect(stored).toContain((r as PromiseFulfilledResult<{ id: string }>).value.id);
      expect((await hosts()).map((h) => [h.hostId, h.reportCount])).toEqual([
        ['first', 1],
        ['good-1', 1],
        ['good-2', 1],
      ]);
    });

    it('rejects every save of a group that cannot be committed, and keeps working afterwards', async () => {
      const store = new OrmReportStore(orm);
      const first = store.save(report('first'));
      const doomed = [store.save(report('bad-1', { keyId: MISSING_KEY })), store.save(report('bad-2', { keyId: '00000000-0000-4000-8000-00000000beef' }))];
      // Settled together: each save is compressed first, so the doomed ones may fail before the first commits.
      const [firstResult, ...doomedResults] = await Promise.allSettled([first, ...doomed]);
      expect(firstResult).toMatchObject({ status: 'fulfilled', value: { id: expect.any(String) } });
      for (const result of doomedResults) expect(String((result as PromiseRejectedResult).reason)).toMatch(/foreign key/i);
      const { id } = await store.save(report('later'));
      expect((await committedIds()).sort()).toEqual([(await first).id, id].sort());
    });

    it('starts a new transaction where the next report would pass the group size in bytes', async () => {
      const store = new OrmReportStore(orm, { ...ONE_GROUP_AT_A_TIME, maxGroupBytes: 25 });
      const transactions = vi.spyOn(orm.em.getKnex(), 'transaction');
      const content = Buffer.alloc(10, 'a');
      const ids = await Promise.all(['a', 'b', 'c', 'd'].map((host) => store.save(report(host, { content })).then((saved) => saved.id)));
      // a alone (nothing was waiting), then b + c (20 bytes), then d: 30 bytes would pass 25.
      expect(transactions).toHaveBeenCalledTimes(3);
      expect((await committedIds()).sort()).toEqual([...ids].sort());
    });

    itOnPostgresql('commits several groups at once: a host held elsewhere holds up only its own groups, and all add up', async () => {
      const store = new OrmReportStore(orm);
      const at = (time: string) => new Date(`2026-11-01T${time}Z`);
      const warnings = (...ids: string[]) =>
        lynisSummary({ warnings: ids.map((testId) => ({ testId, text: testId, details: null, solution: null })), suggestions: [] });
      const first = await store.save(report('web', { receivedAt: at('10:00:00'), summary: warnings('OLD', 'BOTH') }));
      // Another server's transaction holds web's row, as a long commit would.
      const holder = await observer.em.getKnex().transaction();
      await holder.raw('select id from host where id = ? for update', [hostRecordId(keyId, 'web')]);
      const settled: string[] = [];
      const settle = (name: string, save: Promise<{ id: string }>) => save.then(({ id }) => (settled.push(name), id));
      // Groups at once: web's (its newer report), waiting for its row; web's older report, in a group of its own on
      // another server, waiting too; db's, which commits meanwhile.
      const newer = settle('newer', store.save(report('web', { receivedAt: at('10:02:00'), summary: warnings('NEW', 'BOTH') })));
      const older = settle('older', new OrmReportStore(observer).save(report('web', { receivedAt: at('10:01:00'), summary: warnings('LATE') })));
      const otherSave = settle('db', store.save(report('db', { receivedAt: at('10:00:00'), summary: warnings('BOTH') })));
      try {
        // One group at a time would wait for web's row first.
        const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 5_000).unref());
        expect(await Promise.race([otherSave, timeout])).not.toBe('still waiting');
        expect(settled).toEqual(['db']);
        expect(await committedIds()).toEqual(expect.arrayContaining([first.id, await otherSave]));
      } finally {
        await holder.commit();
      }
      const other = await otherSave;
      const ids = await Promise.all([newer, older]);
      expect((await committedIds()).sort()).toEqual([first.id, other, ...ids].sort());
      expect((await hosts()).map((h) => [h.hostId, h.reportCount, h.firstSeen, h.lastSeen, h.latestReportId])).toEqual([
        ['db', 1, at('10:00:00'), at('10:00:00'), other],
        ['web', 3, at('10:00:00'), at('10:02:00'), ids[0]],
      ]);
      // The newest report's findings, whichever group committed last, and counts equal to the findings grouped.
      const knex = observer.em.getKnex();
      const findings = await knex('host_finding').select('test_id').where('host_record_id', hostRecordId(keyId, 'web')).orderBy('test_id');
      expect(findings.map((row: { test_id: string }) => row.test_id)).toEqual(['BOTH', 'NEW']);
      const counts = (rows: { test_id: string; hosts: number | string }[]) => rows.map((row) => `${row.test_id}:${Number(row.hosts)}`);
      const counted = (await knex('finding_count').select('test_id', 'hosts').orderBy('test_id')) as { test_id: string; hosts: number }[];
      const grouped = (await knex('host_finding').select('test_id').count({ hosts: '*' }).groupBy('test_id').orderBy('test_id')) as {
        test_id: string;
        hosts: number;
      }[];
      expect(counts(counted)).toEqual(['BOTH:2', 'NEW:1']);
      expect(counts(grouped)).toEqual(['BOTH:2', 'NEW:1']);
    });

    itOnPostgresql('runs a group again when it loses a race with another transaction (a deadlock), failing no upload', async () => {
      const store = new OrmReportStore(orm);
      const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
      const transactions = vi.spyOn(orm.em.getKnex(), 'transaction').mockRejectedValueOnce(deadlock).mockRejectedValueOnce(deadlock);
      const { id } = await store.save(report('web'));
      expect(transactions).toHaveBeenCalledTimes(3);
      expect(await committedIds()).toEqual([id]);
    });

    it('keeps reports that were answered when the database is closed and reopened', async () => {
      const store = new OrmReportStore(orm);
      const ids = await Promise.all([1, 2, 3].map((i) => store.save(report(`host-${i}`)).then((saved) => saved.id)));
      await orm.close();
      orm = await openDatabase(database.location);
      const rows = await orm.em.getConnection().execute<{ id: string; host_id: string }[]>('select id, host_id from report order by host_id');
      expect(rows).toEqual(ids.map((id, i) => ({ id, host_id: `host-${i + 1}` })));
    });
  });

  describe('hosts', () => {
    const at = (iso: string) => new Date(`2026-11-01T${iso}Z`);

    it("dates a new host's state from its first report, when one group commit brings several", async () => {
      const store = new OrmReportStore(orm);
      // The first save commits alone; the two that wait meanwhile make one group, both of the new host `late`.
      await Promise.all([
        store.save(report('early', { receivedAt: at('09:00:00') })),
        store.save(report('late', { receivedAt: at('10:00:00') })),
        store.save(report('late', { receivedAt: at('11:00:00') })),
      ]);
      const late = (await hosts()).find((host) => host.hostId === 'late')!;
      expect(late).toMatchObject({ reportCount: 2, firstSeen: at('10:00:00'), lastSeen: at('11:00:00'), state: 'active', stateSince: at('10:00:00') });
    });

    it('keeps one host per key and hostid, counting its reports, its columns from the newest report', async () => {
      const store = new OrmReportStore(orm);
      const saved: string[] = [];
      for (const [time, hostId2, summary] of [
        ['10:00:00', 'first-2', lynisSummary({ hostname: 'old-name', hardeningIndex: 50 })],
        ['12:00:00', 'second-2', lynisSummary({ hostname: 'new-name', hardeningIndex: 70, lynisVersion: '3.1.1' })],
        // Arrives last but was received earlier (another server, a slower clock): it changes no column.
        ['11:00:00', 'late-2', lynisSummary({ hostname: 'late-name', hardeningIndex: 10 })],
      ] as const) {
        saved.push((await store.save(report('web', { receivedAt: at(time), hostId2, summary }))).id);
      }
      const [host, ...others] = await hosts();
      expect(others).toEqual([]);
      expect({ ...host, key: host!.key.id }).toEqual({
        id: hostRecordId(keyId, 'web'),
        key: keyId,
        hostId: 'web',
        hostId2: 'second-2',
        hostname: 'new-name',
        osName: 'Debian GNU/Linux 12 (bookworm)',
        lynisVersion: '3.1.1',
        firstSeen: at('10:00:00'),
        lastSeen: at('12:00:00'),
        reportCount: 3,
        latestReportId: saved[1],
        latestHardeningIndex: 70,
        latestWarningCount: 1,
        latestSuggestionCount: 2,
        customerName: null,
        hostnameAlias: null,
        derivedVersion: DERIVED_VERSION,
        derivedDigest: expect.stringMatching(/^[\w-]{43}$/),
        // Each change of hostid2 is flagged until accepted; the last one shows.
        identityChangedAt: expect.any(Date),
        identityFrom: 'second-2',
        identityTo: 'late-2',
        identityRefused: false,
        // Reported under its key itself, not an enrollment's alias of it.
        enrollmentId: null,
        // Active since its first report, which named no machineid and did not allow auto-purge.
        state: 'active',
        stateSince: at('10:00:00'),
        stateReason: 'reporting',
        machineId: null,
        autoPurge: false,
      });
      // Each report keeps its own hostid2.
      const reports = await observer.em.fork().find(ReportRecord, {}, { orderBy: { receivedAt: 'asc' } });
      expect(reports.map((r) => [r.hostId2, r.hostRecord.id])).toEqual([
        ['first-2', host!.id],
        ['late-2', host!.id],
        ['second-2', host!.id],
      ]);
    });

    it('takes a changed hostid2 as the same host', async () => {
      const store = new OrmReportStore(orm);
      await store.save(report('web', { hostId2: 'before', receivedAt: at('10:00:00') }));
      await store.save(report('web', { hostId2: 'after', receivedAt: at('10:05:00') }));
      expect((await hosts()).map((h) => [h.hostId, h.hostId2, h.reportCount])).toEqual([['web', 'after', 2]]);
    });

    it('keeps the same hostid under two keys as two hosts', async () => {
      const { id: otherKey } = await createKey(orm);
      const store = new OrmReportStore(orm);
      await Promise.all([store.save(report('web')), store.save(report('web', { keyId: otherKey })), store.save(report('web'))]);
      const found = await hosts();
      expect(found.map((h) => [h.key.id, h.reportCount]).sort()).toEqual(
        [
          [keyId, 2],
          [otherKey, 1],
        ].sort(),
      );
      expect(new Set(found.map((h) => h.id))).toEqual(new Set([hostRecordId(keyId, 'web'), hostRecordId(otherKey, 'web')]));
    });

    it('counts every report of a host sent within one group, its columns from the newest', async () => {
      const store = new OrmReportStore(orm, ONE_GROUP_AT_A_TIME);
      const transactions = vi.spyOn(orm.em.getKnex(), 'transaction');
      const saves = ['10:00:00', '10:03:00', '10:01:00', '10:02:00'].map((time, i) =>
        store.save(report('web', { receivedAt: at(time), summary: lynisSummary({ hardeningIndex: i }) })),
      );
      const ids = (await Promise.all(saves)).map((s) => s.id);
      expect(transactions).toHaveBeenCalledTimes(2);
      expect(await hosts()).toMatchObject([
        { reportCount: 4, firstSeen: at('10:00:00'), lastSeen: at('10:03:00'), latestReportId: ids[1], latestHardeningIndex: 1 },
      ]);
    });

    it('stays right when two servers commit groups for the same hosts at the same time', async () => {
      // Two stores on two connections, as two servers would be: interleaved reports for the same ten hosts.
      const stores = [new OrmReportStore(orm), new OrmReportStore(observer)];
      const saves = Array.from({ length: 200 }, (_, i) => stores[i % 2]!.save(report(`host-${i % 10}`, { receivedAt: new Date(Date.now() + i) })));
      const ids = (await Promise.all(saves)).map((s) => s.id);
      expect(new Set(await committedIds())).toEqual(new Set(ids));
      const found = await hosts();
      expect(found.map((h) => [h.hostId, h.reportCount])).toEqual(Array.from({ length: 10 }, (_, i) => [`host-${i}`, 20]));
      // Each host names its newest report, whichever server stored it.
      for (const host of found) expect(host.latestReportId).toBe(ids[190 + Number(host.hostId.slice(5))]);
    });
  });
});
