// The controls of a framework with their hosts passing and failing and the evidence behind them (`listControls`).
//
// A control is mapped to rules (a mapping file's rule ids: that rule of any policy; a rule's own `controls`: that
// rule of its policy) and to Lynis test ids (a mapping file's). For each host in the reader's scope (decommissioned
// hosts left out), a control is:
// - failing when a mapped rule's result is `fail` or `error` (no waiver covers it), or a mapped test id is a finding
//   of the host that is `open`, `acknowledged` or `regressed`;
// - passing when it is not failing and has evidence: a mapped rule's result (`pass` or `waived`), or a mapped test
//   id's finding that is `accepted` or `resolved`;
// - unknown otherwise: nothing mapped says anything of the host. A host never warned about a test id has no
//   finding at all, which does not tell whether Lynis ran the test, so such a host is unknown, not passing.
// Everything is counted in grouped SQL over the mapping, a bounded number of queries whatever the number of hosts.
import type { Knex } from '@mikro-orm/knex';
import type { Database } from '../database/dialect.js';
import type { Control, ControlEvidenceFinding, ControlEvidenceRule, ControlReport, FindingKind, RuleStatus } from '../generated/types.gen.js';
import { limitToScope } from '../hosts/host-scope.js';
import type { AccessScope } from '../people/scope.js';
import { coveringWaivers } from '../policies/effective-results.js';
import { listPolicies, type StoredPolicy } from '../policies/policy-records.js';
import { importedControlIds, importedControls } from './control-records.js';

/** Most failing hosts listed per control (the contract's `maxItems`). */
export const MAX_FAILING_HOSTS = 20;
/** Mapping rows per query: 4 parameters each, far below either database's bound on a statement's parameters. */
const MAPPING_ROWS_PER_QUERY = 1000;
/** Ids per `in (…)` list of the evidence queries. */
const IDS_PER_QUERY = 1000;
/** The finding states that make a control fail (as the fleet's open findings count them). */
const OPEN_STATES = ['open', 'acknowledged', 'regressed'];
/** A host's verdict on a control in SQL: the worst of its mapped results and findings. */
const FAILING = 2;
const PASSING = 1;

type Count = number | string;

/** A rule a control maps: a policy's (named) or, from a mapping file, that rule of any policy. */
interface MappedRule {
  policyName: string | null;
  ruleId: string;
}

/** A control as mapped, before its hosts are counted. */
interface ControlMapping {
  framework: string;
  controlId: string;
  title: string | null;
  testIds: string[];
  rules: MappedRule[];
  sources: Control['sources'];
}

/** The frameworks known, and for `framework` (named in any case) its controls with their hosts and evidence. */
export async function controlReport(database: Database, scope: AccessScope, framework: string | undefined, now = new Date()): Promise<ControlReport> {
  const policies = await listPolicies(database);
  const frameworks = mergeFrameworks(await importedControlIds(database), policies);
  const named = framework === undefined ? undefined : frameworks.find((known) => known.name.toLowerCase() === framework.toLowerCase());
  if (!named) return { frameworks, framework: null, controls: [] };
  const mappings = await controlMappings(database, named.name, policies);
  const knex = database.em.getKnex();
  const [verdicts, ruleCounts, findingCounts, hostTotal] = await Promise.all([
    hostVerdicts(database, scope, mappings, now),
    ruleEvidence(database, scope, mappings, now),
    findingEvidence(knex, scope, mappings),
    hostsInScope(knex, scope),
  ]);
  const controls = mappings.map((mapping, index): Control => {
    const verdict = verdicts.get(index) ?? { passing: 0, failing: 0, failingHosts: [] };
    return {
      framework: mapping.framework,
      controlId: mapping.controlId,
      title: mapping.title,
      testIds: mapping.testIds,
      ruleIds: mapping.rules.map((rule) => (rule.policyName === null ? rule.ruleId : `${rule.policyName}/${rule.ruleId}`)),
      sources: mapping.sources,
      hosts: { passing: verdict.passing, failing: verdict.failing, unknown: hostTotal - verdict.passing - verdict.failing },
      evidence: {
        rules: policies.flatMap((policy) =>
          policy.rules
            .filter((rule) => mapping.rules.some((mapped) => mapped.ruleId === rule.id && (mapped.policyName ?? policy.name) === policy.name))
            .map((rule) => ruleCounts.get(`${policy.id}\n${rule.id}`) ?? emptyRuleEvidence(policy, rule.id)),
        ),
        findings: mapping.testIds.flatMap((testId) => findingCounts.get(testId) ?? []),
      },
      failingHosts: verdict.failingHosts,
    };
  });
  return { frameworks, framework: named.name, controls };
}

/** The frameworks of the mapping files and of policies' rules, compared case-insensitively, each with its number of controls. */
function mergeFrameworks(imported: { framework: string; controlId: string }[], policies: StoredPolicy[]): ControlReport['frameworks'] {
  const byName = new Map<string, { name: string; controlIds: Set<string> }>();
  const add = ({ framework, controlId }: { framework: string; controlId: string }) => {
    let found = byName.get(framework.toLowerCase());
    if (!found) byName.set(framework.toLowerCase(), (found = { name: framework, controlIds: new Set() }));
    found.controlIds.add(controlId);
  };
  // The files' first, so that a framework is spelled as its mapping file spells it.
  imported.forEach(add);
  for (const ref of policies.flatMap((policy) => policy.rules.flatMap((rule) => rule.controls ?? []))) add(splitRef(ref));
  return [...byName.values()]
    .map((framework) => ({ name: framework.name, controls: framework.controlIds.size }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

/** The controls of a framework: the mapping file's, with the rules whose `controls` name them, and those rules name alone. */
async function controlMappings(database: Database, framework: string, policies: StoredPolicy[]): Promise<ControlMapping[]> {
  const byId = new Map<string, ControlMapping>();
  for (const control of await importedControls(database, framework)) {
    byId.set(control.controlId, {
      framework: control.framework,
      controlId: control.controlId,
      title: control.title,
      testIds: control.testIds,
      rules: control.ruleIds.map((ruleId) => ({ policyName: null, ruleId })),
      sources: ['file'],
    });
  }
  for (const policy of policies) {
    for (const rule of policy.rules) {
      for (const ref of rule.controls ?? []) {
        const { framework: named, controlId } = splitRef(ref);
        if (named.toLowerCase() !== framework.toLowerCase()) continue;
        let mapping = byId.get(controlId);
        if (!mapping) byId.set(controlId, (mapping = { framework, controlId, title: null, testIds: [], rules: [], sources: [] }));
        if (!mapping.sources.includes('policy')) mapping.sources.push('policy');
        if (!mapping.rules.some((mapped) => mapped.policyName === policy.name && mapped.ruleId === rule.id))
          mapping.rules.push({ policyName: policy.name, ruleId: rule.id });
      }
    }
  }
  return [...byId.values()].sort((a, b) => a.controlId.localeCompare(b.controlId, 'en', { numeric: true }));
}

/** `CIS:5.2.10` → `CIS` and `5.2.10` (a framework name holds no colon; a control id may). */
function splitRef(ref: string): { framework: string; controlId: string } {
  const colon = ref.indexOf(':');
  return { framework: ref.slice(0, colon), controlId: ref.slice(colon + 1) };
}

/** One row of the mapping as SQL sees it (`m`): a control's index with one rule (of a named policy or any) or one test id. */
interface MappingRow {
  control: number;
  policyName: string | null;
  ruleId: string | null;
  testId: string | null;
}

/** Each control's hosts passing and failing, and its first failing hosts with what fails on them, by control index. */
async function hostVerdicts(
  database: Database,
  scope: AccessScope,
  mappings: ControlMapping[],
  now: Date,
): Promise<Map<number, { passing: number; failing: number; failingHosts: Control['failingHosts'] }>> {
  const verdicts = new Map<number, { passing: number; failing: number; failingHosts: Control['failingHosts'] }>();
  const verdictOf = (control: number) => {
    let verdict = verdicts.get(control);
    if (!verdict) verdicts.set(control, (verdict = { passing: 0, failing: 0, failingHosts: [] }));
    return verdict;
  };
  for (const rows of mappingBatches(mappings)) {
    const [counts, failing] = (await Promise.all([
      verdictQuery(database, scope, rows, now).from('per_host').select('control', 'verdict').count({ hosts: '*' }).groupBy('control', 'verdict'),
      failingHostsQuery(database, scope, rows, now),
    ])) as [{ control: Count; verdict: Count; hosts: Count }[], { control: Count; host_record_id: string; hostname: string | null; because: string }[]];
    for (const row of counts) {
      const verdict = verdictOf(Number(row.control));
      if (Number(row.verdict) === FAILING) verdict.failing += Number(row.hosts);
      else verdict.passing += Number(row.hosts);
    }
    for (const row of failing) {
      const { failingHosts } = verdictOf(Number(row.control));
      const last = failingHosts.at(-1);
      if (last?.hostRecordId === row.host_record_id) last.because.push(row.because);
      else failingHosts.push({ hostRecordId: row.host_record_id, hostname: row.hostname, because: [row.because] });
    }
  }
  return verdicts;
}

/** The mapping as rows of at most {@link MAPPING_ROWS_PER_QUERY}, a control's rows never split (its hosts' verdicts need them all). */
function* mappingBatches(mappings: ControlMapping[]): Generator<MappingRow[]> {
  let batch: MappingRow[] = [];
  for (const [control, mapping] of mappings.entries()) {
    const rows: MappingRow[] = [
      ...mapping.rules.map((rule) => ({ control, policyName: rule.policyName, ruleId: rule.ruleId, testId: null })),
      ...mapping.testIds.map((testId) => ({ control, policyName: null, ruleId: null, testId })),
    ];
    if (batch.length > 0 && batch.length + rows.length > MAPPING_ROWS_PER_QUERY) {
      yield batch;
      batch = [];
    }
    batch.push(...rows);
  }
  if (batch.length > 0) yield batch;
}

/**
 * The query with the mapping (`m`), every mapped result and finding of every host (`hits`: control, host, verdict
 * and what it is, `policyName/ruleId` or the test id) and each host's worst verdict on each control (`per_host`),
 * of the hosts in scope, decommissioned hosts left out. `failingOnly`: the failing results and open findings alone.
 */
function verdictQuery(database: Database, scope: AccessScope, rows: MappingRow[], now: Date, failingOnly = false): Knex.QueryBuilder {
  const knex = database.em.getKnex();
  const mapping = knex.raw(
    `values ${rows.map(() => '(?, ?, ?, ?)').join(', ')}`,
    rows.flatMap((row) => [String(row.control), row.policyName, row.ruleId, row.testId]),
  );
  // A failure is looked for a waiver only when it is one: passing results (most) cost no lookup.
  const ruleHits = knex('policy_result as r')
    .join('m', 'm.rule_id', 'r.rule_id')
    .modify((hits) => void (failingOnly && hits.whereIn('r.status', ['fail', 'error'])))
    .join('policy as p', 'p.id', 'r.policy_id')
    .where((policy) => void policy.whereNull('m.policy_name').orWhereRaw('m.policy_name = p.name'))
    .select('m.control', 'r.host_record_id')
    .select(
      knex.raw(`case when r.status in ('fail', 'error') and not exists ? then ${FAILING} else ${PASSING} end as verdict`, [coveringWaivers(database, now)]),
    )
    .select(knex.raw(`p.name || '/' || r.rule_id as because`));
  const findingHits = knex('finding as f')
    .join('m', 'm.test_id', 'f.test_id')
    .modify((hits) => void (failingOnly && hits.whereIn('f.state', OPEN_STATES)))
    .select('m.control', 'f.host_record_id')
    .select(knex.raw(`case when f.state in (${OPEN_STATES.map((state) => `'${state}'`).join(', ')}) then ${FAILING} else ${PASSING} end as verdict`))
    .select({ because: 'f.test_id' });
  const perHost = knex('hits')
    .join('host as h', 'h.id', 'hits.host_record_id')
    .where('h.state', '<>', 'decommissioned')
    .select('hits.control', 'hits.host_record_id', 'h.hostname')
    .max({ verdict: 'hits.verdict' })
    .groupBy('hits.control', 'hits.host_record_id', 'h.hostname');
  limitToScope(knex, perHost, 'hits.host_record_id', scope);
  return knex
    .queryBuilder()
    .with('m', ['control', 'policy_name', 'rule_id', 'test_id'], mapping)
    .with('hits', ruleHits.unionAll([findingHits], false))
    .with('per_host', perHost);
}

/** Each control's first {@link MAX_FAILING_HOSTS} failing hosts (by host name), a row for each rule or finding failing on one. */
function failingHostsQuery(database: Database, scope: AccessScope, rows: MappingRow[], now: Date): Knex.QueryBuilder {
  const knex = database.em.getKnex();
  const order = 'case when hostname is null then 1 else 0 end, hostname, host_record_id';
  // A host fails a control when any of its hits fails: its failing hits alone tell which hosts and why.
  return verdictQuery(database, scope, rows, now, true)
    .with(
      'failing',
      knex('per_host')
        .select('control', 'host_record_id', 'hostname')
        .select(knex.raw(`row_number() over (partition by control order by ${order}) as n`))
        .where('verdict', FAILING),
    )
    .from('failing as x')
    .join('hits', (on) => void on.on('hits.control', 'x.control').andOn('hits.host_record_id', 'x.host_record_id'))
    .where('x.n', '<=', MAX_FAILING_HOSTS)
    .where('hits.verdict', FAILING)
    .distinct('x.control', 'x.n', 'x.host_record_id', 'x.hostname', 'hits.because')
    .orderBy([{ column: 'x.control' }, { column: 'x.n' }, { column: 'hits.because' }]);
}

/** Each mapped rule's results in scope, by `policyId\nruleId`. */
async function ruleEvidence(database: Database, scope: AccessScope, mappings: ControlMapping[], now: Date): Promise<Map<string, ControlEvidenceRule>> {
  const knex = database.em.getKnex();
  const ruleIds = [...new Set(mappings.flatMap((mapping) => mapping.rules.map((rule) => rule.ruleId)))];
  const evidence = new Map<string, ControlEvidenceRule>();
  for (const ids of chunks(ruleIds, IDS_PER_QUERY)) {
    // Each result as read (`effective-results.ts`): a failure or error an unexpired waiver covers is `waived`.
    const status = knex.raw("case when r.status <> 'pass' and exists ? then 'waived' else r.status end", [coveringWaivers(database, now)]);
    const query = knex
      .from(
        knex('policy_result as r')
          .join('host as h', 'h.id', 'r.host_record_id')
          .where('h.state', '<>', 'decommissioned')
          .whereIn('r.rule_id', ids)
          .select('r.policy_id', 'r.rule_id', 'r.host_record_id', { status })
          .as('e'),
      )
      .join('policy as p', 'p.id', 'e.policy_id')
      .select('e.policy_id', 'p.name', 'e.rule_id', 'e.status')
      .count({ hosts: '*' })
      .groupBy('e.policy_id', 'p.name', 'e.rule_id', 'e.status');
    limitToScope(knex, query, 'e.host_record_id', scope);
    for (const row of (await query) as { policy_id: string; name: string; rule_id: string; status: RuleStatus; hosts: Count }[]) {
      const key = `${row.policy_id}\n${row.rule_id}`;
      let rule = evidence.get(key);
      if (!rule) evidence.set(key, (rule = emptyRuleEvidence({ id: row.policy_id, name: row.name }, row.rule_id)));
      rule[row.status] += Number(row.hosts);
    }
  }
  return evidence;
}

const emptyRuleEvidence = (policy: Pick<StoredPolicy, 'id' | 'name'>, ruleId: string): ControlEvidenceRule => ({
  policyId: policy.id,
  policyName: policy.name,
  ruleId,
  pass: 0,
  fail: 0,
  error: 0,
  waived: 0,
});

/** Each mapped test id's findings in scope, by kind: hosts where it is open (or acknowledged, regressed) and accepted. */
async function findingEvidence(knex: Knex, scope: AccessScope, mappings: ControlMapping[]): Promise<Map<string, ControlEvidenceFinding[]>> {
  const testIds = [...new Set(mappings.flatMap((mapping) => mapping.testIds))];
  const evidence = new Map<string, ControlEvidenceFinding[]>();
  const open = OPEN_STATES.map((state) => `'${state}'`).join(', ');
  for (const ids of chunks(testIds, IDS_PER_QUERY)) {
    const query = knex('finding as f')
      .join('host as h', 'h.id', 'f.host_record_id')
      .where('h.state', '<>', 'decommissioned')
      .whereIn('f.test_id', ids)
      .select('f.kind', 'f.test_id')
      .select(knex.raw(`sum(case when f.state in (${open}) then 1 else 0 end) as open_hosts`))
      .select(knex.raw(`sum(case when f.state = 'accepted' then 1 else 0 end) as accepted_hosts`))
      .groupBy('f.kind', 'f.test_id')
      .orderBy(['f.test_id', 'f.kind']);
    limitToScope(knex, query, 'f.host_record_id', scope);
    for (const row of (await query) as { kind: FindingKind; test_id: string; open_hosts: Count; accepted_hosts: Count }[]) {
      const found = evidence.get(row.test_id) ?? [];
      found.push({ kind: row.kind, testId: row.test_id, openHosts: Number(row.open_hosts), acceptedHosts: Number(row.accepted_hosts) });
      evidence.set(row.test_id, found);
    }
  }
  return evidence;
}

/** How many hosts are in scope, decommissioned hosts left out: those neither passing nor failing are unknown. */
async function hostsInScope(knex: Knex, scope: AccessScope): Promise<number> {
  const query = knex('host').where('state', '<>', 'decommissioned').count({ hosts: '*' });
  limitToScope(knex, query, 'id', scope);
  return Number(((await query) as { hosts: Count }[])[0]!.hosts);
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
