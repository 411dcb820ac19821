import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { UNSCOPED } from '../people/scope.js';
import { createKey } from '../secrets/license-keys.js';
import { deletePolicy, setPolicyEnabled } from '../policies/policy-records.js';
import { deleteWaiver } from '../policies/waivers.js';
import { complianceAt, countHosts } from './compliance-at.js';
import { EXPECTED, endOfDay, onDay, seedComplianceScenario, type ComplianceScenario } from './compliance-scenario.test-kit.js';
import { openFindingsAt } from './open-findings-at.js';

describe.each(DIALECTS)('compliance at a moment on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let scenario: ComplianceScenario;
  beforeEach(async () => {
    database = await openDatabase(location.location);
    scenario = await seedComplianceScenario(database, (await createKey(database)).id);
  });
  afterEach(async () => {
    await scenario.evaluator.stop();
    await database.close();
  });

  /** The fleet's, Baseline's and Web's counts and the open findings at the end of `day`. */
  async function figuresOf(day: number) {
    const { hosts } = await complianceAt(database, endOfDay(day), { scope: UNSCOPED });
    const findings = [...(await openFindingsAt(database, endOfDay(day), { scope: UNSCOPED })).values()].reduce(
      (sum, counts) => ({ warning: sum.warning + counts.warning, suggestion: sum.suggestion + counts.suggestion, accepted: sum.accepted + counts.accepted }),
      { warning: 0, suggestion: 0, accepted: 0 },
    );
    return {
      fleet: countHosts(hosts),
      baseline: countHosts(hosts, (host) => host.policies.get(scenario.baselineId)),
      web: countHosts(hosts, (host) => host.policies.get(scenario.webId)),
      findings,
    };
  }

  it('counts each host as its latest changes, the policy version and the waivers in force then make it', async () => {
    for (const day of [5, 15, 42, 47, 57]) expect(await figuresOf(day), `day ${day}`).toEqual(EXPECTED[day]);
  });

  it('names the failing rules, and leaves out hosts first seen later and decommissioned ones', async () => {
    const { hosts, policies } = await complianceAt(database, endOfDay(47), { scope: UNSCOPED });
    expect(policies.map((policy) => [policy.name, policy.revision])).toEqual([
      ['Baseline', 2],
      ['Web', 1],
    ]);
    const byId = new Map(hosts.map((host) => [host.hostRecordId, host]));
    expect(byId.has(scenario.host.h5)).toBe(false);
    expect(byId.get(scenario.host.h1)!.failingRules).toEqual(['Baseline/index']);
    expect(byId.get(scenario.host.h3)!.failingRules).toEqual(['Baseline/firewall']);
    expect(byId.get(scenario.host.h1)!.groups).toEqual(['web']);
    const before = await complianceAt(database, endOfDay(37), { scope: UNSCOPED });
    expect(before.hosts.map((host) => host.hostRecordId)).not.toContain(scenario.host.h4);
  });

  it('counts a rule of a new version not evaluated yet as unknown', async () => {
    // Revision 2 was saved at 06:00 on day 30 and evaluated at 07:00.
    const { hosts } = await complianceAt(database, onDay(30, 6.5), { scope: UNSCOPED });
    expect(countHosts(hosts)).toEqual({ compliant: 0, noncompliant: 0, accepted: 0, unknown: 3 });
    expect(countHosts(hosts, (host) => host.policies.get(scenario.webId))).toEqual({ compliant: 2, noncompliant: 0, accepted: 0, unknown: 0 });
  });

  it('narrows to some hosts, one policy, or an actor scope', async () => {
    const { hosts } = await complianceAt(database, endOfDay(42), { scope: UNSCOPED, hostIds: [scenario.host.h1, scenario.host.h4] });
    expect(hosts.map((host) => [host.hostRecordId, host.status]).sort()).toEqual(
      [
        [scenario.host.h1, 'noncompliant'],
        [scenario.host.h4, 'accepted'],
      ].sort(),
    );
    const web = await complianceAt(database, endOfDay(42), { scope: UNSCOPED, policyId: scenario.webId });
    expect(countHosts(web.hosts)).toEqual({ compliant: 2, noncompliant: 0, accepted: 0, unknown: 0 });
    const globex = await complianceAt(database, endOfDay(47), { scope: { customers: ['globex'], groups: [] } });
    expect(countHosts(globex.hosts)).toEqual({ compliant: 0, noncompliant: 2, accepted: 0, unknown: 0 });
    const findings = await openFindingsAt(database, endOfDay(47), { scope: { customers: [], groups: ['WEB'] } });
    expect([...findings.entries()]).toEqual([[scenario.host.h1, { warning: 0, suggestion: 1, accepted: 0 }]]);
  });

  it('keeps a policy disabled or deleted since in force before, and out after', async () => {
    await setPolicyEnabled(database, scenario.webId, false, onDay(60));
    await setPolicyEnabled(database, scenario.webId, true, onDay(61));
    await deletePolicy(database, scenario.webId, onDay(62));
    const names = async (day: number) =>
      (await complianceAt(database, endOfDay(day), { scope: UNSCOPED })).policies.map((policy) => `${policy.name} ${policy.revision}`);
    expect(await names(59)).toEqual(['Baseline 2', 'Web 1']);
    expect(await names(60)).toEqual(['Baseline 2']);
    expect(await names(61)).toEqual(['Baseline 2', 'Web 3']);
    expect(await names(62)).toEqual(['Baseline 2']);
    const { hosts } = await complianceAt(database, endOfDay(59), { scope: UNSCOPED, policyId: scenario.webId });
    expect(countHosts(hosts)).toEqual(EXPECTED[57]!.web);
  });

  it('answers the same for a past moment after new reports and a waiver deleted', async () => {
    const before = await Promise.all([15, 42, 57].map(figuresOf));
    await scenario.uploadNow('h2', { index: 10, firewall: 0 });
    await scenario.uploadNow('h3', { index: 10, firewall: 0 });
    await deleteWaiver(database, UNSCOPED, scenario.lastWaiverId);
    expect(await Promise.all([15, 42, 57].map(figuresOf))).toEqual(before);
    const now = await complianceAt(database, new Date(), { scope: UNSCOPED });
    expect(countHosts(now.hosts)).toEqual({ compliant: 0, noncompliant: 4, accepted: 0, unknown: 0 });
  });
});
