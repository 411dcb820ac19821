import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReportBytes } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { AdminTokenRecord } from '../database/entities.js';
import { sqlDialectOf } from '../database/dialects.js';
import { openDatabase, type Database } from '../database/open.js';
import type { FindingState, TimeToFix } from '../generated/types.gen.js';
import { hostRecordId } from '../hosts/host-records.js';
import { scopeColumns, UNSCOPED, type AccessScope } from '../people/scope.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { currentTimeToFix, takeTimeToFixSnapshot, TimeToFixSnapshots } from './time-to-fix-snapshot.js';
import { EPISODE_START, writeTransitions } from './finding-records.js';
import { timeToFix } from './time-to-fix.js';

const HOUR_MS = 3_600_000;
/** The window's start; every time below is counted in hours from it. */
const W = Date.parse('2026-05-01T00:00:00.000Z');
const at = (hours: number) => new Date(W + hours * HOUR_MS);
/** The window's end: 31 days after its start. */
const TO_HOURS = 744;

/** Hosts with their customer and groups; `gone` is decommissioned once its findings are written. */
const HOSTS = {
  acmeWeb: { customer: 'acme', groups: 'web' },
  acmeDb: { customer: 'acme', groups: 'db' },
  globex: { customer: 'globex', groups: 'web' },
  gone: { customer: 'acme', groups: 'web' },
} as const;
type HostName = keyof typeof HOSTS;

/** A finding's history: first seen, then each change as [state, hours]; its state is the last one. */
interface SeededFinding {
  name: string;
  host: HostName;
  kind: 'warning' | 'suggestion';
  testId: string;
  firstSeen: number;
  changes: [FindingState, number][];
}

/**
 * Resolutions in the window [W, W + 744 h): F1 10 h, F2 24 h (first seen before the window), F3 2 h and, after its
 * regression, 6 h, F4 48 h, F7 8 h (resolved at the window's very start). Left out: F5 (resolved an hour before the
 * window), F6 (resolved at its end, which is not in it), F8 (its host decommissioned).
 */
const FINDINGS: SeededFinding[] = [
  { name: 'F1', host: 'acmeWeb', kind: 'warning', testId: 'SSH-7408', firstSeen: 0, changes: [['resolved', 10]] },
  { name: 'F2', host: 'acmeDb', kind: 'warning', testId: 'SSH-7408', firstSeen: -20, changes: [['resolved', 4]] },
  {
    name: 'F3',
    host: 'acmeDb',
    kind: 'suggestion',
    testId: 'PKGS-7392',
    firstSeen: 0,
    changes: [
      ['resolved', 2],
      ['regressed', 100],
      ['resolved', 106],
    ],
  },
  { name: 'F4', host: 'globex', kind: 'suggestion', testId: 'PKGS-7392', firstSeen: 0, changes: [['resolved', 48]] },
  { name: 'F5', host: 'acmeWeb', kind: 'warning', testId: 'AUTH-9262', firstSeen: -100, changes: [['resolved', -1]] },
  { name: 'F6', host: 'acmeWeb', kind: 'suggestion', testId: 'AUTH-9286', firstSeen: 0, changes: [['resolved', TO_HOURS]] },
  { name: 'F7', host: 'acmeWeb', kind: 'warning', testId: 'FILE-6310', firstSeen: -8, changes: [['resolved', 0]] },
  { name: 'F8', host: 'gone', kind: 'warning', testId: 'SSH-7408', firstSeen: 0, changes: [['resolved', 1]] },
  { name: 'O1', host: 'acmeWeb', kind: 'warning', testId: 'NETW-3032', firstSeen: -300, changes: [] },
  { name: 'O2', host: 'globex', kind: 'warning', testId: 'NETW-3015', firstSeen: -500, changes: [['acknowledged', -400]] },
  { name: 'O3', host: 'gone', kind: 'warning', testId: 'NETW-3001', firstSeen: -1000, changes: [] },
  { name: 'O4', host: 'acmeDb', kind: 'suggestion', testId: 'HRDN-7230', firstSeen: -2000, changes: [['accepted', -1500]] },
];

describe.each(DIALECTS)('time to fix on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let api: AdminApi;
  let admin: string;
  let keyId: string;
  const findingIds = new Map<string, string>();

  /** Makes the hosts with reports that have no findings, then writes the seeded findings and transitions. */
  async function seed(): Promise<void> {
    const store = new OrmReportStore(database);
    for (const [name, host] of Object.entries(HOSTS)) {
      const content = Buffer.from(
        ['report_version_major=1', `hostname=${name}`, `system-groups=${host.groups}`, `system-customer-name=${host.customer}`, ''].join('\n'),
      );
      const reading = readReportBytes(content);
      await store.save({
        keyId,
        hostId: name,
        receivedAt: at(-3000),
        encoding: 'raw',
        size: content.length,
        sha256: 'a'.repeat(64),
        content,
        summary: reading?.summary ?? null,
        labels: reading?.labels,
      });
    }
    const knex = database.em.getKnex();
    const time = (hours: number) => sqlDialectOf(database.em).toDatabaseTime(at(hours));
    await knex('finding_transition').delete();
    await knex('finding').delete();
    for (const finding of FINDINGS) {
      const id = randomUUID();
      findingIds.set(finding.name, id);
      const last = finding.changes.at(-1);
      const resolvedAt = finding.changes.filter(([state]) => state === 'resolved').at(-1)?.[1];
      await knex('finding').insert({
        id,
        host_record_id: hostRecordId(keyId, finding.host),
        kind: finding.kind,
        test_id: finding.testId,
        text: `${finding.name} text`,
        state: last?.[0] ?? 'open',
        state_since: time(last?.[1] ?? finding.firstSeen),
        first_seen: time(finding.firstSeen),
        last_seen: time(last?.[1] ?? finding.firstSeen),
        resolved_at: last?.[0] === 'resolved' && resolvedAt !== undefined ? time(resolvedAt) : null,
        regressions: finding.changes.filter(([state]) => state === 'regressed').length,
      });
      const states: [FindingState | null, FindingState, number][] = [[null, 'open', finding.firstSeen]];
      for (const [state, hours] of finding.changes) states.push([states.at(-1)![1], state, hours]);
      // One call per transition, in order, as the server writes them: a resolution reads its episode's start.
      for (const [from, to, hours] of states) {
        await knex.transaction((trx) => writeTransitions(trx, [{ findingId: id, from, to, at: time(hours), actor: null, reason: null }]));
      }
    }
    await knex('host').where('id', hostRecordId(keyId, 'gone')).update({ state: 'decommissioned' });
  }

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token: admin } = await createAdminToken(database, { label: 'reader', role: 'viewer' }));
    keyId = (await createKey(database)).id;
    api = await createAdminApi({ database });
    await seed();
  });
  afterEach(() => database.close());

  async function get(token: string, query: Record<string, string>): Promise<{ status: number; body: unknown }> {
    const response = await api.handle({
      method: 'GET',
      path: '/api/admin/findings/time-to-fix',
      query,
      headers: { authorization: `Bearer ${token}` },
      body: { kind: 'none' },
    });
    return { status: response.status, body: JSON.parse(response.body as string) as unknown };
  }
  async function figures(query: Record<string, string>, token = admin): Promise<TimeToFix> {
    const { status, body } = await get(token, query);
    expect(status, JSON.stringify(body)).toBe(200);
    return body as TimeToFix;
  }
  const WINDOW = { from: at(0).toISOString(), to: at(TO_HOURS).toISOString() };
  /** O1 resolved at W + 150 h, within the default window of the tests below. */
  const resolveO1 = () =>
    database.em
      .getKnex()
      .transaction((trx) =>
        writeTransitions(trx, [
          { findingId: findingIds.get('O1')!, from: 'open', to: 'resolved', at: sqlDialectOf(database.em).toDatabaseTime(at(150)), actor: null, reason: null },
        ]),
      );

  it('counts each resolution in the window, timed from its episode start, with mean and median', async () => {
    const result = await figures(WINDOW);
    expect(result.from).toBe(WINDOW.from);
    expect(result.to).toBe(WINDOW.to);
    // 2, 6, 8, 10, 24, 48: mean 98 / 6, median (8 + 10) / 2.
    expect(result.overall).toEqual({ resolved: 6, meanHours: 16.33, medianHours: 9 });
    expect(result.byKind).toEqual([
      { key: 'suggestion', resolved: 3, meanHours: 18.67, medianHours: 6 },
      { key: 'warning', resolved: 3, meanHours: 14, medianHours: 10 },
    ]);
    expect(result.byTestId).toEqual([
      { key: 'PKGS-7392', resolved: 3, meanHours: 18.67, medianHours: 6 },
      { key: 'SSH-7408', resolved: 2, meanHours: 17, medianHours: 17 },
      { key: 'FILE-6310', resolved: 1, meanHours: 8, medianHours: 8 },
    ]);
    expect(result.byGroup).toEqual([
      { key: 'db', resolved: 3, meanHours: 10.67, medianHours: 6 },
      { key: 'web', resolved: 3, meanHours: 22, medianHours: 10 },
    ]);
    expect(result.byCustomer).toEqual([
      { key: 'acme', resolved: 5, meanHours: 10, medianHours: 8 },
      { key: 'globex', resolved: 1, meanHours: 48, medianHours: 48 },
    ]);
  });

  it('is read beside the writer: a transaction holding the write connection does not hold it up', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = database.em.getKnex().transaction(async (trx) => {
      await trx('finding').where('id', findingIds.get('O1')!).update({ text: 'being written' });
      await held;
    });
    try {
      const heldUp = new Promise<'held up'>((resolve) => setTimeout(() => resolve('held up'), 5_000));
      const answer = await Promise.race([timeToFix(database, UNSCOPED, { ...WINDOW, hideLynis: true }), heldUp]);
      expect(answer).toMatchObject({ overall: { resolved: 6 } });
    } finally {
      release();
      await writing;
    }
  });

  it('lists the oldest findings still to handle, leaving out accepted ones and decommissioned hosts', async () => {
    const result = await figures(WINDOW);
    expect(result.oldestOpen.map((finding) => [finding.id, finding.state])).toEqual([
      [findingIds.get('O2'), 'acknowledged'],
      [findingIds.get('O1'), 'open'],
    ]);
  });

  it("counts the week before the window's end: opened, resolved, regressed", async () => {
    expect((await figures(WINDOW)).lastWeek).toEqual({ opened: 0, resolved: 0, regressed: 0 });
    // [W, W + 168 h): F1, F3, F4 and F6 first seen; F1, F2, F3 twice, F4 and F7 resolved; F3 regressed.
    expect((await figures({ to: at(168).toISOString() })).lastWeek).toEqual({ opened: 4, resolved: 6, regressed: 1 });
  });

  it('defaults the window to the 90 days before its end', async () => {
    const result = await figures({ to: at(168).toISOString() });
    expect(result.from).toBe(new Date(at(168).getTime() - 90 * 24 * HOUR_MS).toISOString());
    // F5 (99 h, resolved an hour before W) now counts too; F6 (resolved at W + 744 h) does not.
    expect(result.overall).toEqual({ resolved: 7, meanHours: 28.14, medianHours: 10 });
    const unbounded = await figures({});
    expect(Date.now() - Date.parse(unbounded.to)).toBeLessThan(60_000);
    expect(Date.parse(unbounded.to) - Date.parse(unbounded.from)).toBe(90 * 24 * HOUR_MS);
  });

  it('answers 400 when from is after to, and empty figures for an empty window', async () => {
    const refused = await get(admin, { from: at(10).toISOString(), to: at(0).toISOString() });
    expect(refused.status).toBe(400);
    const empty = await figures({ from: at(5000).toISOString(), to: at(6000).toISOString() });
    expect(empty.overall).toEqual({ resolved: 0, meanHours: null, medianHours: null });
    expect(empty.byKind).toEqual([]);
  });

  it("keeps the fleet's default answer when slow to compute, read while under 10 minutes old, then taken again; a window asked for is computed", async () => {
    const now = at(200);
    const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const snapshots = new TimeToFixSnapshots(database, true, logger, { now: () => now });
    await snapshots.settle();
    await snapshots.stop();
    // Every answer counts as slow here (this fleet's takes milliseconds).
    const current = (options: { hideLynis?: boolean; now: Date; to?: string }, scope: AccessScope = UNSCOPED) =>
      currentTimeToFix(database, scope, { hideLynis: true, keepSlowerThanMs: 0, ...options });
    const kept = await current({ now: later(1) });
    // F1, F2, F3 twice, F4, F5 and F7 (F8's host is decommissioned), as of the moment it was taken.
    expect(kept).toMatchObject({ to: now.toISOString(), overall: { resolved: 7 } });

    // O1 is resolved within the window: the kept answer does not have it until it is taken again.
    await resolveO1();
    expect(await current({ now: later(9) })).toEqual(kept);
    expect((await current({ now: later(1), to: later(1).toISOString() })).overall.resolved).toBe(8);
    // Computed for a reader limited to acme: all but F4 (globex), O1 included.
    const scoped = await current({ now: later(1) }, { customers: ['acme'], groups: [] });
    expect(scoped.byCustomer).toMatchObject([{ key: 'acme', resolved: 7 }]);
    const taken = await current({ now: later(10) });
    expect(taken).toMatchObject({ to: later(10).toISOString(), overall: { resolved: 8 } });
    // Kept apart for each setting of --lynis-own-findings.
    expect((await current({ hideLynis: false, now: later(11) })).to).toBe(later(11).toISOString());
    expect((await current({ now: later(11) })).to).toBe(later(10).toISOString());
  });

  it('computes a quick default answer for each request, so a change counts at once', async () => {
    const now = at(200);
    await takeTimeToFixSnapshot(database, true, now);
    await resolveO1();
    const answer = await currentTimeToFix(database, UNSCOPED, { hideLynis: true, now: new Date(now.getTime() + 60_000) });
    expect(answer).toMatchObject({ to: new Date(now.getTime() + 60_000).toISOString(), overall: { resolved: 8 } });
  });

  it("gives a scoped reader its hosts' figures only", async () => {
    const scope: AccessScope = { customers: ['acme'], groups: [] };
    const { id, token } = await createAdminToken(database, { label: 'acme reader', role: 'viewer' });
    await database.em.fork().nativeUpdate(AdminTokenRecord, { id }, scopeColumns(scope));
    const result = await figures(WINDOW, token);
    // 2, 6, 8, 10, 24: mean 10, median 8.
    expect(result.overall).toEqual({ resolved: 5, meanHours: 10, medianHours: 8 });
    expect(result.byCustomer.map((row) => row.key)).toEqual(['acme']);
    expect(result.byGroup).toEqual([
      { key: 'db', resolved: 3, meanHours: 10.67, medianHours: 6 },
      { key: 'web', resolved: 2, meanHours: 9, medianHours: 9 },
    ]);
    expect(result.oldestOpen.map((finding) => finding.id)).toEqual([findingIds.get('O1')]);
  });
});

describe('time to fix on sqlite, at fleet size', () => {
  const location = useTestDatabase('sqlite');

  it("looks a resolution's episode start up by its finding's own transitions, not every regression before it", async () => {
    const database = await openDatabase(location.location);
    try {
      const knex = database.em.getKnex();
      const time = sqlDialectOf(database.em).toDatabaseTime(at(0));
      const plan = (await knex.raw<{ detail: string }[]>(`explain query plan select ${EPISODE_START}`, [randomUUID(), time, randomUUID()])).map(
        (row) => row.detail,
      );
      // Read by (state, time), each lookup went through every regression of the fleet (minutes at 20,000 hosts).
      expect(plan.join('\n')).toMatch(/SEARCH r USING INDEX finding_transition_finding_id_at_index \(finding_id=\? AND at<\?\)/);
    } finally {
      await database.close();
    }
  });
});
