// Compliance at any moment, past or present, from the recorded changes: each host's status on each rule is the one
// its latest `policy_result_change` by then recorded, under the policies in force then (their version's rules and
// scope, `policy-versions.ts`) and the waivers in force then (`waiver-history.ts`).
import type { Knex } from '@mikro-orm/knex';
import type { HostsByCompliance, RuleStatus } from '../generated/types.gen.js';
import type { Database, DatabaseTime } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { inScope } from '../policies/policy-evaluator.js';
import { hostIdsAt, type HostSelection } from './hosts-at.js';
import { policiesInForce, type PolicyVersion } from './policy-versions.js';
import { waiverCovers, waiversInForce, type WaiverTerms } from './waiver-history.js';

/** A host's compliance on a policy, or over every policy (its worst). */
export type ComplianceStatus = keyof HostsByCompliance;

/** Worst first: a host's status over several rules or policies is the first of these it has. */
const WORST_FIRST: readonly ComplianceStatus[] = ['noncompliant', 'unknown', 'accepted', 'compliant'];

/** A host at the moment asked about. */
export interface HostAt {
  hostRecordId: string;
  /** Its customer and groups (lowered) as they are now: figures per customer and group count it under these. */
  customer: string | null;
  groups: string[];
  /** Over every policy in force that covered it; null when none did (it counts in no compliance figure). */
  status: ComplianceStatus | null;
  /** Its status on each policy in force that covered it, by policy id. */
  policies: Map<string, ComplianceStatus>;
  /** The rules it failed, no waiver covering them, as `policyName/ruleId`. */
  failingRules: string[];
}

/** The compliance at a moment: the policies in force then, and each host counted then. */
export interface ComplianceAt {
  policies: PolicyVersion[];
  hosts: HostAt[];
}

type HostRow = { id: string; key_id: string; host_id: string; hostname: string | null; last_seen: unknown; customer_name: string | null };

/**
 * Each host's compliance at `moment` (the hosts `hosts-at.ts` counts then, of `selection`), on the policies in
 * force then (only `policyId` when given): on each rule of the version in force, the status its latest change by
 * then recorded; a `fail` or `error` a waiver in force then covers is `accepted`, another `fail` `noncompliant`, an
 * `error` or no result at all `unknown`, a `pass` `compliant`. A policy covers a host when its version's scope
 * selects the host (as the host is now). A host's status on a policy, and over every policy, is its worst.
 */
export async function complianceAt(database: Database, moment: Date, selection: HostSelection & { policyId?: string }): Promise<ComplianceAt> {
  const knex = database.em.getKnex();
  const time = sqlDialectOf(database.em).toDatabaseTime(moment);
  const hostIds = hostIdsAt(knex, time, selection);
  const [policies, waivers, hostRows, labels] = await Promise.all([
    policiesInForce(knex, time, selection.policyId),
    waiversInForce(knex, time).then(byPolicyAndHost),
    knex('host').select('id', 'key_id', 'host_id', 'hostname', 'last_seen', 'customer_name').whereIn('id', hostIds.clone()) as Promise<HostRow[]>,
    labelsOf(knex, hostIds.clone()),
  ]);
  const statuses = policies.length === 0 ? new Map<string, RuleStatus>() : await latestStatuses(knex, time, hostIds.clone(), policies);
  const hosts = hostRows.map((row): HostAt => {
    const groups = labels.get(`${row.id}\ngroup`) ?? [];
    const facts = { hostname: row.hostname, hostId: row.host_id, keyId: row.key_id, groups, tags: labels.get(`${row.id}\ntag`) ?? [], lastSeen: new Date() };
    const host: HostAt = {
      hostRecordId: row.id,
      customer: row.customer_name?.toLowerCase() ?? null,
      groups: groups.map((group) => group.toLowerCase()),
      status: null,
      policies: new Map(),
      failingRules: [],
    };
    for (const policy of policies) {
      if (!inScope(policy, facts)) continue;
      let status: ComplianceStatus = 'compliant';
      for (const rule of policy.rules) {
        const ruleStatus = complianceOf(statuses.get(`${row.id}\n${policy.policyId}\n${rule.id}`), () => waived(waivers, policy.policyId, rule.id, host));
        if (ruleStatus === 'noncompliant') host.failingRules.push(`${policy.name}/${rule.id}`);
        status = worst(status, ruleStatus);
      }
      host.policies.set(policy.policyId, status);
      host.status = host.status === null ? status : worst(host.status, status);
    }
    return host;
  });
  return { policies, hosts };
}

/** How many hosts have each status, of those `statusOf` gives one (null: not counted). */
export function countHosts(
  hosts: readonly HostAt[],
  statusOf: (host: HostAt) => ComplianceStatus | null | undefined = (host) => host.status,
): HostsByCompliance {
  const counts: HostsByCompliance = { compliant: 0, noncompliant: 0, accepted: 0, unknown: 0 };
  for (const host of hosts) {
    const status = statusOf(host);
    if (status) counts[status] += 1;
  }
  return counts;
}

/** Compliant and accepted hosts out of those with a known status, in percent (one decimal); null when none is known. */
export function compliancePercent(counts: HostsByCompliance): number | null {
  const known = counts.compliant + counts.accepted + counts.noncompliant;
  return known === 0 ? null : Math.round(((counts.compliant + counts.accepted) / known) * 1000) / 10;
}

const worst = (a: ComplianceStatus, b: ComplianceStatus) => (WORST_FIRST.indexOf(a) <= WORST_FIRST.indexOf(b) ? a : b);

/** A rule's status as compliance reads it. */
function complianceOf(status: RuleStatus | undefined, isWaived: () => boolean): ComplianceStatus {
  if (status === 'pass') return 'compliant';
  if (status === undefined) return 'unknown';
  if (isWaived()) return 'accepted';
  return status === 'fail' ? 'noncompliant' : 'unknown';
}

/** Waivers by policy: those of one host by its id, the others (a group's, every host's) under ''. */
type WaiversByHost = Map<string, Map<string, WaiverTerms[]>>;

function byPolicyAndHost(waivers: WaiverTerms[]): WaiversByHost {
  const index: WaiversByHost = new Map();
  for (const waiver of waivers) {
    let hosts = index.get(waiver.policy_id);
    if (!hosts) index.set(waiver.policy_id, (hosts = new Map<string, WaiverTerms[]>()));
    const key = waiver.host_record_id ?? '';
    hosts.set(key, [...(hosts.get(key) ?? []), waiver]);
  }
  return index;
}

/** Whether one of the policy's waivers (its host's or the others) covers the rule for the host. */
function waived(waivers: WaiversByHost, policyId: string, ruleId: string, host: Pick<HostAt, 'hostRecordId' | 'groups'>): boolean {
  const ofPolicy = waivers.get(policyId);
  if (!ofPolicy) return false;
  const covering = (waiver: WaiverTerms) => waiverCovers(waiver, ruleId, host);
  return (ofPolicy.get(host.hostRecordId) ?? []).some(covering) || (ofPolicy.get('') ?? []).some(covering);
}

/**
 * The status each host's latest change by `time` recorded on each rule of `policies`, by `host\npolicy\nrule`. A
 * result stored now whose status has not changed since `time` holds it (its `since` is its latest change's time):
 * read from the results, so that only the statuses that changed after `time`, or whose result is gone, are looked
 * up among the changes.
 */
async function latestStatuses(knex: Knex, time: DatabaseTime, hostIds: Knex.QueryBuilder, policies: PolicyVersion[]): Promise<Map<string, RuleStatus>> {
  const policyIds = policies.map((policy) => policy.policyId);
  const unchanged = knex('policy_result')
    .select('host_record_id', 'policy_id', 'rule_id', 'status')
    .where('since', '<=', time)
    .whereIn('policy_id', policyIds)
    .whereIn('host_record_id', hostIds.clone());
  const changes = knex('policy_result_change as c')
    .select(
      'c.host_record_id',
      'c.policy_id',
      'c.rule_id',
      'c.status',
      knex.raw('row_number() over (partition by c.host_record_id, c.policy_id, c.rule_id order by c.at desc, c.id desc) as newest'),
    )
    .where('c.at', '<=', time)
    .whereIn('c.policy_id', policyIds)
    .whereIn('c.host_record_id', hostIds.clone())
    .whereNotExists(
      knex('policy_result as r')
        .select(knex.raw('1'))
        .whereRaw('r.host_record_id = c.host_record_id and r.policy_id = c.policy_id and r.rule_id = c.rule_id')
        .andWhere('r.since', '<=', time),
    );
  type StatusRow = { host_record_id: string; policy_id: string; rule_id: string; status: RuleStatus };
  const [kept, changed] = (await Promise.all([
    unchanged,
    knex.from(changes.as('c')).select('host_record_id', 'policy_id', 'rule_id', 'status').where('newest', 1),
  ])) as [StatusRow[], StatusRow[]];
  return new Map([...kept, ...changed].map((row) => [`${row.host_record_id}\n${row.policy_id}\n${row.rule_id}`, row.status]));
}

/** The groups and tags of the hosts `hostIds` selects, by `host\nkind`, as the reports list them. */
async function labelsOf(knex: Knex, hostIds: Knex.QueryBuilder): Promise<Map<string, string[]>> {
  const rows = (await knex('host_label')
    .select('host_record_id', 'kind', 'value')
    .whereIn('kind', ['group', 'tag'])
    .whereIn('host_record_id', hostIds)
    .orderBy(['host_record_id', 'kind', 'position'])) as { host_record_id: string; kind: string; value: string }[];
  const labels = new Map<string, string[]>();
  for (const row of rows) {
    const key = `${row.host_record_id}\n${row.kind}`;
    const values = labels.get(key);
    if (values) values.push(row.value);
    else labels.set(key, [row.value]);
  }
  return labels;
}
