import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import { describeFailure, type AuditLogger } from '@org/audit-server-core';
import type { RuleStatus } from '../generated/types.gen.js';
import type { Database, DatabaseTime } from '../database/dialect.js';
import { BackgroundPasses, BackgroundWorker } from '../ops/background-passes.js';
import { chunks } from '../database/batches.js';
import type { HostRecord, PolicyResultRecord } from '../database/entities.js';
import type { ReadRowOf, RowOf } from '../database/rows.js';
import { sqlDialectOf } from '../database/dialects.js';
import { CONTENT_COLUMNS, DamagedReportError, reportBytesOf, type ContentColumns } from '../reports/report-content.js';
import { writeEvents, type OutboxEvent } from '../webhooks/outbox.js';
import { listPolicies, policySetOf, type StoredPolicy } from './policy-records.js';
import { countResults, type CountedResult } from './policy-counts.js';
import { recordComplianceDay } from './policy-results.js';
import { reapRuns, recordOverruns, withRun, type Overrun } from './policy-quarantine.js';
import { compileRule, isExpressionError, type CompiledRule } from './rule-expression.js';
import { RuleRunner, type HostJob, type RuleRunnerOptions } from './rule-runner.js';
import type { HostFacts } from './rule-variables.js';

/** Tuning of {@link PolicyEvaluator}. */
export interface PolicyEvaluatorOptions {
  /** How often to look for hosts out of date even when nothing woke the evaluator. Default 60 s. */
  intervalMs?: number;
  /** How old a result of a rule that reads `now` may grow before it is evaluated again. Default 1 h. */
  clockRecheckMs?: number;
  /** Hosts evaluated per transaction. Default 100. */
  batchSize?: number;
  logger?: AuditLogger;
  /** The clock, for tests. */
  now?: () => Date;
  /** Told after a batch wrote webhook events (a host's compliance changed). */
  onEvents?: () => void;
  /** The worker that runs the rules (its budget, heap, watchdog). */
  runner?: RuleRunnerOptions;
}

/** A policy ready to evaluate: its rules compiled once per revision. */
interface ReadyPolicy {
  policy: StoredPolicy;
  rules: { id: string; compiled: CompiledRule }[];
}

/** A host out of date, as the evaluator reads it (only hosts with a report: `latest_report_id` set). */
export type HostRow = Pick<ReadRowOf<HostRecord>, 'id' | 'key_id' | 'host_id' | 'hostname' | 'last_seen'> & { latest_report_id: string };

/** A `policy_result` row as the evaluator writes it. */
type ResultRow = Omit<RowOf<PolicyResultRecord>, 'status'> & { status: RuleStatus };

/** A host some policy's scope selects: the facts its rules see and the indexes of those policies. */
interface Candidate {
  host: HostRow;
  facts: HostJob['facts'];
  applicable: number[];
}

/** Hosts sent to the worker at once, with their jobs. */
type HostChunk = { host: HostRow; job: HostJob }[];

/** What running the rules on a batch gave: the results to write and the budgets exceeded. */
interface RuleRun {
  results: ResultRow[];
  overruns: Overrun[];
}

const WAKE_DELAY_MS = 100;
const MEASURE_INTERVAL_MS = 60_000;
const MAX_MESSAGE = 500;
/** Characters of report text sent to the worker at once. */
export const MAX_CHUNK_CHARACTERS = 32 * 1024 * 1024;

/**
 * Keeps every host's policy results in step with its latest report and the enabled policies. It finds the hosts
 * out of date with one query (a new latest report, another set of policies, or a rule reading `now` evaluated too
 * long ago) against `policy_evaluation`, so nothing is lost when a server stops between an upload and its
 * evaluation: the next pass, on this server or another, finds the host. Uploads and policy changes wake it; a
 * timer catches the rest. Results are written in one transaction per batch, with a `policy_result_change` row for
 * every status that changed. Rules run in a worker thread under a budget (`rule-runner.ts`), never on this thread;
 * overruns strike and quarantine policies (`policy-quarantine.ts`).
 */
export class PolicyEvaluator extends BackgroundWorker {
  protected readonly passes: BackgroundPasses;
  private compiled = new Map<string, ReadyPolicy>();
  private lastMeasured = 0;
  private readonly runner: RuleRunner;
  /** This evaluator's rows in `policy_run`. */
  private readonly runId = randomUUID();

  private readonly clockRecheckMs: number;
  private readonly batchSize: number;
  private readonly now: () => Date;

  constructor(
    private readonly database: Database,
    private readonly options: PolicyEvaluatorOptions = {},
  ) {
    super();
    this.clockRecheckMs = options.clockRecheckMs ?? 3_600_000;
    this.batchSize = options.batchSize ?? 100;
    this.now = options.now ?? (() => new Date());
    this.runner = new RuleRunner(options.runner);
    this.passes = new BackgroundPasses(() => this.evaluateOutOfDate(), {
      intervalMs: options.intervalMs ?? 60_000,
      wakeDelayMs: WAKE_DELAY_MS,
      onError: (error) => options.logger?.error({ error: describeFailure(error) }, 'policy evaluation failed; retrying on the next pass'),
    });
  }

  /** Evaluates batches of out-of-date hosts until none is left. */
  private async evaluateOutOfDate(): Promise<void> {
    const policies = this.ready(await listPolicies(this.database));
    const policySet = policySetOf(policies.map((ready) => ready.policy));
    const readsNow = policies.some((ready) => ready.rules.some((rule) => rule.compiled.readsNow));
    // With no policy enabled and no result kept, evaluating would write only its own bookkeeping (a commit per pass
    // on SQLite, competing with the uploads'): skipped. Enabling a policy changes the policy set, which puts every
    // host out of date again.
    if (policies.length === 0 && !(await this.database.em.getKnex()('policy_result').first('policy_id'))) return this.measureFleet(this.now());
    // Each batch starts after the last one's hosts (in id order): starting from the first host every time skipped
    // every host already done, which made a pass over a fleet quadratic (at 100,000 hosts, minutes of scans). A host
    // that falls out of date behind the batches wakes the evaluator, which makes one more pass after this one.
    let after: string | undefined;
    while (!this.passes.isStopped) {
      const now = this.now();
      const hosts = await this.outOfDateHosts(policySet, readsNow ? new Date(now.getTime() - this.clockRecheckMs) : undefined, after);
      if (hosts.length === 0) return this.measureFleet(now);
      // Evidence of a server that stopped while running these policies is read before they run again here.
      const { waitMs, reaped } = await reapRuns(
        this.database,
        this.runId,
        policies.map((ready) => ready.policy.id),
        this.options.logger,
        now,
      );
      if (reaped) return this.evaluateOutOfDate();
      if (waitMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(waitMs, 1000)));
        continue;
      }
      // A policy quarantined by this batch is not run again: the pass starts over, reading the policies anew.
      if (await this.evaluateHosts(hosts, policies, policySet, now)) return this.evaluateOutOfDate();
      after = hosts.at(-1)!.id;
    }
  }

  /** Stops the passes, then the worker. */
  override async stop(): Promise<void> {
    await super.stop();
    await this.runner.close();
  }

  /** Records the day's compliance for the overview's trend, at most once a minute. */
  private async measureFleet(now: Date): Promise<void> {
    if (now.getTime() - this.lastMeasured < MEASURE_INTERVAL_MS) return;
    this.lastMeasured = now.getTime();
    await recordComplianceDay(this.database, now);
  }

  /** The enabled policies with their rules compiled, reusing what was compiled for the same revision. */
  private ready(policies: StoredPolicy[]): ReadyPolicy[] {
    const ready = new Map<string, ReadyPolicy>();
    for (const policy of policies.filter((candidate) => candidate.enabled)) {
      const key = `${policy.id}:${policy.revision}`;
      const known = this.compiled.get(key);
      ready.set(key, known ?? { policy, rules: policy.rules.flatMap((rule) => compiledOrNothing(rule.id, rule.expression)) });
    }
    this.compiled = ready;
    return [...ready.values()];
  }

  private async outOfDateHosts(policySet: string, evaluatedBefore: Date | undefined, after: string | undefined): Promise<HostRow[]> {
    const knex = this.database.em.getKnex();
    const query = knex('host as h')
      .leftJoin('policy_evaluation as e', 'e.host_record_id', 'h.id')
      .select('h.id', 'h.key_id', 'h.host_id', 'h.hostname', 'h.last_seen', 'h.latest_report_id')
      .whereNotNull('h.latest_report_id')
      // Decommissioned hosts hold no results (`hosts/host-lifecycle.ts`): evaluated again when they are back.
      .andWhere('h.state', '<>', 'decommissioned')
      .andWhere((outOfDate) => {
        outOfDate.whereNull('e.host_record_id').orWhereRaw('e.report_id <> h.latest_report_id').orWhere('e.policy_set', '<>', policySet);
        if (evaluatedBefore) outOfDate.orWhere('e.evaluated_at', '<', sqlDialectOf(this.database.em).toDatabaseTime(evaluatedBefore));
      })
      .orderBy('h.id')
      .limit(this.batchSize);
    if (after !== undefined) query.andWhere('h.id', '>', after);
    return (await query) as HostRow[];
  }

  /** Evaluates a batch of hosts and writes their results; resolves with whether a policy was quarantined. */
  private async evaluateHosts(hosts: HostRow[], policies: ReadyPolicy[], policySet: string, now: Date): Promise<boolean> {
    const time = sqlDialectOf(this.database.em).toDatabaseTime(now);
    const candidates = await candidatesOf(this.database.em.getKnex(), hosts, policies);
    const { results, overruns } = await this.runRules(candidates, policies, now, time);
    const wroteEvents = await writeResults(this.database, { hosts, policies, policySet, results, time });
    const quarantined = await recordOverruns(this.database, overruns, this.options.logger, now);
    if (wroteEvents || quarantined) this.options.onEvents?.();
    return quarantined;
  }

  /**
   * Runs the rules in scope of each candidate on its latest report. Reports go to the worker in chunks of at most
   * MAX_CHUNK_CHARACTERS (a batch of the largest reports would hold gigabytes at once), read only when their chunk is next.
   */
  private async runRules(candidates: Candidate[], policies: ReadyPolicy[], now: Date, time: DatabaseTime): Promise<RuleRun> {
    const run: RuleRun = { results: [], overruns: [] };
    let chunk: HostChunk = [];
    let characters = 0;
    for (const { host, facts, applicable } of candidates) {
      const report = await latestReportText(this.database, host.latest_report_id);
      chunk.push({ host, job: { ...report, facts, policies: applicable } });
      characters += report.text?.length ?? 0;
      if (characters >= MAX_CHUNK_CHARACTERS) {
        await this.runChunk(chunk, policies, now, time, run);
        [chunk, characters] = [[], 0];
      }
    }
    if (chunk.length > 0) await this.runChunk(chunk, policies, now, time, run);
    return run;
  }

  /** Runs one chunk of hosts in the worker and adds their results and overruns to `run`. */
  private async runChunk(chunk: HostChunk, policies: ReadyPolicy[], now: Date, time: DatabaseTime, run: RuleRun): Promise<void> {
    const running = [...new Set(chunk.flatMap(({ job }) => job.policies.map((index) => policies[index]!.policy.id)))];
    // The rows say which policies run only while the worker runs them: a server killed while it reads or writes
    // the database is no evidence against a rule.
    const { outcomes, incidents } = await withRun(this.database, this.runId, running, () =>
      this.runner.run({
        hosts: chunk.map(({ job }) => job),
        policies: policies.map(({ policy }) => ({ id: policy.id, rules: policy.rules })),
        now: now.getTime(),
      }),
    );
    run.overruns.push(...incidents);
    const revisions = new Map(policies.map(({ policy }) => [policy.id, policy.revision]));
    chunk.forEach(({ host }, index) => {
      for (const { policyId, ruleId, outcome } of outcomes[index] ?? []) {
        if (outcome.overrun === 'time') run.overruns.push({ policyId, ruleId, kind: 'time', message: outcome.message! });
        run.results.push({
          policy_id: policyId,
          rule_id: ruleId,
          host_record_id: host.id,
          status: outcome.status,
          value: outcome.value,
          message: outcome.message?.slice(0, MAX_MESSAGE) ?? null,
          report_id: host.latest_report_id,
          evaluated_at: time,
          since: time,
          hostname: host.hostname,
          nameless: host.hostname === null,
          policy_revision: revisions.get(policyId)!,
        });
      }
    });
  }
}

/** A host's latest report as text for the worker, or why it cannot be read. */
export async function latestReportText(database: Database, reportId: string): Promise<Pick<HostJob, 'text' | 'unreadable'>> {
  const [row] = (await database.em
    .getKnex()('report')
    .select(...CONTENT_COLUMNS)
    .where('id', reportId)) as ContentColumns[];
  if (!row) return { text: null, unreadable: 'the latest report is gone' };
  // A damaged report is an error of every rule, said as such, rather than a pass that stops all evaluation.
  const bytes = await reportBytesOf(row).catch((error: unknown) => {
    if (error instanceof DamagedReportError) return error;
    throw error;
  });
  return bytes instanceof Buffer
    ? { text: bytes.toString('utf8'), unreadable: null }
    : { text: null, unreadable: 'the latest report is damaged in the database' };
}

/** What the rules see of each host beside its report, in the order given. */
export async function hostFactsOf(knex: Knex, hosts: HostRow[]): Promise<HostFacts[]> {
  const labels = await labelsOf(
    knex,
    hosts.map((host) => host.id),
  );
  return hosts.map((host) => ({
    hostname: host.hostname,
    hostId: host.host_id,
    keyId: host.key_id,
    groups: labels.get(`${host.id}\ngroup`) ?? [],
    tags: labels.get(`${host.id}\ntag`) ?? [],
    lastSeen: new Date(host.last_seen),
  }));
}

/** The hosts of a batch that some policy's scope selects, with the facts their rules see and those policies (by index). */
async function candidatesOf(knex: Knex, hosts: HostRow[], policies: ReadyPolicy[]): Promise<Candidate[]> {
  const facts = await hostFactsOf(knex, hosts);
  const candidates: Candidate[] = [];
  hosts.forEach((host, index) => {
    const hostFacts = facts[index]!;
    const applicable = policies.flatMap(({ policy }, at) => (inScope(policy, hostFacts) ? [at] : []));
    if (applicable.length > 0) candidates.push({ host, facts: { ...hostFacts, lastSeen: hostFacts.lastSeen.getTime() }, applicable });
  });
  return candidates;
}

/**
 * Replaces the batch's hosts' results with `results` in one transaction: a `policy_result_change` row for every
 * status that changed (an unchanged status keeps its `since`), the compliance events, the kept counts, and the
 * hosts' `policy_evaluation` rows. Resolves with whether it wrote webhook events.
 */
async function writeResults(
  database: Database,
  batch: { hosts: HostRow[]; policies: ReadyPolicy[]; policySet: string; results: ResultRow[]; time: DatabaseTime },
): Promise<boolean> {
  const { policies, policySet, time } = batch;
  const dialect = sqlDialectOf(database.em);
  return database.em.getKnex().transaction(async (trx) => {
    // A host decommissioned while its rules ran keeps no results: its counts were withdrawn.
    const gone = new Set(
      (
        (await trx('host')
          .select('id')
          .whereIn(
            'id',
            batch.hosts.map((host) => host.id),
          )
          .andWhere('state', 'decommissioned')) as { id: string }[]
      ).map((row) => row.id),
    );
    const hosts = gone.size === 0 ? batch.hosts : batch.hosts.filter((host) => !gone.has(host.id));
    const results = gone.size === 0 ? batch.results : batch.results.filter((result) => !gone.has(result.host_record_id));
    const ids = hosts.map((host) => host.id);
    const previous = new Map<string, { status: string; since: DatabaseTime }>();
    const stored = await trx('policy_result').select<ResultRow[]>('policy_id', 'rule_id', 'host_record_id', 'status', 'since').whereIn('host_record_id', ids);
    for (const row of stored) previous.set(resultKey(row), { status: row.status, since: row.since });
    const changes = statusChanges(results, previous, time);
    const wroteEvents = (await writeEvents(trx, complianceEvents(results, previous, hosts, policies), time)) > 0;
    // Counted from what the delete removed, not from what was read before: the counts stay exact whatever another
    // server's evaluator committed in between.
    const removed = await dialect.deleteReturning<CountedResult>(trx('policy_result').whereIn('host_record_id', ids), [
      'policy_id',
      'rule_id',
      'host_record_id',
      'status',
    ]);
    for (const chunk of chunks(results, 50)) await trx('policy_result').insert(chunk);
    await countResults(trx, dialect, removed, results);
    for (const chunk of chunks(changes, 50)) await trx('policy_result_change').insert(chunk);
    await trx('policy_evaluation').whereIn('host_record_id', ids).delete();
    for (const chunk of chunks(hosts, 100)) {
      await trx('policy_evaluation').insert(
        chunk.map((host) => ({ host_record_id: host.id, report_id: host.latest_report_id, policy_set: policySet, evaluated_at: time })),
      );
    }
    return wroteEvents;
  });
}

/**
 * The `policy_result_change` rows of the results whose status differs from the one stored; a result whose status
 * stays takes the stored `since`.
 */
function statusChanges(results: ResultRow[], previous: Map<string, { status: string; since: DatabaseTime }>, time: DatabaseTime) {
  const changes = [];
  for (const result of results) {
    const before = previous.get(resultKey(result));
    if (before?.status === result.status) result.since = before.since;
    else
      changes.push({
        id: randomUUID(),
        host_record_id: result.host_record_id,
        policy_id: result.policy_id,
        rule_id: result.rule_id,
        status: result.status,
        value: result.value,
        report_id: result.report_id,
        at: time,
        policy_revision: result.policy_revision,
      });
  }
  return changes;
}

/**
 * `host.noncompliant` when a host's results on a policy come to include a failure, `host.compliant` when every rule
 * passes again after that (a first evaluation that passes is no news).
 */
function complianceEvents(results: ResultRow[], previous: Map<string, { status: string }>, hosts: HostRow[], policies: ReadyPolicy[]): OutboxEvent[] {
  const byHostAndPolicy = new Map<string, ResultRow[]>();
  for (const result of results) {
    const key = `${result.host_record_id}\n${result.policy_id}`;
    byHostAndPolicy.set(key, [...(byHostAndPolicy.get(key) ?? []), result]);
  }
  const events: OutboxEvent[] = [];
  for (const [key, rows] of byHostAndPolicy) {
    const before = rows.map((row) => previous.get(resultKey(row))?.status).filter((status) => status !== undefined);
    const failing = rows.filter((row) => row.status === 'fail').map((row) => row.rule_id);
    const failedBefore = before.includes('fail');
    const passesNow = rows.every((row) => row.status === 'pass');
    const type =
      failing.length > 0 && !failedBefore
        ? 'host.noncompliant'
        : passesNow && before.length > 0 && before.some((status) => status !== 'pass')
          ? 'host.compliant'
          : undefined;
    if (!type) continue;
    const [hostRecordId, policyId] = key.split('\n') as [string, string];
    const host = hosts.find((candidate) => candidate.id === hostRecordId)!;
    const policy = policies.find((candidate) => candidate.policy.id === policyId)!.policy;
    events.push({
      type,
      data: {
        hostRecordId,
        hostId: host.host_id,
        keyId: host.key_id,
        hostname: host.hostname,
        policyId,
        policyName: policy.name,
        reportId: host.latest_report_id,
        failingRules: failing,
      },
    });
  }
  return events;
}

/** Whether a policy's scope selects a host: every condition given holds. */
export function inScope(policy: Pick<StoredPolicy, 'scope'>, host: HostFacts): boolean {
  const { keyId, group, tag, hostname } = policy.scope;
  if (keyId && keyId !== host.keyId.toLowerCase()) return false;
  if (group && !host.groups.includes(group)) return false;
  if (tag && !host.tags.includes(tag)) return false;
  if (hostname && !globMatches(hostname, host.hostname ?? '')) return false;
  return true;
}

/** `*` for any characters, everything else literal, ignoring case. */
function globMatches(pattern: string, text: string): boolean {
  const parts = pattern.toLowerCase().split('*');
  const subject = text.toLowerCase();
  if (parts.length === 1) return subject === parts[0];
  if (!subject.startsWith(parts[0]!) || !subject.endsWith(parts.at(-1)!)) return false;
  let at = parts[0]!.length;
  const end = subject.length - parts.at(-1)!.length;
  for (const part of parts.slice(1, -1)) {
    const found = subject.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return at <= end;
}

/** Groups and tags of hosts, by `<host id>\n<kind>`, in the report's order. */
async function labelsOf(knex: Knex, hostIds: string[]): Promise<Map<string, string[]>> {
  const labels = new Map<string, string[]>();
  const rows = (await knex('host_label')
    .select('host_record_id', 'kind', 'value')
    .whereIn('host_record_id', hostIds)
    .orderBy(['host_record_id', 'kind', 'position'])) as {
    host_record_id: string;
    kind: string;
    value: string;
  }[];
  for (const row of rows) {
    const key = `${row.host_record_id}\n${row.kind}`;
    labels.set(key, [...(labels.get(key) ?? []), row.value]);
  }
  return labels;
}

function compiledOrNothing(id: string, expression: string): { id: string; compiled: CompiledRule }[] {
  const compiled = compileRule(expression);
  return isExpressionError(compiled) ? [] : [{ id, compiled }];
}

const resultKey = (row: Pick<ResultRow, 'policy_id' | 'rule_id' | 'host_record_id'>) => `${row.policy_id}\n${row.rule_id}\n${row.host_record_id}`;
