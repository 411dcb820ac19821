// How many hosts a policy would cover and fail, before it is saved or enabled: its rules run on the latest reports of
// the most recently seen hosts in its scope, in the rule worker under the evaluation budget, and nothing is written.
import type { Knex } from '@mikro-orm/knex';
import type { PolicyInput, PolicyPreview, Rule, RulePreview } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { limitToScope } from '../hosts/host-scope.js';
import type { AccessScope } from '../people/scope.js';
import { hostFactsOf, inScope, latestReportText, MAX_CHUNK_CHARACTERS, type HostRow } from './policy-evaluator.js';
import { checkRulesAndBudgets, scopeOf, type StoredPolicy } from './policy-records.js';
import { RuleRunner, type HostJob } from './rule-runner.js';
import type { HostFacts } from './rule-variables.js';

export type { PolicyPreview, RulePreview };

/** Hosts a preview evaluates at most: the most recently seen ones in scope, so that a preview of a large fleet stays quick. */
export const PREVIEW_MAX_HOSTS = 2000;

/** Hosts read at once while looking for those in a policy's scope. */
const SCAN_PAGE = 1000;

/** What a preview needs of a policy: its rules and its scope (none: every host). */
export type PreviewedPolicy = { rules: Pick<Rule, 'id' | 'expression' | 'description'>[]; scope?: PolicyInput['scope'] };

/** Options of {@link previewPolicy}. */
export interface PreviewOptions {
  maxHosts?: number;
  now?: Date;
  /** A worker to queue the preview on (the admin API's one); without it, one is started and closed. */
  runner?: RuleRunner;
  /** Hosts read at once while looking for those in scope. Default 1,000. */
  scanPage?: number;
}

/**
 * Checks a policy's rules as saving it would (a {@link DomainError} with every rule's error), then runs them on the
 * latest reports of up to `maxHosts` hosts in its scope, most recently seen first. Only the hosts the reader may see
 * (`access`) are read and counted.
 */
export async function previewPolicy(database: Database, access: AccessScope, policy: PreviewedPolicy, options: PreviewOptions = {}): Promise<PolicyPreview> {
  await checkRulesAndBudgets(policy.rules.map(({ id, expression, description }) => ({ id, expression, description })));
  const knex = database.em.getKnex();
  const [{ n }] = (await withReports(knex, access).count({ n: '*' })) as [{ n: number | string }];
  const hostsWithReports = Number(n);
  const scoped = await hostsInScope(
    knex,
    access,
    { scope: scopeOf(policy.scope) },
    { maxHosts: options.maxHosts ?? PREVIEW_MAX_HOSTS, scanPage: options.scanPage ?? SCAN_PAGE, hostsWithReports },
  );
  const counts = new Map(
    policy.rules.map((rule) => [rule.id, { ruleId: rule.id, description: rule.description ?? null, evaluated: 0, passing: 0, failing: 0, errors: 0 }]),
  );
  let failingHosts = 0;
  const runner = options.runner ?? new RuleRunner();
  try {
    await inChunks(database, scoped.hosts, scoped.facts, async (chunk) => {
      const { outcomes } = await runner.run({
        hosts: chunk,
        policies: [{ id: 'preview', rules: policy.rules.map(({ id, expression }) => ({ id, expression })) }],
        now: (options.now ?? new Date()).getTime(),
      });
      for (const host of outcomes) {
        for (const outcome of host) tally(counts.get(outcome.ruleId)!, outcome.outcome.status);
        if (host.some((outcome) => outcome.outcome.status !== 'pass')) failingHosts += 1;
      }
    });
  } finally {
    if (!options.runner) await runner.close();
  }
  return { hostsWithReports, hostsInScope: scoped.total, evaluatedHosts: scoped.hosts.length, failingHosts, rules: [...counts.values()] };
}

/** The hosts with a report that the reader may see. */
function withReports(knex: Knex, access: AccessScope): Knex.QueryBuilder {
  const hosts = knex('host').whereNotNull('latest_report_id');
  limitToScope(knex, hosts, 'id', access);
  return hosts;
}

const HOST_COLUMNS = ['id', 'key_id', 'host_id', 'hostname', 'last_seen', 'latest_report_id'];

/** The hosts with a report, most recently seen first. */
const newestFirst = (knex: Knex, access: AccessScope) =>
  withReports(knex, access)
    .select(HOST_COLUMNS)
    .orderBy([
      { column: 'last_seen', order: 'desc' },
      { column: 'id', order: 'asc' },
    ]);

/**
 * How many hosts with a report the scope selects, and the `maxHosts` most recently seen of them with their facts.
 * The scope is the evaluator's own test ({@link inScope}), so a preview covers exactly the hosts evaluating would;
 * with a scope, every host is read, in pages by id (each page an index range, however large the fleet), keeping only
 * the most recently seen in scope so far.
 */
async function hostsInScope(
  knex: Knex,
  access: AccessScope,
  policy: Pick<StoredPolicy, 'scope'>,
  { maxHosts, scanPage, hostsWithReports }: { maxHosts: number; scanPage: number; hostsWithReports: number },
) {
  if (Object.values(policy.scope).every((condition) => !condition)) {
    const hosts = (await newestFirst(knex, access).limit(maxHosts)) as HostRow[];
    return { total: hostsWithReports, hosts, facts: await hostFactsOf(knex, hosts) };
  }
  let newest: { host: HostRow; facts: HostFacts }[] = [];
  let total = 0;
  for (let after: string | undefined; ;) {
    const query = withReports(knex, access).select(HOST_COLUMNS).orderBy('id').limit(scanPage);
    const page = (await (after === undefined ? query : query.where('id', '>', after))) as HostRow[];
    const facts = await hostFactsOf(knex, page);
    const scoped = page.flatMap((host, index) => (inScope(policy, facts[index]!) ? [{ host, facts: facts[index]! }] : []));
    total += scoped.length;
    newest = [...newest, ...scoped].sort(byNewest).slice(0, maxHosts);
    if (page.length < scanPage) return { total, hosts: newest.map(({ host }) => host), facts: newest.map((found) => found.facts) };
    after = page.at(-1)!.id;
  }
}

/** Most recently seen first, then by id: the order of {@link newestFirst}. */
const byNewest = (a: { host: HostRow; facts: HostFacts }, b: { host: HostRow; facts: HostFacts }) =>
  b.facts.lastSeen.getTime() - a.facts.lastSeen.getTime() || (a.host.id < b.host.id ? -1 : a.host.id > b.host.id ? 1 : 0);

/** Reads the hosts' reports and hands them on in chunks of at most MAX_CHUNK_CHARACTERS, each read only when its chunk is next. */
async function inChunks(database: Database, hosts: HostRow[], facts: HostFacts[], run: (chunk: HostJob[]) => Promise<void>): Promise<void> {
  let chunk: HostJob[] = [];
  let characters = 0;
  for (const [index, host] of hosts.entries()) {
    const report = await latestReportText(database, host.latest_report_id);
    chunk.push({ ...report, facts: { ...facts[index]!, lastSeen: facts[index]!.lastSeen.getTime() }, policies: [0] });
    characters += report.text?.length ?? 0;
    if (characters >= MAX_CHUNK_CHARACTERS) {
      await run(chunk);
      [chunk, characters] = [[], 0];
    }
  }
  if (chunk.length > 0) await run(chunk);
}

function tally(counts: RulePreview, status: string): void {
  counts.evaluated += 1;
  if (status === 'pass') counts.passing += 1;
  else if (status === 'fail') counts.failing += 1;
  else counts.errors += 1;
}
