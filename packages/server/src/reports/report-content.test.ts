import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportToStore } from '@org/audit-server-core';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { dialectForUrl } from '../database/dialects.js';
import { openMigratedTo } from '../database/schema-at.test-kit.js';
import { openDatabase, type Database } from '../database/open.js';
import { hostRecordId } from '../hosts/host-records.js';
import { CONTENT_COLUMNS, DamagedReportError, reportBytesOf, type ContentColumns } from './report-content.js';
import { ReportCompactor } from './report-compaction.js';
import { OrmReportStore } from './report-store.js';
import { pruneReports } from './retention.js';
import { createKey } from '../secrets/license-keys.js';

describe.each(DIALECTS)('compact report storage on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  let keyId: string;
  beforeEach(async () => {
    orm = await openDatabase(database.location);
    ({ id: keyId } = await createKey(orm));
  });
  afterEach(() => orm.close());

  const save = (content: Buffer, hostId = 'web', receivedAt = new Date()) => {
    const report: ReportToStore = { keyId, hostId, receivedAt, encoding: 'raw', size: content.length, sha256: 'a'.repeat(64), content, summary: null };
    return new OrmReportStore(orm).save(report).then((saved) => saved.id);
  };
  const row = async (id: string) =>
    (
      (await orm.em
        .getKnex()('report')
        .select(...CONTENT_COLUMNS)
        .where('id', id)) as ContentColumns[]
    )[0]!;
  const stored = async (id: string) => reportBytesOf(await row(id));
  const compact = () => new ReportCompactor(orm).settle();
  const encodings = async () => (await orm.em.getKnex()('report').select<{ encoding: string }[]>('content_encoding as encoding')).map((r) => r.encoding);

  it('stores an upload as received, then the compaction pass compresses it; it reads back exactly before, during and after', async () => {
    const content = Buffer.from(lynisCapture.report);
    const id = await save(content);
    expect(await row(id)).toMatchObject({ contentEncoding: 'pending' });
    expect((await row(id)).content.length).toBe(content.length);
    expect((await stored(id)).equals(content)).toBe(true);
    const compacting = compact();
    expect((await stored(id)).equals(content)).toBe(true);
    await compacting;
    expect((await row(id)).contentEncoding).toBe('br');
    expect((await stored(id)).equals(content)).toBe(true);
  });

  it('compacts a backlog in batches, leaving nothing pending, while uploads go on', async () => {
    const contents = Array.from({ length: 30 }, (_, i) => Buffer.from(`${lynisCapture.report.toString('latin1')}\nday=${i}\n`, 'latin1'));
    const ids = await Promise.all(contents.slice(0, 20).map((content) => save(content)));
    const compactor = new ReportCompactor(orm, { batch: { reports: 3, bytes: 2 * lynisCapture.report.length } });
    const settling = compactor.settle();
    ids.push(...(await Promise.all(contents.slice(20).map((content) => save(content)))));
    await settling;
    await compactor.settle();
    expect(new Set(await encodings())).toEqual(new Set(['br']));
    for (const [i, id] of ids.entries()) expect((await stored(id)).equals(contents[i]!)).toBe(true);
  });

  it('while uploads are under way, compacts one small batch per pass and leaves the rest for later', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await save(Buffer.from(`os=Linux\nrun=${i}\n`.repeat(200))));
    let busy = true;
    const compactor = new ReportCompactor(orm, { isBusy: () => busy, busyBatch: { reports: 2, bytes: 1 << 20 }, intervalMs: 3_600_000, wakeDelayMs: 0 });
    compactor.start();
    await vi.waitFor(async () => expect((await encodings()).filter((e) => e === 'br')).toHaveLength(2));
    expect((await encodings()).filter((e) => e === 'pending')).toHaveLength(3);
    busy = false;
    compactor.wake();
    await vi.waitFor(async () => expect((await encodings()).filter((e) => e === 'pending')).toHaveLength(0));
    await compactor.stop();
  });

  it('leaves a pending report that no longer matches its SHA-256 as it is, never served, and compacts the others', async () => {
    const knex = orm.em.getKnex();
    const [victim, other] = [await save(Buffer.from('os=Linux\n'.repeat(100))), await save(Buffer.from('os=BSD\n'.repeat(100)))];
    await knex('report')
      .where('id', victim)
      .update({ content: Buffer.from('os=Evil\n'.repeat(100)) });
    await compact();
    expect((await row(victim)).contentEncoding).toBe('identity');
    await expect(stored(victim)).rejects.toThrow(DamagedReportError);
    expect((await row(other)).contentEncoding).toBe('br');
    expect((await stored(other)).equals(Buffer.from('os=BSD\n'.repeat(100)))).toBe(true);
  });

  it('gives back exactly the bytes it kept, whatever they are, before and after compaction', async () => {
    const inputs = {
      'every byte value (latin1, NUL, CR)': Buffer.from(Array.from({ length: 1024 }, (_, i) => i % 256)),
      'one byte': Buffer.from('x'),
      'incompressible bytes': randomBytes(4096),
      'a large report': Buffer.concat(Array.from({ length: 100 }, () => lynisCapture.report)),
    };
    const ids = [];
    for (const [name, content] of Object.entries(inputs)) {
      ids.push(await save(Buffer.from(content)));
      expect((await stored(ids.at(-1)!)).equals(content), name).toBe(true);
    }
    await compact();
    for (const [i, content] of Object.values(inputs).entries()) expect((await stored(ids[i]!)).equals(content)).toBe(true);
  });

  it('keeps the captured Lynis report in at most 0.3 × its size once compacted, and reports that do not shrink as they are', async () => {
    const [lynisId, randomId] = [await save(Buffer.from(lynisCapture.report)), await save(randomBytes(4096))];
    await compact();
    const lynis = await row(lynisId);
    expect(lynis.contentEncoding).toBe('br');
    expect(lynis.content.length).toBeLessThanOrEqual(0.3 * lynisCapture.report.length);
    const random = await row(randomId);
    expect(random.contentEncoding).toBe('identity');
    expect(random.content.length).toBe(4096);
  });

  it('refuses to give back bytes that do not match their SHA-256, or that do not decode', async () => {
    const knex = orm.em.getKnex();
    const [victim, other, garbled] = [
      await save(Buffer.from('os=Linux\n'.repeat(100))),
      await save(Buffer.from('os=BSD\n'.repeat(100))),
      await save(Buffer.from('os=Linux\n'.repeat(100))),
    ];
    await compact();
    await knex('report')
      .where('id', victim)
      .update({ content: knex('report').select('content').where('id', other) });
    await expect(stored(victim)).rejects.toThrow(new DamagedReportError(victim, 'its bytes do not match their SHA-256'));
    await knex('report')
      .where('id', garbled)
      .update({ content: Buffer.from('not brotli at all') });
    await expect(stored(garbled)).rejects.toThrow(DamagedReportError);
    await knex('report').where('id', other).update({ content_encoding: 'zstd' });
    await expect(stored(other)).rejects.toThrow(/unknown content encoding "zstd"/);
  });

  it('lets retention delete any report, and the reports it keeps still read', async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 10, n));
    const contents = [1, 2, 3, 4].map((n) => Buffer.from(`${lynisCapture.report.toString('latin1')}\nday=${n}\n`, 'latin1'));
    const ids = [];
    for (const [i, content] of contents.entries()) ids.push(await save(content, 'web', day(i + 1)));
    await compact();
    ids.push(await save(contents[3]!, 'web', day(5)));
    contents.push(contents[3]!);
    // Compressed and pending reports alike.
    expect(await pruneReports(orm, { keepLast: 2 })).toBe(3);
    const left = (await orm.em.getKnex()('report').select('id').orderBy('received_at')) as { id: string }[];
    expect(left.map((r) => r.id)).toEqual(ids.slice(3));
    for (const [i, id] of ids.slice(3).entries()) expect((await stored(id)).equals(contents[i + 3]!)).toBe(true);
  });
});

describe.each(DIALECTS)('upgrade to compact storage on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  /** The last migration before compact storage, per dialect. */
  const before = { sqlite: '0009-webhooks', postgresql: '0007-webhooks' }[dialect];

  it('reads the reports stored before as they are, and keeps new ones compressed beside them', async () => {
    const { location } = database;
    const sql = dialectForUrl(location.databaseUrl);
    const old = await openMigratedTo(location, before);
    const { id: keyId } = await createKey(old);
    const hostId = hostRecordId(keyId, 'web');
    const knex = old.em.getKnex();
    const now = sql.toDatabaseTime(new Date());
    await knex('host').insert({
      id: hostId,
      key_id: keyId,
      host_id: 'web',
      first_seen: now,
      last_seen: now,
      report_count: 1,
      latest_report_id: '00000000-0000-4000-8000-000000000001',
    });
    const oldContent = Buffer.from([...lynisCapture.report.subarray(0, 500), 0xe9, 0x00, 0xff]);
    await knex('report').insert({
      id: '00000000-0000-4000-8000-000000000001',
      key_id: keyId,
      host_record_id: hostId,
      host_id: 'web',
      received_at: now,
      encoding: 'raw',
      size: oldContent.length,
      sha256: 'a'.repeat(64),
      content: oldContent,
    });
    await old.close();

    const orm = await openDatabase(location);
    try {
      const [oldRow] = (await orm.em
        .getKnex()('report')
        .select(...CONTENT_COLUMNS)
        .where('id', '00000000-0000-4000-8000-000000000001')) as ContentColumns[];
      expect(oldRow).toMatchObject({ contentEncoding: 'identity', contentSha256: null });
      expect((await reportBytesOf(oldRow!)).equals(oldContent)).toBe(true);
      const report: ReportToStore = {
        keyId,
        hostId: 'web',
        receivedAt: new Date(),
        encoding: 'raw',
        size: 3,
        sha256: 'a'.repeat(64),
        content: Buffer.from(lynisCapture.report),
        summary: null,
      };
      const { id } = await new OrmReportStore(orm).save(report);
      await new ReportCompactor(orm).settle();
      const [oldAfter] = (await orm.em
        .getKnex()('report')
        .select(...CONTENT_COLUMNS)
        .where('id', '00000000-0000-4000-8000-000000000001')) as ContentColumns[];
      expect(oldAfter).toMatchObject({ contentEncoding: 'identity', contentSha256: null });
      const [newRow] = (await orm.em
        .getKnex()('report')
        .select(...CONTENT_COLUMNS)
        .where('id', id)) as ContentColumns[];
      expect(newRow!.contentEncoding).toBe('br');
      expect((await reportBytesOf(newRow!)).equals(lynisCapture.report)).toBe(true);
    } finally {
      await orm.close();
    }
  });
});
