// The shipped baseline against a fleet shaped like a real one: the demo fleet (every report made from the captured
// Lynis report) and the captured report alone, stored and evaluated as the server does it. The share of hosts that
// passes each rule is printed, the numbers docs/compliance-and-alerts.md quotes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReportBytes } from '@org/audit-server-core';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { seedDemo } from '../demo/seed-demo.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey } from '../secrets/license-keys.js';
import { BASELINE_POLICY } from './baseline.js';
import { PolicyEvaluator } from './policy-evaluator.js';
import { createPolicy } from './policy-records.js';
import { previewPolicy } from './policy-preview.js';
import { fleetCompliance, statusCounts } from './policy-results.js';
import { UNSCOPED } from '../people/scope.js';

const FLEET_HOSTS = 300;

describe.each(DIALECTS)('the shipped baseline on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  let evaluator: PolicyEvaluator;
  const now = new Date();
  beforeEach(async () => {
    orm = await openDatabase(database.location);
    evaluator = new PolicyEvaluator(orm, { now: () => now });
  });
  afterEach(async () => {
    await evaluator.stop();
    await orm.close();
  });

  /** Creates the baseline, evaluates every host, and gives each rule's passing hosts of those evaluated. */
  async function evaluateBaseline() {
    const policy = await createPolicy(orm, BASELINE_POLICY);
    await evaluator.settle();
    const { byRule } = await statusCounts(orm, UNSCOPED, now);
    const rules = BASELINE_POLICY.rules.map(({ id }) => {
      const counts = byRule.get(`${policy.id}\n${id}`)!;
      return { rule: id, evaluated: counts.pass + counts.fail + counts.error, pass: counts.pass, fail: counts.fail, error: counts.error };
    });
    return { rules, fleet: (await fleetCompliance(orm, UNSCOPED, now)).hosts };
  }

  it(`passes most of a ${FLEET_HOSTS}-host demo fleet on every rule but the vulnerable packages, and a fair share of hosts on all of them`, async () => {
    await seedDemo(orm, { hosts: FLEET_HOSTS, now });
    // The preview, before the policy exists, counts what evaluating it then finds.
    const preview = await previewPolicy(orm, UNSCOPED, BASELINE_POLICY, { now });
    const { rules, fleet } = await evaluateBaseline();
    expect(preview).toMatchObject({ hostsWithReports: FLEET_HOSTS, evaluatedHosts: FLEET_HOSTS });
    expect(preview.rules.map((rule) => [rule.ruleId, rule.passing, rule.failing, rule.errors])).toEqual(
      rules.map((rule) => [rule.rule, rule.pass, rule.fail, 0]),
    );
    expect((await previewPolicy(orm, UNSCOPED, BASELINE_POLICY, { now, maxHosts: 10 })).evaluatedHosts).toBe(10);
    console.log(
      `The baseline on the demo fleet (${FLEET_HOSTS} hosts, ${dialect}):\n` +
        rules
          .map((rule) => `  ${rule.rule.padEnd(24)} ${((100 * rule.pass) / rule.evaluated).toFixed(0).padStart(3)}% pass (${rule.pass}/${rule.evaluated})`)
          .join('\n') +
        `\n  ${'all rules (compliant)'.padEnd(24)} ${((100 * fleet.pass) / FLEET_HOSTS).toFixed(0).padStart(3)}% (${fleet.pass}/${FLEET_HOSTS})`,
    );
    for (const rule of rules) expect(rule).toMatchObject({ evaluated: FLEET_HOSTS, error: 0 });
    const share = Object.fromEntries(rules.map((rule) => [rule.rule, rule.pass / rule.evaluated]));
    for (const rule of ['hardening-index', 'firewall-active', 'no-warnings', 'audited-recently']) expect(share[rule]).toBeGreaterThan(0.75);
    // Vulnerable packages are the demo fleet's most common failure (about half its hosts), as on real fleets.
    expect(share['no-vulnerable-packages']).toBeGreaterThan(0.2);
    // Not "Compliant 2%" on day one.
    expect(fleet.pass / FLEET_HOSTS).toBeGreaterThan(0.2);
  }, 120_000);

  it('passes the captured report of a kept Debian 12 host on every rule but its vulnerable packages', async () => {
    const { id: keyId } = await createKey(orm);
    const content = readLynisFixture('report.dat');
    const reading = readReportBytes(content)!;
    await new OrmReportStore(orm).save({
      keyId,
      hostId: '0123456789abcdef0123456789abcdef01234567',
      receivedAt: now,
      encoding: 'raw',
      size: content.length,
      sha256: 'a'.repeat(64),
      content,
      summary: reading.summary,
      labels: reading.labels,
    });
    const preview = await previewPolicy(orm, UNSCOPED, BASELINE_POLICY, { now });
    expect(preview).toMatchObject({ hostsWithReports: 1, evaluatedHosts: 1 });
    const { rules, fleet } = await evaluateBaseline();
    expect(preview.rules.map((rule) => rule.passing)).toEqual(rules.map((rule) => rule.pass));
    expect(Object.fromEntries(rules.map((rule) => [rule.rule, rule.pass]))).toEqual({
      'hardening-index': 1,
      'no-vulnerable-packages': 0,
      'firewall-active': 1,
      'no-warnings': 1,
      'audited-recently': 1,
    });
    expect(fleet).toMatchObject({ pass: 0, fail: 1 });
  });
});
