import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Rule } from '../generated/types.gen.js';
import { RULE_BUDGET, type RuleBudgetLimits } from './rule-budget.js';
import type { RuleOutcome } from './rule-expression.js';
import type { HostFacts } from './rule-variables.js';

/** One host to evaluate: its latest report's text (null when unreadable, `unreadable` saying why) and which policies apply. */
export interface HostJob {
  text: string | null;
  unreadable: string | null;
  facts: Omit<HostFacts, 'lastSeen'> & { lastSeen: number };
  /** Indexes into {@link RuleJob.policies}. */
  policies: number[];
}

/** A batch of hosts sent to the worker in one message: each report's text once, whatever the number of rules. */
export interface RuleJob {
  hosts: HostJob[];
  policies: { id: string; rules: Pick<Rule, 'id' | 'expression'>[] }[];
  now: number;
  limits: RuleBudgetLimits;
  /** The first host to evaluate (a batch resumed in a new worker after the last one was stopped). */
  from: number;
  /** Rules not to run (`<policy id>\n<rule id>`), with their outcome: those that stopped a worker earlier in the batch. */
  excluded?: Record<string, RuleOutcome>;
}

/** One host's outcomes, in the order of its policies and rules. */
export type HostOutcomes = { policyId: string; ruleId: string; outcome: RuleOutcome }[];

/** What the worker posts: the outcomes of the hosts from `from` on, every few tens of milliseconds, then `done`. */
export type WorkerReply = { type: 'hosts'; from: number; outcomes: HostOutcomes[] } | { type: 'done' };

/** A rule that stopped its worker: it overran the clock without yielding, or exhausted the worker's heap. */
export interface RuleIncident {
  policyId: string;
  ruleId: string;
  kind: 'time' | 'crash';
  message: string;
}

/** Tuning of {@link RuleRunner}. */
export interface RuleRunnerOptions {
  limits?: RuleBudgetLimits;
  /** The worker's heap (old generation), MiB. Default 256. */
  heapMb?: number;
  /** How long one rule may run (it did not yield to its own clock) before the watchdog stops the worker. Default: its time budget plus 1 s. */
  watchdogMs?: number;
}

const WATCHDOG_INTERVAL_MS = 50;

/** The worker's script: the built one, also when this module runs from source (unit tests). */
function workerScript(): URL {
  const sibling = new URL('./rule-worker.js', import.meta.url);
  return existsSync(fileURLToPath(sibling)) ? sibling : new URL('../../dist/policies/rule-worker.js', import.meta.url);
}

/** What the runner hands the worker at its start (`workerData`). */
export interface RuleWorkerData {
  /** Where the worker says which rule it runs, for the watchdog (see `rule-worker.ts`). */
  progress: SharedArrayBuffer;
}

/**
 * Evaluates rules in a worker thread with a heap limit, so that a rule can neither block the event loop (license
 * checks and uploads keep their latency) nor exhaust the server's memory. The worker enforces each rule's budget
 * itself (`rule-budget.ts`); a watchdog here stops a worker whose rule has run past its time budget plus a grace
 * without yielding, and a worker that dies (heap limit) is replaced: the batch goes on in a new worker from the
 * rule after the culprit, whose outcome is an error and which is reported as a {@link RuleIncident}.
 */
export class RuleRunner {
  private worker: Worker | undefined;
  private readonly progress = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
  private readonly limits: RuleBudgetLimits;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: RuleRunnerOptions = {}) {
    this.limits = options.limits ?? { ...RULE_BUDGET };
  }

  /** Every host's outcomes, and the rules that stopped a worker; one batch at a time. */
  run(job: Omit<RuleJob, 'limits' | 'from'>): Promise<{ outcomes: HostOutcomes[]; incidents: RuleIncident[] }> {
    const result = this.queue.then(() => this.runBatch({ ...job, limits: this.limits, from: 0 }));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Stops the worker (the next batch starts another). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(workerScript(), {
      workerData: { progress: this.progress } satisfies RuleWorkerData,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb ?? 256, maxYoungGenerationSizeMb: 16 },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    // A worker that ends between batches is replaced by the next batch.
    worker.once('exit', () => {
      if (this.worker === worker) this.worker = undefined;
    });
    return worker;
  }

  private async runBatch(job: RuleJob): Promise<{ outcomes: HostOutcomes[]; incidents: RuleIncident[] }> {
    const outcomes: HostOutcomes[] = [];
    const incidents: RuleIncident[] = [];
    while (job.from < job.hosts.length) {
      const stop = await this.runInWorker(job, outcomes);
      if (!stop) break;
      // The culprit is excluded from the rest of the batch; the worker that replaces the stopped one resumes at the
      // first host whose outcomes did not arrive.
      const view = new Int32Array(this.progress);
      const policy = job.policies[Atomics.load(view, 0)];
      // Stopped between rules (reading a report): no rule to blame; the pass fails and is retried.
      if (!policy) throw new Error(`the rule evaluator stopped outside a rule: ${stop.message}`);
      const rule = policy.rules[Atomics.load(view, 1)]!;
      incidents.push({ policyId: policy.id, ruleId: rule.id, kind: stop.kind, message: stop.message });
      job = {
        ...job,
        from: outcomes.length,
        excluded: { ...job.excluded, [`${policy.id}\n${rule.id}`]: { status: 'error', value: null, message: stop.message } },
      };
    }
    return { outcomes, incidents };
  }

  /** Runs the job from `job.from` in the worker; resolves with why it was stopped, or undefined when it finished. */
  private runInWorker(job: RuleJob, outcomes: HostOutcomes[]): Promise<{ kind: 'time' | 'crash'; message: string } | undefined> {
    const worker = (this.worker ??= this.spawn());
    worker.ref();
    const view = new Int32Array(this.progress);
    Atomics.store(view, 0, -1);
    Atomics.store(view, 2, 0);
    return new Promise((resolve) => {
      let lastCount = -1;
      let lastChange = performance.now();
      const settle = (stop?: { kind: 'time' | 'crash'; message: string }) => {
        clearInterval(watchdog);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (stop) {
          if (this.worker === worker) this.worker = undefined;
          void worker.terminate();
        } else worker.unref();
        resolve(stop);
      };
      const onMessage = (reply: WorkerReply) => {
        if (reply.type === 'done') return settle();
        outcomes.splice(reply.from, reply.outcomes.length, ...reply.outcomes);
      };
      const onError = (error: Error & { code?: string }) =>
        settle({
          kind: 'crash',
          message:
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? 'the rule exhausted the memory of the evaluator'
              : `the evaluator failed on the rule: ${error.message.split('\n')[0]}`,
        });
      const onExit = () => settle({ kind: 'crash', message: 'the evaluator stopped while running the rule' });
      const watchdog = setInterval(() => {
        const count = Atomics.load(view, 2);
        if (count !== lastCount) [lastCount, lastChange] = [count, performance.now()];
        else if (count > 0 && performance.now() - lastChange > (this.options.watchdogMs ?? this.limits.timeMs + 1000)) {
          settle({ kind: 'time', message: `the rule exceeded its time budget of ${this.limits.timeMs} ms` });
        }
      }, WATCHDOG_INTERVAL_MS);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(job);
    });
  }
}
