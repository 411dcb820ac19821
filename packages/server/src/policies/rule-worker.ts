// The worker thread that evaluates rules (started by `rule-runner.ts`): the server's event loop never runs a rule.
import { parentPort, workerData } from 'node:worker_threads';
import { parseLynisReport } from '@org/audit-server-core';
import { RuleBudget, type RuleBudgetLimits } from './rule-budget.js';
import { compileRule, evaluateRule, isExpressionError, type CompiledRule, type RuleOutcome } from './rule-expression.js';
import { ruleVariables, type HostFacts } from './rule-variables.js';
import type { HostOutcomes, RuleJob, RuleWorkerData, WorkerReply } from './rule-runner.js';

/** Where the worker is, for the watchdog: the policy index (-1 between rules) and rule index of the rule running, and a count of hosts and rules started. */
const progress = new Int32Array(progressBufferOf(workerData));
const compiled = new Map<string, CompiledRule | null>();

/** The shared progress buffer of the {@link RuleWorkerData} the runner started this worker with. */
function progressBufferOf(data: unknown): RuleWorkerData['progress'] {
  const buffer = typeof data === 'object' && data !== null && 'progress' in data ? data.progress : undefined;
  if (!(buffer instanceof SharedArrayBuffer)) throw new Error('the rule worker was started without its progress buffer');
  return buffer;
}

function compiledRule(expression: string): CompiledRule | null {
  let rule = compiled.get(expression);
  if (rule === undefined) {
    const result = compileRule(expression);
    rule = isExpressionError(result) ? null : result;
    compiled.set(expression, rule);
  }
  return rule;
}

function evaluateHost(job: RuleJob, index: number): HostOutcomes {
  const host = job.hosts[index]!;
  const limits: RuleBudgetLimits = job.limits;
  const parsed = host.text === null ? null : parseLynisReport(host.text);
  const facts: HostFacts = { ...host.facts, lastSeen: new Date(host.facts.lastSeen) };
  const variables = parsed && ruleVariables(parsed, facts, new Date(job.now));
  const unreadable = host.unreadable ?? 'the latest report is not a Lynis report';
  const hostDeadline = performance.now() + limits.hostTimeMs;
  const outcomes: HostOutcomes = [];
  // A host counts as progress too, so that hosts without rules to run (unreadable reports) never look stuck.
  Atomics.add(progress, 2, 1);
  for (const policyIndex of host.policies) {
    const policy = job.policies[policyIndex]!;
    policy.rules.forEach((rule, ruleIndex) => {
      const given = job.excluded?.[`${policy.id}\n${rule.id}`];
      let outcome: RuleOutcome;
      if (given) outcome = given;
      else if (!variables) outcome = { status: 'error', value: null, message: unreadable };
      else {
        const ready = compiledRule(rule.expression);
        const left = hostDeadline - performance.now();
        Atomics.store(progress, 0, policyIndex);
        Atomics.store(progress, 1, ruleIndex);
        Atomics.add(progress, 2, 1);
        outcome = !ready
          ? { status: 'error', value: null, message: 'the rule no longer compiles' }
          : left <= 0
            ? { status: 'error', value: null, message: `the host's rules exceeded their time budget of ${limits.hostTimeMs} ms` }
            : evaluateRule(ready, variables, new RuleBudget(limits, Math.min(limits.timeMs, left)));
        Atomics.store(progress, 0, -1);
        // Cut short by the host's budget, which the rules before it spent: no strike against this rule.
        if (outcome.overrun === 'time' && left < limits.timeMs)
          outcome = { status: 'error', value: null, message: `the host's rules exceeded their time budget of ${limits.hostTimeMs} ms` };
      }
      outcomes.push({ policyId: policy.id, ruleId: rule.id, outcome });
    });
  }
  return outcomes;
}

/** How often finished hosts are posted: seldom enough to cost little, often enough that a stopped worker loses little. */
const POST_EVERY_MS = 50;

parentPort!.on('message', (job: RuleJob) => {
  let pending: HostOutcomes[] = [];
  let from = job.from;
  let posted = performance.now();
  const post = () => {
    parentPort!.postMessage({ type: 'hosts', from, outcomes: pending } satisfies WorkerReply);
    [from, pending, posted] = [from + pending.length, [], performance.now()];
  };
  for (let index = job.from; index < job.hosts.length; index++) {
    pending.push(evaluateHost(job, index));
    if (performance.now() - posted > POST_EVERY_MS) post();
  }
  post();
  parentPort!.postMessage({ type: 'done' } satisfies WorkerReply);
});
