import { readdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { dialectForUrl, dialectOf, migrationsFor, sqlDialectOf } from './dialects.js';
import { openDatabase, type Database } from './open.js';
import { HostRecord } from './entities.js';
import { openMigratedTo } from './schema-at.test-kit.js';
import { deriveStoredHosts } from '../hosts/host-backfill.js';
import { DERIVED_VERSION } from '../hosts/host-derivation.js';
import { hostRecordId, hostRowsOf } from '../hosts/host-records.js';
import { createKey, listKeys } from '../secrets/license-keys.js';
import { AdminTokenVerifier, createAdminToken, hashAdminToken, listAdminTokens } from '../secrets/admin-tokens.js';
import { readinessProblem } from '../ops/endpoints.js';
import { listResults } from '../policies/policy-results.js';
import { packReport } from '../reports/report-content.js';
import { reportRowsOf } from '../reports/report-store.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(DIALECTS)('database on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  beforeEach(async () => {
    orm = await openDatabase(database.location);
  });
  afterEach(async () => {
    await orm.close();
  });

  it('speaks the dialect its location selects', () => {
    expect(dialectOf(orm.em)).toBe(dialect);
  });

  it('migrations build exactly the schema the entities describe', async () => {
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    const applied = await orm.getMigrator().getExecutedMigrations();
    expect(applied.map((m) => m.name)).toEqual((await migrationsFor(dialect)).map((m) => m.name));
  });

  it('opens an up-to-date database without loading the migrations, and still tells readiness they are all applied', async () => {
    const again = await openDatabase(database.location);
    try {
      expect(again.config.get('migrations').migrationsList).toBeUndefined();
      expect(await readinessProblem({ orm: again, registry: new Registry(), isShuttingDown: () => false })).toBeUndefined();
      expect(again.config.get('migrations').migrationsList).toHaveLength((await migrationsFor(dialect)).length);
    } finally {
      await again.close();
    }
  });

  it('names each migration module as its migration, which is how a start finds them all applied', async () => {
    const { migrationsDirectory } = dialectForUrl(database.location.databaseUrl);
    const modules = (await readdir(migrationsDirectory)).filter((file) => /^\d+-.+\.ts$/.test(file)).map((file) => file.replace(/\.ts$/, ''));
    expect(modules).toEqual((await migrationsFor(dialect)).map((m) => m.name));
  });

  it('writes report and host rows with exactly the columns the entities describe', async () => {
    const columns = (entity: string) =>
      orm
        .getMetadata()
        .get(entity)
        .props.flatMap((property) => property.fieldNames)
        .sort();
    const report = {
      keyId: UNKNOWN_ID,
      hostId: 'web',
      receivedAt: new Date(),
      encoding: 'raw',
      size: 3,
      sha256: 'a'.repeat(64),
      content: Buffer.from('a=1'),
      summary: null,
    } as const;
    const { row, host } = reportRowsOf(report, await packReport(report.content), sqlDialectOf(orm.em));
    expect(Object.keys(row).sort()).toEqual(columns('ReportRecord'));
    expect(Object.keys(hostRowsOf([host], (time) => time)[0]!).sort()).toEqual(columns('HostRecord'));
  });

  it('reopens an existing database without migrating again', async () => {
    await createKey(orm, { label: 'kept' });
    await orm.close();
    orm = await openDatabase(database.location);
    expect((await listKeys(orm)).map((k) => k.label)).toEqual(['kept']);
  });

  it('is ready with the database reachable and every migration applied', async () => {
    expect(await readinessProblem({ orm, registry: new Registry(), isShuttingDown: () => false })).toBeUndefined();
  });

  it('names what keeps it from being ready: a migration not applied, a closed database, a shutdown', async () => {
    // As if the newest code met a database that lacks a migration.
    await orm.em.getConnection().execute("delete from mikro_orm_migrations where name like '0001%'");
    expect(await readinessProblem({ orm, registry: new Registry(), isShuttingDown: () => false })).toBe('1 migration(s) not applied');
    expect(await readinessProblem({ orm, registry: new Registry(), isShuttingDown: () => true })).toBe('shutting down');
    await orm.close();
    expect(await readinessProblem({ orm, registry: new Registry(), isShuttingDown: () => false })).toBe('database unreachable');
  });
});

describe('SQLite upgrade to hosts', () => {
  const database = useTestDatabase('sqlite');

  it('gives the reports stored before hosts existed their hosts, each from its newest report', async () => {
    // A database as the previous release left it: migrated to 0002, with reports of two hosts under one key and
    // the same hostid under a second key.
    const old = await openMigratedTo(database.location, '0002-key-lifecycle');
    const [{ id: keyA }, { id: keyB }] = [await createKey(old), await createKey(old)];
    const insert = (id: string, keyId: string, hostId: string, hostId2: string | null, receivedAt: string) =>
      old.em
        .getConnection()
        .execute('insert into report (id, key_id, host_id, host_id2, received_at, encoding, size, sha256, content) values (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
          id,
          keyId,
          hostId,
          hostId2,
          Date.parse(receivedAt),
          'raw',
          3,
          'a'.repeat(64),
          Buffer.from('a=1'),
        ]);
    await insert('00000000-0000-4000-8000-000000000001', keyA, 'web', 'old-2', '2026-01-01T00:00:00Z');
    await insert('00000000-0000-4000-8000-000000000002', keyA, 'web', 'new-2', '2026-03-01T00:00:00Z');
    await insert('00000000-0000-4000-8000-000000000003', keyA, 'web', null, '2026-02-01T00:00:00Z');
    await insert('00000000-0000-4000-8000-000000000004', keyA, 'db', null, '2026-01-15T00:00:00Z');
    await insert('00000000-0000-4000-8000-000000000005', keyB, 'web', null, '2026-01-20T00:00:00Z');
    await old.close();

    const orm = await openDatabase(database.location);
    try {
      const hosts = await orm.em.fork().find(HostRecord, {}, { orderBy: { firstSeen: 'asc' } });
      expect(hosts.map((h) => ({ ...h, key: h.key.id }))).toEqual([
        expect.objectContaining({
          id: hostRecordId(keyA, 'web'),
          key: keyA,
          hostId: 'web',
          hostId2: 'new-2',
          reportCount: 3,
          firstSeen: new Date('2026-01-01T00:00:00Z'),
          lastSeen: new Date('2026-03-01T00:00:00Z'),
          latestReportId: '00000000-0000-4000-8000-000000000002',
        }),
        expect.objectContaining({
          id: hostRecordId(keyA, 'db'),
          key: keyA,
          hostId: 'db',
          reportCount: 1,
          latestReportId: '00000000-0000-4000-8000-000000000004',
        }),
        expect.objectContaining({
          id: hostRecordId(keyB, 'web'),
          key: keyB,
          hostId: 'web',
          reportCount: 1,
          latestReportId: '00000000-0000-4000-8000-000000000005',
        }),
      ]);
      const reports = await orm.em
        .getConnection()
        .execute<{ id: string; host_record_id: string; content: Buffer }[]>('select id, host_record_id, content from report order by id');
      expect(reports.map((r) => r.host_record_id)).toEqual([keyA, keyA, keyA, keyA, keyB].map((key, i) => hostRecordId(key, i === 3 ? 'db' : 'web')));
      expect(reports.every((r) => Buffer.from(r.content).toString() === 'a=1')).toBe(true);
      expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    } finally {
      await orm.close();
    }
  });
});

describe.each(DIALECTS)('upgrade to the fleet view on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  /** The last migration before the fleet view, per dialect. */
  const before = { sqlite: '0006-report-received-at-index', postgresql: '0004-report-received-at-index' }[dialect];

  it('keeps the hosts stored before, not yet derived, and derives them from their newest report', async () => {
    const { location } = database;
    const sql = dialectForUrl(location.databaseUrl);
    const old = await openMigratedTo(location, before);
    const { id: keyId } = await createKey(old);
    const hostId = hostRecordId(keyId, 'web');
    const time = (iso: string) => sql.toDatabaseTime(new Date(iso));
    const knex = old.em.getKnex();
    await knex('host').insert({
      id: hostId,
      key_id: keyId,
      host_id: 'web',
      hostname: 'web-01',
      first_seen: time('2026-10-01T00:00:00Z'),
      last_seen: time('2026-10-02T00:00:00Z'),
      report_count: 2,
      latest_report_id: '00000000-0000-4000-8000-000000000002',
      latest_hardening_index: 61,
    });
    const report = (id: string, receivedAt: string, content: string) =>
      knex('report').insert({
        id,
        key_id: keyId,
        host_record_id: hostId,
        host_id: 'web',
        received_at: time(receivedAt),
        encoding: 'raw',
        size: content.length,
        sha256: 'a'.repeat(64),
        content: Buffer.from(content),
        hostname: 'web-01',
        hardening_index: 61,
      });
    await report('00000000-0000-4000-8000-000000000001', '2026-10-01T00:00:00Z', 'lynis_version=3.0.8\ntags=old\n');
    await report(
      '00000000-0000-4000-8000-000000000002',
      '2026-10-02T00:00:00Z',
      'lynis_version=3.0.8\nsystem-groups=web\ntags=prod\nwarning[]=PKGS-7392|Vulnerable packages|-|-|\n',
    );
    await old.close();

    const orm = await openDatabase(location);
    try {
      expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
      const fresh = await orm.em.fork().findOneOrFail(HostRecord, { id: hostId });
      expect(fresh).toMatchObject({ derivedVersion: 0, latestWarningCount: null, latestHardeningIndex: 61, reportCount: 2 });
      expect(await deriveStoredHosts(orm)).toBe(1);
      const derived = await orm.em.fork().findOneOrFail(HostRecord, { id: hostId });
      expect(derived).toMatchObject({ derivedVersion: DERIVED_VERSION, latestWarningCount: 1, latestSuggestionCount: 0 });
      const labels = await orm.em.getKnex()('host_label').select('kind', 'value').orderBy(['kind', 'value']);
      expect(labels).toEqual([
        { kind: 'group', value: 'web' },
        { kind: 'tag', value: 'prod' },
      ]);
      expect(await orm.em.getKnex()('host_finding').select('kind', 'test_id', 'text')).toEqual([
        { kind: 'warning', test_id: 'PKGS-7392', text: 'Vulnerable packages' },
      ]);
    } finally {
      await orm.close();
    }
  });
});

describe.each(DIALECTS)('upgrade to ordered policy results on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  /** The last migration before results held their host's name, per dialect. */
  const before = { sqlite: '0012-fleet-counts', postgresql: '0010-fleet-counts' }[dialect];

  it("gives the results stored before their host's name, and pages them by it", async () => {
    const { location } = database;
    const sql = dialectForUrl(location.databaseUrl);
    const old = await openMigratedTo(location, before);
    const { id: keyId } = await createKey(old);
    const knex = old.em.getKnex();
    const time = sql.toDatabaseTime(new Date('2026-10-02T00:00:00Z'));
    const policyId = '00000000-0000-4000-8000-0000000000aa';
    const hosts = [
      ['zulu', 'zulu-01'],
      ['alpha', 'alpha-01'],
      ['none', null],
    ] as const;
    for (const [hostId, hostname] of hosts) {
      const id = hostRecordId(keyId, hostId);
      await knex('host').insert({
        id,
        key_id: keyId,
        host_id: hostId,
        hostname,
        first_seen: time,
        last_seen: time,
        report_count: 1,
        latest_report_id: UNKNOWN_ID,
      });
      await knex('policy_result').insert({
        policy_id: policyId,
        rule_id: 'index',
        host_record_id: id,
        status: 'fail',
        report_id: UNKNOWN_ID,
        evaluated_at: time,
        since: time,
      });
    }
    await knex('policy_status_count').insert({ policy_id: policyId, rule_id: 'index', status: 'fail', hosts: 3 });
    await old.close();

    const orm = await openDatabase(location);
    try {
      expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
      const page = await listResults(orm, policyId, { limit: 10, offset: 0 });
      expect(page.items.map((result) => result.hostname)).toEqual(['alpha-01', 'zulu-01', null]);
      expect(page.total).toBe(3);
    } finally {
      await orm.close();
    }
  });
});

describe.each(DIALECTS)('upgrade to admin token roles on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  /** The last migration before admin tokens had a role, per dialect. */
  const before = { sqlite: '0018-webhook-delivery-host', postgresql: '0016-webhook-delivery-host' }[dialect];

  it('makes every token stored before an admin, still accepted', async () => {
    const { location } = database;
    const old = await openMigratedTo(location, before);
    const token = `adm_${'7'.repeat(64)}`;
    await old.em
      .getKnex()('admin_token')
      .insert({
        id: UNKNOWN_ID,
        token_hash: hashAdminToken(token),
        prefix: '77777777',
        label: 'from before roles',
        created_at: dialectForUrl(location.databaseUrl).toDatabaseTime(new Date('2026-10-01T00:00:00Z')),
      });
    await old.close();

    const orm = await openDatabase(location);
    try {
      expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
      expect(await listAdminTokens(orm)).toMatchObject([{ id: UNKNOWN_ID, label: 'from before roles', role: 'admin' }]);
      expect(await new AdminTokenVerifier(orm).verify(token)).toEqual({ tokenId: UNKNOWN_ID, role: 'admin', scope: { customers: [], groups: [] } });
      const { id } = await createAdminToken(orm, { role: 'viewer' });
      expect((await listAdminTokens(orm, id))[0]?.role).toBe('viewer');
    } finally {
      await orm.close();
    }
  });
});

describe.each(DIALECTS)('upgrade to tokens that belong to someone on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  /** The last migration before tokens had a kind, an owner or a service account, per dialect. */
  const before = { sqlite: '0021-sessions', postgresql: '0019-sessions' }[dialect];

  it('makes every token stored before an admin service token named after its label, still accepted', async () => {
    const { location } = database;
    const old = await openMigratedTo(location, before);
    const time = (iso: string) => dialectForUrl(location.databaseUrl).toDatabaseTime(new Date(iso));
    const labelled = `adm_${'8'.repeat(64)}`;
    const unlabelled = `adm_${'9'.repeat(64)}`;
    await old.em
      .getKnex()('admin_token')
      .insert([
        {
          id: UNKNOWN_ID,
          token_hash: hashAdminToken(labelled),
          prefix: '88888888',
          label: 'siem export',
          role: 'admin',
          created_at: time('2026-10-01T00:00:00Z'),
        },
        {
          id: '00000000-0000-4000-8000-000000000002',
          token_hash: hashAdminToken(unlabelled),
          prefix: '99999999',
          label: null,
          role: 'viewer',
          created_at: time('2026-10-02T00:00:00Z'),
        },
      ]);
    await old.close();

    const orm = await openDatabase(location);
    try {
      expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
      expect(await listAdminTokens(orm)).toMatchObject([
        { id: UNKNOWN_ID, kind: 'service', serviceAccount: 'siem export', owner: null, role: 'admin', expiresAt: null, scope: { customers: [], groups: [] } },
        { kind: 'service', serviceAccount: 'admin token', owner: null, role: 'viewer', expiresAt: null },
      ]);
      const verifier = new AdminTokenVerifier(orm);
      expect(await verifier.verify(labelled)).toEqual({ tokenId: UNKNOWN_ID, role: 'admin', scope: { customers: [], groups: [] } });
      expect(await verifier.verify(unlabelled)).toMatchObject({ role: 'viewer' });
    } finally {
      await orm.close();
    }
  });
});

describe.each(DIALECTS)('upgrade to resolutions that keep their episode start on %s', (dialect) => {
  const database = useTestDatabase(dialect);

  it('gives each resolution stored before it the start of its episode: the first sighting, or the regression before', async () => {
    const before = dialect === 'sqlite' ? '0033-time-to-fix-snapshot' : '0031-time-to-fix-snapshot';
    const old = await openMigratedTo(database.location, before);
    const knex = old.em.getKnex();
    const time = (day: number) => sqlDialectOf(old.em).toDatabaseTime(new Date(Date.UTC(2026, 5, day)));
    const finding = (id: string) => ({
      id,
      host_record_id: UNKNOWN_ID,
      kind: 'warning',
      test_id: `T-${id.at(-1)}`,
      text: 'x',
      state: 'resolved',
      state_since: time(9),
      first_seen: time(1),
      last_seen: time(8),
    });
    const [once, twice] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    await knex('finding').insert([finding(once), finding(twice)]);
    const moves: [string, string | null, string, number][] = [
      [once, null, 'open', 1],
      [once, 'open', 'resolved', 3],
      [twice, null, 'open', 1],
      [twice, 'open', 'resolved', 2],
      [twice, 'resolved', 'regressed', 5],
      [twice, 'regressed', 'resolved', 9],
    ];
    await knex('finding_transition').insert(
      moves.map(([findingId, from, to, day], n) => ({
        id: `10000000-0000-4000-8000-00000000000${n}`,
        finding_id: findingId,
        from_state: from,
        to_state: to,
        at: time(day),
      })),
    );
    await old.close();

    const orm = await openDatabase(database.location);
    try {
      const rows = (await orm.em.getKnex()('finding_transition').select('finding_id', 'to_state', 'at', 'episode_started_at').orderBy('id')) as {
        finding_id: string;
        to_state: string;
        at: unknown;
        episode_started_at: unknown;
      }[];
      const day = (value: unknown) => (value === null ? null : new Date(value as string | number | Date).getUTCDate());
      expect(rows.map((row) => [row.finding_id, row.to_state, day(row.at), day(row.episode_started_at)])).toEqual([
        [once, 'open', 1, null],
        [once, 'resolved', 3, 1],
        [twice, 'open', 1, null],
        [twice, 'resolved', 2, 1],
        [twice, 'regressed', 5, null],
        [twice, 'resolved', 9, 5],
      ]);
    } finally {
      await orm.close();
    }
  });
});
