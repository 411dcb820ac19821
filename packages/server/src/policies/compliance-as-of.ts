// Compliance as of a past moment as the host list, its export and the overview show it: the compliance at that
// moment (`compliance/compliance-at.ts`) in the terms of the answers for now.
import type { HostComplianceState, Overview, StatusCounts } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { complianceAt, type ComplianceStatus } from '../compliance/compliance-at.js';
import type { AccessScope } from '../people/scope.js';

/** A host's compliance as of a moment, and the rules it failed then (`policyName/ruleId`). */
export interface HostComplianceAt {
  compliance: HostComplianceState;
  failingRules: string[];
}

/** `Host.compliance` of each compliance at a moment: a failure or error a waiver covered then is `waived`. */
const HOST_STATE: Record<ComplianceStatus, HostComplianceState> = {
  compliant: 'compliant',
  noncompliant: 'noncompliant',
  accepted: 'waived',
  unknown: 'unknown',
};

/**
 * The overview's status of each compliance at a moment: `unknown` (an error, or a rule with no result then) counts
 * as an error, which proves nothing either.
 */
const RULE_STATUS: Record<ComplianceStatus, keyof StatusCounts> = { compliant: 'pass', noncompliant: 'fail', accepted: 'waived', unknown: 'error' };

/** The compliance of each of `hostRecordIds` (of `scope`) as of `at`; `unknown`, failing nothing, when no policy covered it then. */
export async function hostCompliancesAt(database: Database, scope: AccessScope, hostRecordIds: string[], at: Date): Promise<Map<string, HostComplianceAt>> {
  const { hosts } = await complianceAt(database, at, { scope, hostIds: hostRecordIds });
  // Failing rules by policy name, then rule id, as the export lists them now.
  const known = new Map(
    hosts.map((host) => [host.hostRecordId, { compliance: host.status ? HOST_STATE[host.status] : 'unknown', failingRules: [...host.failingRules].sort() }]),
  );
  return new Map(hostRecordIds.map((id) => [id, known.get(id) ?? { compliance: 'unknown', failingRules: [] }]));
}

/** The overview's compliance figures of the hosts in `scope` as of `at`: the policies in force then and the hosts' worst status then. */
export async function fleetComplianceAt(database: Database, scope: AccessScope, at: Date): Promise<Omit<Overview['compliance'], 'trend'>> {
  const { policies, hosts } = await complianceAt(database, at, { scope });
  const counts: StatusCounts = { pass: 0, fail: 0, error: 0, waived: 0 };
  for (const host of hosts) if (host.status) counts[RULE_STATUS[host.status]] += 1;
  const evaluatedHosts = counts.pass + counts.fail + counts.error + counts.waived;
  return { policies: policies.length, evaluatedHosts, hosts: counts, rate: evaluatedHosts === 0 ? null : counts.pass / evaluatedHosts };
}
