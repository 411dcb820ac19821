import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostLabels, ReportSummary, ReportToStore } from '@org/audit-server-core';
import { readReportBytes } from '@org/audit-server-core';
import { lynisSummary } from '@org/test-support/lynis-summary';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { HostRecord } from '../database/entities.js';
import { deriveStoredHosts, startHostBackfill } from './host-backfill.js';
import { DERIVED_VERSION, MAX_FINDINGS_PER_KIND } from './host-derivation.js';
import { hostRecordId } from './host-records.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey } from '../secrets/license-keys.js';

const labels = (overrides: Partial<HostLabels> = {}): HostLabels => ({ groups: [], tags: [], customerName: null, hostnameAlias: null, ...overrides });
const finding = (testId: string, text = `text of ${testId}`) => ({ testId, text, details: null, solution: null });
/** For tests of what one group holds: the saves made while the first commits then share the next group on every dialect. */
const ONE_GROUP_AT_A_TIME = { concurrentGroups: 1 };

describe.each(DIALECTS)('host labels and findings on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  /** A second connection: what it sees has been committed. */
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

  const at = (time: string) => new Date(`2026-11-01T${time}Z`);
  const report = (hostId: string, receivedAt: Date, summary: ReportSummary | null, hostLabels: HostLabels | null = null, key = keyId): ReportToStore => ({
    keyId: key,
    hostId,
    receivedAt,
    encoding: 'raw',
    size: 3,
    sha256: 'a'.repeat(64),
    content: Buffer.from('a=1'),
    summary,
    labels: hostLabels,
  });

  /** What the database holds for a host: its derived columns, labels in order, findings sorted. */
  async function derivedOf(hostId: string, key = keyId) {
    const id = hostRecordId(key, hostId);
    const knex = observer.em.getKnex();
    const host = await observer.em.fork().findOneOrFail(HostRecord, { id });
    const labelRows = (await knex('host_label').select('kind', 'value').where('host_record_id', id).orderBy(['kind', 'position'])) as {
      kind: string;
      value: string;
    }[];
    const findings = (await knex('host_finding').select('kind', 'test_id', 'text').where('host_record_id', id).orderBy(['kind', 'test_id'])) as {
      kind: string;
      test_id: string;
      text: string;
    }[];
    return {
      latestReportId: host.latestReportId,
      warnings: host.latestWarningCount ?? null,
      suggestions: host.latestSuggestionCount ?? null,
      customerName: host.customerName ?? null,
      hostnameAlias: host.hostnameAlias ?? null,
      derivedVersion: host.derivedVersion,
      groups: labelRows.filter((row) => row.kind === 'group').map((row) => row.value),
      tags: labelRows.filter((row) => row.kind === 'tag').map((row) => row.value),
      findings: findings.map((row) => `${row.kind}:${row.test_id}:${row.text}`),
    };
  }

  /** The hosts per finding as counted (`finding_count`), and as the findings themselves hold them: the two must agree. */
  async function findingCounts() {
    const knex = observer.em.getKnex();
    const key = (row: { kind: string; test_id: string; hosts: number | string }) => `${row.kind}:${row.test_id}:${Number(row.hosts)}`;
    const counted = await knex('finding_count').select<{ kind: string; test_id: string; hosts: number }[]>('kind', 'test_id', 'hosts');
    const grouped = await knex('host_finding')
      .select('kind', 'test_id')
      .count({ hosts: '*' })
      .groupBy<{ kind: string; test_id: string; hosts: number }[]>('kind', 'test_id');
    return { counted: counted.map(key).sort(), grouped: grouped.map(key).sort() };
  }

  it('counts the hosts of each finding as uploads add and remove findings, and drops a finding no host has', async () => {
    const store = new OrmReportStore(orm);
    const warnings = (...ids: string[]) => lynisSummary({ warnings: ids.map((id) => finding(id)), suggestions: [finding('SSH-7408')] });
    await Promise.all([
      store.save(report('a', at('10:00:00'), warnings('AUTH-1', 'PKGS-7392'))),
      store.save(report('b', at('10:00:00'), warnings('PKGS-7392'))),
      store.save(report('c', at('10:00:00'), warnings('AUTH-1', 'GONE-1'))),
    ]);
    expect(await findingCounts()).toEqual({
      counted: ['suggestion:SSH-7408:3', 'warning:AUTH-1:2', 'warning:GONE-1:1', 'warning:PKGS-7392:2'],
      grouped: ['suggestion:SSH-7408:3', 'warning:AUTH-1:2', 'warning:GONE-1:1', 'warning:PKGS-7392:2'],
    });
    // c drops GONE-1 and gains PKGS-7392; a's text changes (no change in hosts); b stops being a Lynis report.
    await store.save(report('c', at('11:00:00'), warnings('AUTH-1', 'PKGS-7392')));
    await store.save(
      report('a', at('11:00:00'), lynisSummary({ warnings: [finding('AUTH-1', 'new text'), finding('PKGS-7392')], suggestions: [finding('SSH-7408')] })),
    );
    await store.save(report('b', at('11:00:00'), null));
    expect(await findingCounts()).toEqual({
      counted: ['suggestion:SSH-7408:2', 'warning:AUTH-1:2', 'warning:PKGS-7392:2'],
      grouped: ['suggestion:SSH-7408:2', 'warning:AUTH-1:2', 'warning:PKGS-7392:2'],
    });
  });

  it('keeps the counts exact when two servers commit groups that add and remove the same findings at the same time', async () => {
    const stores = [new OrmReportStore(orm), new OrmReportStore(observer)];
    const saves = Array.from({ length: 120 }, (_, i) => {
      const ids = ['COMMON', `ODD-${i % 2}`, `SOME-${i % 5}`, ...(i % 3 === 0 ? ['THIRD'] : [])];
      return stores[i % 2]!.save(
        report(`host-${i % 12}`, new Date(Date.parse('2026-11-01T10:00:00Z') + i), lynisSummary({ warnings: ids.map((id) => finding(id)), suggestions: [] })),
      );
    });
    await Promise.all(saves);
    const { counted, grouped } = await findingCounts();
    expect(counted).toEqual(grouped);
    expect(counted).toContain('warning:COMMON:12');
  });

  it('keeps the groups, tags, customer, alias, counts and findings of the newest report, replacing the previous ones', async () => {
    const store = new OrmReportStore(orm);
    await store.save(
      report(
        'web',
        at('10:00:00'),
        lynisSummary({ warnings: [finding('OLD-1')], suggestions: [] }),
        labels({ groups: ['old'], tags: ['gone'], customerName: 'old customer' }),
      ),
    );
    const { id } = await store.save(
      report(
        'web',
        at('11:00:00'),
        lynisSummary({ warnings: [finding('AUTH-9286'), finding('PKGS-7392')], suggestions: [finding('SSH-7408')] }),
        labels({ groups: ['webservers', 'dmz'], tags: ['production'], customerName: 'acme', hostnameAlias: 'web-01.example.org' }),
      ),
    );
    expect(await derivedOf('web')).toEqual({
      latestReportId: id,
      warnings: 2,
      suggestions: 1,
      customerName: 'acme',
      hostnameAlias: 'web-01.example.org',
      derivedVersion: DERIVED_VERSION,
      groups: ['webservers', 'dmz'],
      tags: ['production'],
      findings: ['suggestion:SSH-7408:text of SSH-7408', 'warning:AUTH-9286:text of AUTH-9286', 'warning:PKGS-7392:text of PKGS-7392'],
    });
  });

  it('leaves them alone when an older report arrives after a newer one, alone or in a group with other hosts', async () => {
    const store = new OrmReportStore(orm, ONE_GROUP_AT_A_TIME);
    const newest = await store.save(report('web', at('12:00:00'), lynisSummary({ warnings: [finding('NEW-1')] }), labels({ groups: ['new'] })));
    const expected = await derivedOf('web');
    // Received earlier (another server, a slower clock), committed later: on its own...
    await store.save(
      report('web', at('11:00:00'), lynisSummary({ warnings: [finding('LATE-1'), finding('LATE-2')] }), labels({ groups: ['late'], customerName: 'late' })),
    );
    expect(await derivedOf('web')).toEqual(expected);
    // ...and in one group with another host's report, which does take its host's place.
    const transactions = vi.spyOn(orm.em.getKnex(), 'transaction');
    const first = store.save(report('db', at('09:00:00'), lynisSummary({ warnings: [] }), labels({ tags: ['first'] })));
    const group = [
      store.save(report('web', at('11:30:00'), null, labels({ groups: ['late-again'] }))),
      store.save(report('db', at('09:30:00'), lynisSummary({ warnings: [finding('DB-1')] }), labels({ tags: ['second'] }))),
    ];
    await Promise.all([first, ...group]);
    expect(transactions).toHaveBeenCalledTimes(2);
    expect(await derivedOf('web')).toEqual(expected);
    expect(expected.latestReportId).toBe(newest.id);
    expect(await derivedOf('db')).toMatchObject({
      tags: ['second'],
      warnings: 1,
      findings: ['suggestion:SUGG-0:finding of SUGG-0', 'suggestion:SUGG-1:finding of SUGG-1', 'warning:DB-1:text of DB-1'],
    });
  });

  it('takes the newest of several reports of a host in one group', async () => {
    const store = new OrmReportStore(orm, ONE_GROUP_AT_A_TIME);
    const transactions = vi.spyOn(orm.em.getKnex(), 'transaction');
    const first = store.save(report('other', at('08:00:00'), null));
    const group = ['10:00:00', '10:03:00', '10:01:00'].map((time, i) =>
      store.save(report('web', at(time), lynisSummary({ warnings: [finding(`W-${i}`)], suggestions: [] }), labels({ groups: [`g-${i}`] }))),
    );
    const ids = (await Promise.all([first, ...group])).map((saved) => saved.id);
    expect(transactions).toHaveBeenCalledTimes(2);
    expect(await derivedOf('web')).toMatchObject({ latestReportId: ids[2], groups: ['g-1'], findings: ['warning:W-1:text of W-1'] });
  });

  it('writes only what changed: a new text or order is applied, and an unchanged report neither reads nor writes a label or finding row', async () => {
    const store = new OrmReportStore(orm);
    const summary = (text: string) => lynisSummary({ warnings: [finding('AUTH-1', 'same'), finding('AUTH-2', text)], suggestions: [] });
    await store.save(report('web', at('10:00:00'), summary('before'), labels({ groups: ['a', 'b', 'c'], tags: ['t'] })));
    await store.save(report('web', at('11:00:00'), summary('after'), labels({ groups: ['c', 'a'], tags: ['t'] })));
    expect(await derivedOf('web')).toMatchObject({ groups: ['c', 'a'], tags: ['t'], findings: ['warning:AUTH-1:same', 'warning:AUTH-2:after'] });
    const writes: string[] = [];
    orm.em.getKnex().on('query', (query: { sql: string }) => {
      if (/\bhost_(label|finding)\b/i.test(query.sql)) writes.push(query.sql);
    });
    await store.save(report('web', at('12:00:00'), summary('after'), labels({ groups: ['c', 'a'], tags: ['t'] })));
    expect(writes).toEqual([]);
    expect(await derivedOf('web')).toMatchObject({ groups: ['c', 'a'], tags: ['t'], findings: ['warning:AUTH-1:same', 'warning:AUTH-2:after'] });
  });

  it('clears labels, findings and counts when the newest report is not a Lynis report', async () => {
    const store = new OrmReportStore(orm);
    await store.save(report('web', at('10:00:00'), lynisSummary(), labels({ groups: ['webservers'], customerName: 'acme' })));
    await store.save(report('web', at('11:00:00'), null, null));
    expect(await derivedOf('web')).toMatchObject({
      warnings: null,
      suggestions: null,
      customerName: null,
      hostnameAlias: null,
      groups: [],
      tags: [],
      findings: [],
    });
  });

  it('stores hostile text exactly, but without NUL and cut to the column, each label and test id once after that', async () => {
    const store = new OrmReportStore(orm);
    const summary = lynisSummary({
      warnings: [
        finding('AUTH-1', 'b'),
        finding('AUTH-1', 'a'),
        finding('AUTH-\u00001', 'c'),
        finding(`${'T'.repeat(70)}`, `é\u0000${'x'.repeat(300)}`),
        finding('', 'no test id'),
      ],
      suggestions: [finding("X'); drop table host;--", '<script>alert(1)</script>')],
    });
    const hostLabels = labels({
      groups: ['a\u0000b', 'ab', '\u0000'],
      tags: ['tab\there', '😀'.repeat(200)],
      customerName: 'acme\u0000',
      hostnameAlias: 'x'.repeat(300),
    });
    await store.save(report('web', at('10:00:00'), summary, hostLabels));
    const derived = await derivedOf('web');
    expect(derived.groups).toEqual(['ab']);
    // 255 code units would cut the 128th emoji in half: the cut falls before it.
    expect(derived.tags).toEqual(['tab\there', '😀'.repeat(127)]);
    expect(derived.customerName).toBe('acme');
    expect(derived.hostnameAlias).toBe('x'.repeat(255));
    expect(derived.findings).toEqual([
      `suggestion:X'); drop table host;--:<script>alert(1)</script>`,
      'warning:AUTH-1:a',
      `warning:${'T'.repeat(64)}:é${'x'.repeat(254)}`,
    ]);
    // The counts are the report's own, before any row was merged or dropped.
    expect(derived).toMatchObject({ warnings: 5, suggestions: 1 });
  });

  it('writes big findings lists in chunks, at most a bound per kind and host', async () => {
    const store = new OrmReportStore(orm);
    const many = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => finding(`${prefix}-${i}`));
    const saves = [];
    for (let h = 0; h < 8; h++)
      saves.push(store.save(report(`host-${h}`, at('10:00:00'), lynisSummary({ warnings: many('W', 400), suggestions: many('S', 300) }))));
    saves.push(store.save(report('huge', at('10:00:00'), lynisSummary({ warnings: many('W', 2_000), suggestions: [] }))));
    await Promise.all(saves);
    const counts = await observer.em
      .getKnex()('host_finding')
      .select('host_record_id')
      .count({ rows: '*' })
      .groupBy<{ host_record_id: string; rows: number | string }[]>('host_record_id');
    const byHost = new Map(counts.map((row) => [row.host_record_id, Number(row.rows)]));
    for (let h = 0; h < 8; h++) expect(byHost.get(hostRecordId(keyId, `host-${h}`))).toBe(700);
    expect(byHost.get(hostRecordId(keyId, 'huge'))).toBe(MAX_FINDINGS_PER_KIND);
    expect(await derivedOf('huge')).toMatchObject({ warnings: 2_000 });
  });

  it('stays right when two servers commit groups for the same hosts at the same time', async () => {
    const stores = [new OrmReportStore(orm), new OrmReportStore(observer)];
    const saves = Array.from({ length: 120 }, (_, i) =>
      stores[i % 2]!.save(
        report(
          `host-${i % 6}`,
          new Date(Date.parse('2026-11-01T10:00:00Z') + i),
          lynisSummary({ warnings: [finding(`W-${i}`)], suggestions: [] }),
          labels({ groups: [`g-${i}`] }),
        ),
      ),
    );
    await Promise.all(saves);
    for (let h = 0; h < 6; h++) {
      const newest = 114 + h;
      expect(await derivedOf(`host-${h}`)).toMatchObject({ groups: [`g-${newest}`], findings: [`warning:W-${newest}:text of W-${newest}`] });
    }
  });

  describe('hosts stored before the derivation', () => {
    const lynisReport = (...lines: string[]) => Buffer.from(['lynis_version=3.0.8', 'hardening_index=61', ...lines, ''].join('\n'));

    /** A host and its reports as the previous release wrote them: no labels, findings or counts; `derived_version` 0. */
    async function storeTheOldWay(hostId: string, reports: { id: string; receivedAt: string; content: Buffer }[]) {
      const knex = orm.em.getKnex();
      const times = reports.map((r) => Date.parse(r.receivedAt));
      const toTime = (ms: number) => (dialect === 'sqlite' ? ms : new Date(ms));
      const id = hostRecordId(keyId, hostId);
      await knex('host').insert({
        id,
        key_id: keyId,
        host_id: hostId,
        host_id2: null,
        hostname: hostId,
        os_name: null,
        lynis_version: '3.0.8',
        first_seen: toTime(Math.min(...times)),
        last_seen: toTime(Math.max(...times)),
        report_count: reports.length,
        latest_report_id: reports[reports.length - 1]!.id,
        latest_hardening_index: 61,
      });
      for (const r of reports) {
        await knex('report').insert({
          id: r.id,
          key_id: keyId,
          host_record_id: id,
          host_id: hostId,
          host_id2: null,
          received_at: toTime(Date.parse(r.receivedAt)),
          encoding: 'raw',
          size: r.content.length,
          sha256: 'a'.repeat(64),
          content: r.content,
          hostname: hostId,
          lynis_version: '3.0.8',
          hardening_index: 61,
          warning_count: null,
          suggestion_count: null,
        });
      }
    }

    it('derives them from their newest report in the background, in batches, and leaves a host an upload derived meanwhile', async () => {
      await storeTheOldWay('old-1', [
        { id: '00000000-0000-4000-8000-000000000001', receivedAt: '2026-10-01T00:00:00Z', content: lynisReport('tags=stale', 'warning[]=OLD-1|old|-|-|') },
        {
          id: '00000000-0000-4000-8000-000000000002',
          receivedAt: '2026-10-02T00:00:00Z',
          content: lynisReport(
            'system-groups=web, dmz',
            'tags=prod',
            'system-customer-name=acme',
            'hostname_alias=old-1.example.org',
            'warning[]=PKGS-7392|Found vulnerable packages|-|-|',
            'suggestion[]=SSH-7408|Harden SSH|-|-|',
            'suggestion[]=SSH-7408|Harden SSH more|-|-|',
          ),
        },
      ]);
      await storeTheOldWay('old-2', [
        { id: '00000000-0000-4000-8000-000000000003', receivedAt: '2026-10-01T00:00:00Z', content: Buffer.from('not a lynis report') },
      ]);
      await storeTheOldWay('old-3', [
        { id: '00000000-0000-4000-8000-000000000004', receivedAt: '2026-10-01T00:00:00Z', content: lynisReport('tags=before-upload') },
      ]);
      expect(await derivedOf('old-1')).toMatchObject({ derivedVersion: 0, groups: [], findings: [], warnings: null });
      // An upload for old-3 commits between the backfill's read of its report and its write: the upload's wins. One
      // host per batch, so the upload goes in just before the transaction of old-3's batch.
      const newer = lynisReport('tags=from-upload');
      const reading = readReportBytes(newer)!;
      const old3Batch = ['old-1', 'old-2', 'old-3']
        .map((hostId) => hostRecordId(keyId, hostId))
        .sort()
        .indexOf(hostRecordId(keyId, 'old-3'));
      const knex = orm.em.getKnex();
      const transaction = knex.transaction.bind(knex) as (...args: unknown[]) => Promise<unknown>;
      let batches = 0;
      const spy = vi.spyOn(knex, 'transaction').mockImplementation((async (...args: unknown[]) => {
        if (batches++ === old3Batch)
          await new OrmReportStore(observer).save(report('old-3', new Date('2026-10-05T00:00:00Z'), reading.summary, reading.labels));
        return transaction(...args);
      }) as never);

      expect(await deriveStoredHosts(orm, { batchSize: 1, pauseMs: 0 })).toBe(2);
      spy.mockRestore();
      expect(batches).toBe(3);
      expect(await derivedOf('old-1')).toEqual({
        latestReportId: '00000000-0000-4000-8000-000000000002',
        warnings: 1,
        suggestions: 2,
        customerName: 'acme',
        hostnameAlias: 'old-1.example.org',
        derivedVersion: DERIVED_VERSION,
        groups: ['web', 'dmz'],
        tags: ['prod'],
        findings: ['suggestion:SSH-7408:Harden SSH', 'warning:PKGS-7392:Found vulnerable packages'],
      });
      expect(await derivedOf('old-2')).toMatchObject({ derivedVersion: DERIVED_VERSION, warnings: null, suggestions: null, groups: [], findings: [] });
      expect(await derivedOf('old-3')).toMatchObject({ derivedVersion: DERIVED_VERSION, tags: ['from-upload'] });
      // Nothing is left to do.
      expect(await deriveStoredHosts(orm)).toBe(0);
      const { counted, grouped } = await findingCounts();
      expect(counted).toEqual(grouped);
      expect(counted).toEqual(['suggestion:SSH-7408:1', 'warning:PKGS-7392:1']);
    });

    it('runs at start in the background, logs what it did, and stops with the server', async () => {
      await storeTheOldWay('old-1', [{ id: '00000000-0000-4000-8000-000000000001', receivedAt: '2026-10-01T00:00:00Z', content: lynisReport('tags=prod') }]);
      const logged: unknown[] = [];
      const logger = { info: (fields: unknown) => void logged.push(fields), error: (fields: unknown) => void logged.push(fields) };
      const backfill = startHostBackfill(orm, logger);
      await vi.waitFor(() => expect(logged).toEqual([expect.objectContaining({ component: 'backfill', derived: 1 })]));
      await backfill.stop();
      expect(await derivedOf('old-1')).toMatchObject({ tags: ['prod'], derivedVersion: DERIVED_VERSION });
      // Stopping waits for the batch under way, so the database can be closed right after.
      await storeTheOldWay('old-2', [{ id: '00000000-0000-4000-8000-000000000002', receivedAt: '2026-10-01T00:00:00Z', content: lynisReport('tags=later') }]);
      await startHostBackfill(orm, logger).stop();
      await orm.close();
      orm = await openDatabase(database.location);
      expect(logged.filter((fields) => (fields as { error?: unknown }).error !== undefined)).toEqual([]);
    });
  });
});
