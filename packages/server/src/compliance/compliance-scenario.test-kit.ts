// Sixty days of a small fleet's compliance, written as it happens (back-dated uploads evaluated on a test clock),
// with the figures worked out by hand for the tests of compliance at a moment and of its history.
import { randomUUID } from 'node:crypto';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { HostsByCompliance, OpenFindingsByKind } from '../generated/types.gen.js';
import { hostRecordId } from '../hosts/host-records.js';
import { UNSCOPED } from '../people/scope.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { createPolicy, updatePolicy } from '../policies/policy-records.js';
import { createWaiver, deleteWaiver } from '../policies/waivers.js';
import { storeLynisText } from '../reports/lynis-upload.test-kit.js';
import { OrmReportStore } from '../reports/report-store.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The scenario's first day: ten weeks before today (UTC), so that every day of it is over. */
export const FIRST_DAY = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - 70 * DAY_MS);
/** A time of day `day` of the scenario (day 0 is {@link FIRST_DAY}). */
export const onDay = (day: number, hours = 12) => new Date(FIRST_DAY.getTime() + day * DAY_MS + hours * HOUR_MS);
/** The last millisecond of day `day`: what a point of that day is as of. */
export const endOfDay = (day: number) => new Date(FIRST_DAY.getTime() + (day + 1) * DAY_MS - 1);
/** Day `day` as a date, `YYYY-MM-DD`. */
export const dateOf = (day: number) => onDay(day).toISOString().slice(0, 10);

/** A Lynis report: hardening index, firewall, group, customer and warnings and suggestions (test ids). */
function lynisReport(
  hostname: string,
  report: { index: number; firewall: 0 | 1; group: string; customer: string; warnings?: string[]; suggestions?: string[] },
) {
  return [
    'report_version_major=1',
    'report_version_minor=0',
    'lynis_version=3.0.8',
    `hostname=${hostname}`,
    `hardening_index=${report.index}`,
    `firewall_active=${report.firewall}`,
    `system-groups=${report.group}`,
    `system-customer-name=${report.customer}`,
    ...(report.warnings ?? []).map((testId) => `warning[]=${testId}|Warning ${testId}|-|-|`),
    ...(report.suggestions ?? []).map((testId) => `suggestion[]=${testId}|Suggestion ${testId}|-|-|`),
    '',
  ].join('\n');
}

const HOSTS = {
  h1: { group: 'web', customer: 'acme' },
  h2: { group: 'web', customer: 'acme' },
  h3: { group: 'db', customer: 'globex' },
  h4: { group: 'db', customer: 'globex' },
  h5: { group: 'web', customer: 'acme' },
} as const;
type HostName = keyof typeof HOSTS;

/**
 * What happened, day by day (uploads at noon):
 * - day 0: policies Baseline (rule `index`: hardening index ≥ 60) and Web (group web, rule `firewall`) at 06:00;
 *   h1 70 (warning SSH-7408, suggestion PKGS-7392), h2 50, h3 70 with its firewall off (warning AUTH-9262), h5 70
 *   (warning NETW-3032; decommissioned at the end, so never counted).
 * - day 10: waiver W1 of h2 on `index`, expiring at the start of day 25.
 * - day 15, 06:00: h3's AUTH-9262 accepted.
 * - day 20: h2 80.
 * - day 30, 06:00: Baseline's revision 2 adds rule `firewall`, evaluated at 07:00.
 * - day 35: waiver W2 of group db on every rule of Baseline; deleted on day 45.
 * - day 40: h1 55 (SSH-7408 gone, so resolved); h4 first seen, 40 (warning FILE-6310).
 * - day 50: h3's firewall on.
 * - day 55: waiver W3 of h1 on `index`, for 30 days.
 */
export interface ComplianceScenario {
  keyId: string;
  baselineId: string;
  webId: string;
  /** W3, still in force at the end. */
  lastWaiverId: string;
  /** Each host's record id. */
  host: Record<HostName, string>;
  evaluator: PolicyEvaluator;
  /** Uploads a report of a host now (real time) and evaluates it. */
  uploadNow(host: HostName, report: { index: number; firewall: 0 | 1 }): Promise<void>;
}

/** Figures worked out by hand from the story above, as of the end of some of its days. */
export const EXPECTED: Record<number, { fleet: HostsByCompliance; baseline: HostsByCompliance; web: HostsByCompliance; findings: OpenFindingsByKind }> = {
  // h2 fails `index`; h1, h3 pass; Web: h1, h2 pass.
  5: {
    fleet: { compliant: 2, noncompliant: 1, accepted: 0, unknown: 0 },
    baseline: { compliant: 2, noncompliant: 1, accepted: 0, unknown: 0 },
    web: { compliant: 2, noncompliant: 0, accepted: 0, unknown: 0 },
    findings: { warning: 2, suggestion: 1, accepted: 0 },
  },
  // W1 covers h2's failure; AUTH-9262 accepted.
  15: {
    fleet: { compliant: 2, noncompliant: 0, accepted: 1, unknown: 0 },
    baseline: { compliant: 2, noncompliant: 0, accepted: 1, unknown: 0 },
    web: { compliant: 2, noncompliant: 0, accepted: 0, unknown: 0 },
    findings: { warning: 1, suggestion: 1, accepted: 1 },
  },
  // Revision 2: h3's firewall fails, W2 (group db) covers it; h4 (db) fails `index`, covered too; h1 fails `index`.
  42: {
    fleet: { compliant: 1, noncompliant: 1, accepted: 2, unknown: 0 },
    baseline: { compliant: 1, noncompliant: 1, accepted: 2, unknown: 0 },
    web: { compliant: 2, noncompliant: 0, accepted: 0, unknown: 0 },
    findings: { warning: 1, suggestion: 1, accepted: 1 },
  },
  // W2 deleted: h3 and h4 fail; h1 still fails.
  47: {
    fleet: { compliant: 1, noncompliant: 3, accepted: 0, unknown: 0 },
    baseline: { compliant: 1, noncompliant: 3, accepted: 0, unknown: 0 },
    web: { compliant: 2, noncompliant: 0, accepted: 0, unknown: 0 },
    findings: { warning: 1, suggestion: 1, accepted: 1 },
  },
  // W3 covers h1; h3's firewall on; h4 fails.
  57: {
    fleet: { compliant: 2, noncompliant: 1, accepted: 1, unknown: 0 },
    baseline: { compliant: 2, noncompliant: 1, accepted: 1, unknown: 0 },
    web: { compliant: 2, noncompliant: 0, accepted: 0, unknown: 0 },
    findings: { warning: 1, suggestion: 1, accepted: 1 },
  },
};

/** Writes the scenario into an empty database (a license key of its own). */
export async function seedComplianceScenario(database: Database, keyId: string): Promise<ComplianceScenario> {
  let clock = onDay(0, 6);
  const evaluator = new PolicyEvaluator(database, { now: () => clock, clockRecheckMs: 60_000 });
  const store = new OrmReportStore(database);
  const host = Object.fromEntries(Object.keys(HOSTS).map((name) => [name, hostRecordId(keyId, name)])) as Record<HostName, string>;
  const upload = async (name: HostName, report: { index: number; firewall: 0 | 1; warnings?: string[]; suggestions?: string[] }, at = clock) => {
    await storeLynisText(store, { keyId, hostId: name, text: lynisReport(`${name}.example.org`, { ...HOSTS[name], ...report }), receivedAt: at });
  };
  const at = async (day: number, hours = 12) => {
    clock = onDay(day, hours);
  };
  const INDEX = { id: 'index', expression: 'summary.hardeningIndex >= 60' };
  const FIREWALL = { id: 'firewall', expression: "report.firewall_active == '1'" };

  const baseline = await createPolicy(database, { name: 'Baseline', rules: [INDEX] }, clock);
  const web = await createPolicy(database, { name: 'Web', scope: { group: 'web' }, rules: [FIREWALL] }, clock);
  await at(0);
  await upload('h1', { index: 70, firewall: 1, warnings: ['SSH-7408'], suggestions: ['PKGS-7392'] });
  await upload('h2', { index: 50, firewall: 1 });
  await upload('h3', { index: 70, firewall: 0, warnings: ['AUTH-9262'] });
  await upload('h5', { index: 70, firewall: 1, warnings: ['NETW-3032'] });
  await evaluator.settle();

  await at(10);
  const waiver = (input: { ruleId?: string; hostRecordId?: string; group?: string; expiresAt: Date }) =>
    createWaiver(database, UNSCOPED, { policyId: baseline.id, reason: 'scenario', ...input, expiresAt: input.expiresAt.toISOString() }, null, clock);
  await waiver({ ruleId: 'index', hostRecordId: host.h2, expiresAt: onDay(25, 0) });

  await at(15, 6);
  const knex = database.em.getKnex();
  const time = sqlDialectOf(database.em).toDatabaseTime(clock);
  const [accepted] = (await knex('finding').select('id').where({ host_record_id: host.h3, test_id: 'AUTH-9262' })) as { id: string }[];
  await knex('finding').where('id', accepted!.id).update({ state: 'accepted', state_since: time });
  await knex('finding_transition').insert({
    id: randomUUID(),
    finding_id: accepted!.id,
    from_state: 'open',
    to_state: 'accepted',
    at: time,
    actor: null,
    reason: 'scenario',
  });

  await at(20);
  await upload('h2', { index: 80, firewall: 1 });
  await evaluator.settle();

  await at(30, 6);
  await updatePolicy(database, baseline.id, { name: 'Baseline', rules: [INDEX, FIREWALL] }, clock);
  await at(30, 7);
  await evaluator.settle();

  await at(35);
  const groupWaiver = await waiver({ group: 'db', expiresAt: onDay(90) });

  await at(40);
  await upload('h1', { index: 55, firewall: 1, suggestions: ['PKGS-7392'] });
  await upload('h4', { index: 40, firewall: 1, warnings: ['FILE-6310'] });
  await evaluator.settle();

  await at(45);
  await deleteWaiver(database, UNSCOPED, groupWaiver.id, clock);

  await at(50);
  await upload('h3', { index: 70, firewall: 1, warnings: ['AUTH-9262'] });
  await evaluator.settle();

  await at(55);
  const last = await waiver({ ruleId: 'index', hostRecordId: host.h1, expiresAt: onDay(85) });
  await knex('host').where('id', host.h5).update({ state: 'decommissioned' });

  return {
    keyId,
    baselineId: baseline.id,
    webId: web.id,
    lastWaiverId: last.id,
    host,
    evaluator,
    async uploadNow(name, report) {
      clock = new Date();
      await upload(name, report);
      await evaluator.settle();
    },
  };
}
