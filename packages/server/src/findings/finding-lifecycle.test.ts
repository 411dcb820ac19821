import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { changeStates, deleteHostRecord } from '../hosts/host-lifecycle.js';
import { mergeHostRecords } from '../hosts/host-merge.js';
import { hostRecordId } from '../hosts/host-records.js';
import { lifecycleSettings } from '../hosts/lifecycle-settings.js';
import { UNSCOPED } from '../people/scope.js';
import { storeLynisText } from '../reports/lynis-upload.test-kit.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey } from '../secrets/license-keys.js';
import { createWebhook } from '../webhooks/webhook-records.js';
import { adoptUntrackedFindings } from './finding-adoption.js';
import { hostFindings, trackedFindingPage } from './finding-queries.js';
import type { TrackedFinding } from './finding-records.js';
import { timeToFix } from './time-to-fix.js';

const HOUR_MS = 3_600_000;

/** A Lynis report with these warnings (test ids) and suggestions, as Lynis writes them. */
function lynisReport(hostname: string, warnings: string[], suggestions: string[] = []) {
  return [
    'report_version_major=1',
    'report_version_minor=0',
    'lynis_version=3.0.8',
    `hostname=${hostname}`,
    'hardening_index=64',
    ...warnings.map((testId) => `warning[]=${testId}|Warning ${testId}|-|-|`),
    ...suggestions.map((testId) => `suggestion[]=${testId}|Suggestion ${testId}|-|-|`),
    '',
  ].join('\n');
}

describe.each(DIALECTS)('finding lifecycle from uploads on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let orm: Database;
  let store: OrmReportStore;
  let keyId: string;
  let clock: Date;
  beforeEach(async () => {
    orm = await openDatabase(location.location);
    store = new OrmReportStore(orm);
    ({ id: keyId } = await createKey(orm));
    clock = new Date('2026-11-20T12:00:00.000Z');
    await createWebhook(orm, {
      url: 'https://hooks.example.org/findings',
      events: ['finding.opened', 'finding.resolved', 'finding.regressed', 'finding.accepted', 'finding.acceptance_expired'],
    });
  });
  afterEach(async () => {
    await orm.close();
  });

  const upload = (hostId: string, text: string) => storeLynisText(store, { keyId, hostId, text, receivedAt: clock });
  const later = (hours: number) => (clock = new Date(clock.getTime() + hours * HOUR_MS));
  const knex = () => orm.em.getKnex();
  /** The outbox's finding events, oldest first: type and test id. */
  const events = async () =>
    (
      (await knex()('webhook_event').select('type', 'data').where('type', 'like', 'finding.%').orderBy(['created_at', 'id'])) as {
        type: string;
        data: string;
      }[]
    ).map((row) => `${row.type} ${(JSON.parse(row.data) as TrackedFinding).testId}`);
  const findingsOf = async (hostId: string) =>
    new Map((await hostFindings(orm, UNSCOPED, hostRecordId(keyId, hostId))).map((finding) => [finding.testId, finding]));
  type TransitionRow = { test_id: string; from_state: string | null; to_state: string };
  const transitions = async () => {
    const rows: TransitionRow[] = await knex()('finding_transition as t')
      .join('finding as f', 'f.id', 't.finding_id')
      .select('f.test_id', 't.from_state', 't.to_state');
    return rows.map((row) => `${row.test_id} ${row.from_state ?? '-'}>${row.to_state}`).sort();
  };

  it('opens a warning the first report has, resolves it when a later one has it not, and regresses it when it is back', async () => {
    const first = clock;
    await upload('web', lynisReport('web-01', ['SSH-7408', 'AUTH-9262'], ['PKGS-7392']));
    expect([...(await findingsOf('web')).values()].map((finding) => [finding.testId, finding.kind, finding.state])).toEqual([
      ['AUTH-9262', 'warning', 'open'],
      ['PKGS-7392', 'suggestion', 'open'],
      ['SSH-7408', 'warning', 'open'],
    ]);
    expect((await events()).sort()).toEqual(['finding.opened AUTH-9262', 'finding.opened PKGS-7392', 'finding.opened SSH-7408']);

    // The same findings again: nothing moves, no event; last seen follows the newest report.
    const second = later(1);
    await upload('web', lynisReport('web-01', ['SSH-7408', 'AUTH-9262'], ['PKGS-7392']));
    expect(await events()).toHaveLength(3);
    expect((await findingsOf('web')).get('SSH-7408')).toMatchObject({ state: 'open', firstSeen: first.toISOString(), lastSeen: second.toISOString() });

    const third = later(1);
    await upload('web', lynisReport('web-01', ['AUTH-9262'], ['PKGS-7392']));
    expect((await findingsOf('web')).get('SSH-7408')).toMatchObject({
      state: 'resolved',
      resolvedAt: third.toISOString(),
      stateSince: third.toISOString(),
      lastSeen: second.toISOString(),
      regressions: 0,
    });
    expect((await events()).slice(3)).toEqual(['finding.resolved SSH-7408']);

    const fourth = later(1);
    await upload('web', lynisReport('web-01', ['SSH-7408', 'AUTH-9262'], ['PKGS-7392']));
    expect((await findingsOf('web')).get('SSH-7408')).toMatchObject({
      state: 'regressed',
      resolvedAt: null,
      stateSince: fourth.toISOString(),
      lastSeen: fourth.toISOString(),
      firstSeen: first.toISOString(),
      regressions: 1,
    });
    expect((await events()).slice(3)).toEqual(['finding.resolved SSH-7408', 'finding.regressed SSH-7408']);
    expect((await transitions()).filter((row) => row.startsWith('SSH-7408'))).toEqual([
      'SSH-7408 ->open',
      'SSH-7408 open>resolved',
      'SSH-7408 resolved>regressed',
    ]);
    // The host's findings: what needs handling first (open and regressed), each by test id.
    expect([...(await findingsOf('web')).keys()]).toEqual(['AUTH-9262', 'PKGS-7392', 'SSH-7408']);
  });

  it('times each resolution from real reports: the first from the first sighting, the next from its regression', async () => {
    const first = clock;
    await upload('web', lynisReport('web-01', ['SSH-7408']));
    later(2);
    await upload('web', lynisReport('web-01', []));
    later(5);
    await upload('web', lynisReport('web-01', ['SSH-7408']));
    later(1);
    await upload('web', lynisReport('web-01', []));
    const figures = await timeToFix(orm, UNSCOPED, { from: first.toISOString(), to: later(1).toISOString(), hideLynis: true });
    // 2 h, then 1 h: the second episode began at the regression, not at the first sighting (8 h before).
    expect(figures.overall).toEqual({ resolved: 2, meanHours: 1.5, medianHours: 1.5 });
  });

  it('neither resolves nor regresses the findings of a host decommissioned and reactivated', async () => {
    const settings = lifecycleSettings({ staleDays: 7, groupStaleDays: '', groupExpireAfter: '', autoPurgeAfter: '24h' });
    await upload('web', lynisReport('web-01', ['SSH-7408']));
    const web = hostRecordId(keyId, 'web');
    const before = await transitions();
    await changeStates(orm, [web], 'decommission', settings, clock);
    expect((await findingsOf('web')).get('SSH-7408')?.state).toBe('open');
    // Decommissioned hosts' findings are left out of the fleet's list.
    expect((await trackedFindingPage(orm, UNSCOPED, { limit: 10, offset: 0 })).total).toBe(0);
    await changeStates(orm, [web], 'reactivate', settings, clock);
    later(1);
    await upload('web', lynisReport('web-01', ['SSH-7408']));
    expect((await findingsOf('web')).get('SSH-7408')).toMatchObject({ state: 'open', regressions: 0, resolvedAt: null });
    expect(await transitions()).toEqual(before);
    expect(await events()).toEqual(['finding.opened SSH-7408']);
    expect((await trackedFindingPage(orm, UNSCOPED, { limit: 10, offset: 0 })).total).toBe(1);
  });

  it('adopts the findings of hosts stored before lifecycles were kept, open since their first report, with no event', async () => {
    const first = clock;
    await upload('web', lynisReport('web-01', ['SSH-7408', 'AUTH-9262']));
    await upload('db', lynisReport('db-01', ['SSH-7408']));
    // As a server before this change left them: findings without lifecycles, and no events.
    await knex()('finding_transition').delete();
    await knex()('finding').delete();
    await knex()('webhook_event').delete();

    later(1);
    // An upload reaching the host first adopts what it held, then moves what changed: AUTH-9262 resolves.
    await upload('web', lynisReport('web-01', ['SSH-7408']));
    expect((await findingsOf('web')).get('AUTH-9262')).toMatchObject({ state: 'resolved', firstSeen: first.toISOString() });
    expect((await findingsOf('web')).get('SSH-7408')).toMatchObject({ state: 'open', firstSeen: first.toISOString() });
    expect(await events()).toEqual(['finding.resolved AUTH-9262']);

    // The background pass adopts the host that does not report; a second pass finds nothing left.
    expect(await adoptUntrackedFindings(orm)).toBe(1);
    expect((await findingsOf('db')).get('SSH-7408')).toMatchObject({ state: 'open', firstSeen: first.toISOString() });
    expect(await adoptUntrackedFindings(orm)).toBe(0);
    expect(await events()).toEqual(['finding.resolved AUTH-9262']);
  });

  it('deletes a deleted host’s findings and their history; a merge gives the survivor the findings it lacks', async () => {
    await upload('web', lynisReport('web-01', ['SSH-7408']));
    await upload('old', lynisReport('web-01', ['SSH-7408', 'AUTH-9262']));
    await upload('gone', lynisReport('gone-01', ['KRNL-5830']));
    await deleteHostRecord(orm, hostRecordId(keyId, 'gone'));
    expect(await transitions()).toEqual(['AUTH-9262 ->open', 'SSH-7408 ->open', 'SSH-7408 ->open']);

    // The survivor's newest report has SSH-7408 only: the other host's AUTH-9262 moves over, then resolves.
    later(1);
    await upload('web', lynisReport('web-01', ['SSH-7408']));
    await mergeHostRecords(orm, hostRecordId(keyId, 'web'), hostRecordId(keyId, 'old'), { automatic: false });
    const merged = await findingsOf('web');
    expect([...merged.values()].map((finding) => `${finding.testId} ${finding.state}`)).toEqual(['SSH-7408 open', 'AUTH-9262 resolved']);
    expect(await knex()('finding').where('host_record_id', hostRecordId(keyId, 'old'))).toEqual([]);
  });
});
