// The fleet's posture as grouped counts, for the gauges of `/metrics`: a handful of rows per read, whatever the
// fleet's size, and never a host's name.
import type { Database } from '../database/dialect.js';
import { LYNIS_OWN_TEST } from '../fleet/finding-groups.js';
import type { StatusCounts } from '../generated/types.gen.js';
import { UNSCOPED } from '../people/scope.js';
import { statusCounts } from '../policies/policy-results.js';

/** The states of a finding still to be handled: its age is how long the oldest has waited. */
const UNHANDLED = ['open', 'acknowledged', 'regressed'];

/** How many hosts are in each lifecycle state. */
export async function hostsByState(database: Database): Promise<Map<string, number>> {
  type Row = { state: string; hosts: number | string };
  const rows = await (database.em.getKnex()('host').select('state').count({ hosts: '*' }).groupBy('state') as Promise<Row[]>);
  return new Map(rows.map((row) => [row.state, Number(row.hosts)]));
}

/** How many hosts pass, fail, err on or are waived for each policy, by the policy's name: the counts the evaluator keeps. */
export async function complianceByPolicyName(database: Database, now = new Date()): Promise<Map<string, StatusCounts>> {
  const [{ byPolicy }, policies] = await Promise.all([statusCounts(database, UNSCOPED, now), policyNames(database)]);
  const names = new Map(policies.map((policy) => [policy.id, policy.name]));
  const counts = new Map<string, StatusCounts>();
  for (const [policyId, policyCounts] of byPolicy) {
    const name = names.get(policyId);
    if (name !== undefined) counts.set(name, policyCounts);
  }
  return counts;
}

async function policyNames(database: Database): Promise<{ id: string; name: string }[]> {
  return database.em.getKnex()('policy').select('id', 'name') as Promise<{ id: string; name: string }[]>;
}

/** Options of the finding counts: Lynis' own finding left out as the fleet's lists leave it out. */
export interface FindingCountOptions {
  hideLynis: boolean;
}

/** The findings of the hosts counted in the fleet (decommissioned ones left out), as a query to narrow and group. */
function countedFindings(database: Database, { hideLynis }: FindingCountOptions) {
  const query = database.em.getKnex()('finding as f').join('host as h', 'h.id', 'f.host_record_id').whereNot('h.state', 'decommissioned');
  if (hideLynis) query.whereNot('f.test_id', LYNIS_OWN_TEST);
  return query;
}

/** How many findings of each kind are in each state, keyed `kind state`. */
export async function findingsByKindAndState(database: Database, options: FindingCountOptions): Promise<Map<string, number>> {
  type Row = { kind: string; state: string; findings: number | string };
  const rows = await (countedFindings(database, options).select('f.kind', 'f.state').count({ findings: '*' }).groupBy('f.kind', 'f.state') as Promise<Row[]>);
  return new Map(rows.map((row) => [`${row.kind} ${row.state}`, Number(row.findings)]));
}

/** Seconds since the oldest finding still to be handled (open, acknowledged or regressed) was first seen; 0 when none is. */
export async function oldestUnhandledFindingAge(database: Database, options: FindingCountOptions, now = new Date()): Promise<number> {
  type Row = { oldest: Date | number | null };
  const rows = await (countedFindings(database, options).whereIn('f.state', UNHANDLED).min({ oldest: 'f.first_seen' }) as Promise<Row[]>);
  const oldest = rows[0]?.oldest;
  if (oldest == null) return 0;
  return Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000);
}
