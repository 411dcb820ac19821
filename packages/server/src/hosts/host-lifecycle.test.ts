import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { UNSCOPED } from '../people/scope.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { createPolicy } from '../policies/policy-records.js';
import { fleetCompliance, statusCounts } from '../policies/policy-results.js';
import { storeLynisText } from '../reports/lynis-upload.test-kit.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey } from '../secrets/license-keys.js';
import { changeStates, deleteHostRecord } from './host-lifecycle.js';
import { sweepHostLifecycle } from './host-lifecycle-sweep.js';
import { hostRecordId } from './host-records.js';
import { lifecycleSettings } from './lifecycle-settings.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A Lynis report: its host name, warnings, groups and whether it allows auto-purge, as Lynis writes them. */
function lynisReport(hostname: string, { warnings = [] as string[], groups = '', autoPurge = false, firewall = '1' } = {}) {
  return [
    'report_version_major=1',
    'report_version_minor=0',
    'lynis_version=3.0.8',
    `hostname=${hostname}`,
    'hardening_index=64',
    `firewall_active=${firewall}`,
    ...(groups ? [`system-groups=${groups}`] : []),
    `allow-auto-purge=${autoPurge ? 1 : 0}`,
    ...warnings.map((testId) => `warning[]=${testId}|A warning|-|-|`),
    '',
  ].join('\n');
}

describe.each(DIALECTS)('host lifecycle on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  let store: OrmReportStore;
  let keyId: string;
  let clock: Date;
  beforeEach(async () => {
    orm = await openDatabase(database.location);
    store = new OrmReportStore(orm);
    ({ id: keyId } = await createKey(orm));
    clock = new Date('2026-11-20T12:00:00.000Z');
  });
  afterEach(async () => {
    await orm.close();
  });

  const upload = (hostId: string, text: string) => storeLynisText(store, { keyId, hostId, text, receivedAt: clock });
  const knex = () => orm.em.getKnex();
  const findingCounts = async () =>
    ((await knex()('finding_count').select('kind', 'test_id', 'hosts').orderBy(['kind', 'test_id'])) as { hosts: number | string }[]).map((row) => ({
      ...row,
      hosts: Number(row.hosts),
    }));
  const stateOf = async (hostId: string) =>
    (await knex()('host').first('state', 'state_reason').where('id', hostRecordId(keyId, hostId))) as { state: string; state_reason: string } | undefined;
  const settings = (overrides: Partial<Parameters<typeof lifecycleSettings>[0]> = {}) =>
    lifecycleSettings({ staleDays: 7, groupStaleDays: '', groupExpireAfter: '', autoPurgeAfter: '24h', ...overrides });

  it("withdraws a decommissioned host's findings and policy results from the kept counts, and restores them when it is back", async () => {
    const evaluator = new PolicyEvaluator(orm, { now: () => clock, clockRecheckMs: 60_000 });
    try {
      const policy = await createPolicy(orm, {
        name: 'Firewall',
        enabled: true,
        rules: [{ id: 'firewall-active', description: 'A firewall is active', expression: "report.firewall_active == '1'" }],
      });
      await upload('web', lynisReport('web-01', { warnings: ['SSH-7408', 'AUTH-9262'] }));
      await upload('db', lynisReport('db-01', { warnings: ['SSH-7408'], firewall: '0' }));
      await evaluator.settle();
      const findings = await findingCounts();
      const counts = (await statusCounts(orm, UNSCOPED, clock)).byPolicy.get(policy.id);
      expect(findings.map((row) => row.hosts)).toEqual([1, 2]);
      expect(counts).toMatchObject({ pass: 1, fail: 1 });
      const web = hostRecordId(keyId, 'web');

      expect(await changeStates(orm, [web], 'decommission', settings(), clock)).toEqual([web]);
      await evaluator.settle();
      // Only db's finding and result count now; the evaluator leaves the decommissioned host alone.
      expect(await findingCounts()).toEqual([{ kind: 'warning', test_id: 'SSH-7408', hosts: 1 }]);
      expect((await fleetCompliance({ em: orm.em.fork() }, UNSCOPED, clock)).evaluatedHosts).toBe(1);
      expect((await statusCounts(orm, UNSCOPED, clock)).byPolicy.get(policy.id)).toMatchObject({ pass: 0, fail: 1 });
      expect(await knex()('policy_result').where('host_record_id', web)).toEqual([]);

      // Reactivated by an operator: its findings come back from its stored report, its results from the next pass.
      expect(await changeStates(orm, [web], 'reactivate', settings(), clock)).toEqual([web]);
      await evaluator.settle();
      expect(await findingCounts()).toEqual(findings);
      expect((await statusCounts(orm, UNSCOPED, clock)).byPolicy.get(policy.id)).toEqual(counts);
      expect(await stateOf('web')).toEqual({ state: 'active', state_reason: 'operator' });

      // Decommissioned again, then a report: active again, counted again.
      await changeStates(orm, [web], 'decommission', settings(), clock);
      await upload('web', lynisReport('web-01', { warnings: ['SSH-7408', 'AUTH-9262'] }));
      await evaluator.settle();
      expect(await findingCounts()).toEqual(findings);
      expect((await statusCounts(orm, UNSCOPED, clock)).byPolicy.get(policy.id)).toEqual(counts);
      expect(await stateOf('web')).toEqual({ state: 'active', state_reason: 'reporting' });
    } finally {
      await evaluator.stop();
    }
  });

  it('a host is stale after its threshold: the largest of its groups’ own, else the server’s', async () => {
    await upload('desk', lynisReport('desk-01'));
    await upload('laptop', lynisReport('laptop-01', { groups: 'laptops,eu' }));
    await upload('lab', lynisReport('lab-01', { groups: 'Lab' }));
    const given = settings({ groupStaleDays: 'laptops=30,eu=14,lab=2' });
    clock = new Date(clock.getTime() + 3 * DAY_MS);
    expect(await sweepHostLifecycle(orm, given, clock)).toEqual({ stale: 1, decommissioned: 0 });
    expect((await stateOf('lab'))!.state).toBe('stale');
    clock = new Date(clock.getTime() + 5 * DAY_MS);
    expect(await sweepHostLifecycle(orm, given, clock)).toEqual({ stale: 1, decommissioned: 0 });
    expect((await stateOf('desk'))!).toEqual({ state: 'stale', state_reason: 'no-report' });
    expect((await stateOf('laptop'))!.state).toBe('active');
    clock = new Date(clock.getTime() + 25 * DAY_MS);
    expect(await sweepHostLifecycle(orm, given, clock)).toEqual({ stale: 1, decommissioned: 0 });
    expect((await stateOf('laptop'))!.state).toBe('stale');
  });

  it('decommissions hosts of an expiring group, and hosts that allow auto-purge, after their wait; the audit trail names the rule', async () => {
    await upload('runner', lynisReport('ci-runner-1', { groups: 'ci-runners' }));
    await upload('spot', lynisReport('spot-1', { autoPurge: true }));
    await upload('server', lynisReport('server-1'));
    const given = settings({ groupExpireAfter: 'CI-Runners=12h', autoPurgeAfter: '24h' });
    clock = new Date(clock.getTime() + 13 * HOUR_MS);
    expect(await sweepHostLifecycle(orm, given, clock)).toEqual({ stale: 0, decommissioned: 1 });
    expect(await stateOf('runner')).toEqual({ state: 'decommissioned', state_reason: 'group-expiry' });
    clock = new Date(clock.getTime() + 12 * HOUR_MS);
    expect(await sweepHostLifecycle(orm, given, clock)).toEqual({ stale: 0, decommissioned: 1 });
    expect(await stateOf('spot')).toEqual({ state: 'decommissioned', state_reason: 'auto-purge' });
    expect((await stateOf('server'))!.state).toBe('active');
    expect(await sweepHostLifecycle(orm, given, clock)).toEqual({ stale: 0, decommissioned: 0 });
    const entries = (await knex()('audit_event').select('actor_kind', 'actor_name', 'operation', 'target_id').orderBy('sequence')) as Record<string, string>[];
    expect(entries).toEqual([
      { actor_kind: 'system', actor_name: 'host lifecycle', operation: 'decommissionHost', target_id: hostRecordId(keyId, 'runner') },
      { actor_kind: 'system', actor_name: 'host lifecycle', operation: 'decommissionHost', target_id: hostRecordId(keyId, 'spot') },
    ]);
  });

  it('deletes a host with its reports, labels and findings, and its counts', async () => {
    await upload('web', lynisReport('web-01', { warnings: ['SSH-7408'], groups: 'web' }));
    await upload('web', lynisReport('web-01', { warnings: ['SSH-7408'], groups: 'web' }));
    await upload('db', lynisReport('db-01', { warnings: ['SSH-7408'] }));
    const web = hostRecordId(keyId, 'web');
    expect(await deleteHostRecord(orm, web, clock)).toMatchObject({ id: web, hostname: 'web-01' });
    expect(await deleteHostRecord(orm, web, clock)).toBeUndefined();
    for (const [table, column] of [
      ['host', 'id'],
      ['report', 'host_record_id'],
      ['host_label', 'host_record_id'],
      ['host_finding', 'host_record_id'],
    ] as const) {
      expect(await knex()(table).where(column, web), table).toEqual([]);
    }
    expect(await findingCounts()).toEqual([{ kind: 'warning', test_id: 'SSH-7408', hosts: 1 }]);
  });
});
