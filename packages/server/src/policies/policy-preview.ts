// How many hosts each rule of a policy would fail, before the policy is saved or enabled: the rules run on the latest
// reports of the most recently seen hosts, in the rule worker under the evaluation budget, and nothing is written.
import type { Rule } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { hostFactsOf, latestReportText, MAX_CHUNK_CHARACTERS, type HostRow } from './policy-evaluator.js';
import { RuleRunner, type HostJob } from './rule-runner.js';

/** Hosts a preview evaluates at most: the most recently seen ones, so that a preview of a large fleet stays quick. */
export const PREVIEW_MAX_HOSTS = 2000;

/** One rule's outcome over the hosts previewed. */
export interface RulePreview {
  ruleId: string;
  description: string | null;
  evaluated: number;
  passing: number;
  failing: number;
  errors: number;
}

/** A preview: how many hosts have a report, how many of them were evaluated, and each rule's counts. */
export interface PolicyPreview {
  hostsWithReports: number;
  evaluatedHosts: number;
  rules: RulePreview[];
}

/** Runs `rules` on the latest reports of up to `maxHosts` hosts (most recently seen first), every host in scope. */
export async function previewRules(
  database: Database,
  rules: Pick<Rule, 'id' | 'expression' | 'description'>[],
  options: { maxHosts?: number; now?: Date; runner?: RuleRunner } = {},
): Promise<PolicyPreview> {
  const knex = database.em.getKnex();
  const withReports = knex('host').whereNotNull('latest_report_id');
  const [{ n }] = (await withReports.clone().count({ n: '*' })) as [{ n: number | string }];
  const hosts = (await withReports
    .clone()
    .select('id', 'key_id', 'host_id', 'hostname', 'last_seen', 'latest_report_id')
    .orderBy([
      { column: 'last_seen', order: 'desc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(options.maxHosts ?? PREVIEW_MAX_HOSTS)) as HostRow[];
  const counts = new Map(
    rules.map((rule) => [rule.id, { ruleId: rule.id, description: rule.description ?? null, evaluated: 0, passing: 0, failing: 0, errors: 0 }]),
  );
  const runner = options.runner ?? new RuleRunner();
  try {
    const facts = await hostFactsOf(knex, hosts);
    let chunk: HostJob[] = [];
    let characters = 0;
    const runChunk = async () => {
      const { outcomes } = await runner.run({
        hosts: chunk,
        policies: [{ id: 'preview', rules: rules.map(({ id, expression }) => ({ id, expression })) }],
        now: (options.now ?? new Date()).getTime(),
      });
      for (const outcome of outcomes.flat()) tally(counts.get(outcome.ruleId)!, outcome.outcome.status);
      [chunk, characters] = [[], 0];
    };
    for (const [index, host] of hosts.entries()) {
      const report = await latestReportText(database, host.latest_report_id);
      chunk.push({ ...report, facts: { ...facts[index]!, lastSeen: facts[index]!.lastSeen.getTime() }, policies: [0] });
      characters += report.text?.length ?? 0;
      if (characters >= MAX_CHUNK_CHARACTERS) await runChunk();
    }
    if (chunk.length > 0) await runChunk();
  } finally {
    if (!options.runner) await runner.close();
  }
  return { hostsWithReports: Number(n), evaluatedHosts: hosts.length, rules: [...counts.values()] };
}

function tally(counts: RulePreview, status: string): void {
  counts.evaluated += 1;
  if (status === 'pass') counts.passing += 1;
  else if (status === 'fail') counts.failing += 1;
  else counts.errors += 1;
}
