import type { Knex } from '@mikro-orm/knex';
import type { AuditLogger } from '@org/audit-server-core';
import type { Database, DatabaseTime } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { recordPolicyVersion } from '../compliance/policy-versions.js';
import { writeEvents } from '../webhooks/outbox.js';

/** Time overruns after which a policy is quarantined. */
export const STRIKES_TO_QUARANTINE = 3;

/** A rule's overrun, as the evaluator tells it: `time` (a strike), `crash` (quarantined at once). */
export interface Overrun {
  policyId: string;
  /** Null when not known (a server stopped during a run of the policy's rules). */
  ruleId: string | null;
  kind: 'time' | 'crash';
  message: string;
}

/**
 * Records overruns: a time overrun is a strike on its policy, and a policy reaching {@link STRIKES_TO_QUARANTINE}
 * strikes, or whose rule stopped the evaluator, is quarantined: disabled, with the time and the reason, and a
 * `policy.quarantined` event, in one transaction; resolves with whether one was. The policy is the unit (not the
 * rule): a policy with a rule disabled would report hosts compliant on rules they were never checked against.
 */
export async function recordOverruns(database: Database, overruns: Overrun[], logger?: AuditLogger, now = new Date()): Promise<boolean> {
  if (overruns.length === 0) return false;
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  let quarantined = false;
  await database.em.getKnex().transaction(async (trx) => {
    for (const [policyId, ofPolicy] of groupBy(overruns, (overrun) => overrun.policyId)) {
      const strikes = ofPolicy.filter((overrun) => overrun.kind === 'time').length;
      const crash = ofPolicy.find((overrun) => overrun.kind === 'crash');
      await trx('policy')
        .where('id', policyId)
        .update({ strikes: trx.raw('strikes + ?', [strikes]) });
      const [row] = (await trx('policy').select('name', 'strikes').where('id', policyId).whereNull('quarantined_at')) as { name: string; strikes: number }[];
      if (!row || (!crash && Number(row.strikes) < STRIKES_TO_QUARANTINE)) continue;
      const culprit = crash ?? ofPolicy.at(-1)!;
      const rule = culprit.ruleId === null ? '' : `rule ${culprit.ruleId}: `;
      const reason = crash ? `${rule}${crash.message}` : `${rule}${culprit.message} (${Number(row.strikes)} overruns)`;
      await quarantine(trx, policyId, row.name, culprit.ruleId, reason, time, now);
      logger?.warn({ policyId, ruleId: culprit.ruleId, reason }, 'policy quarantined');
      quarantined = true;
    }
  });
  return quarantined;
}

async function quarantine(
  trx: Knex.Transaction,
  policyId: string,
  name: string,
  ruleId: string | null,
  reason: string,
  time: DatabaseTime,
  now: Date,
): Promise<void> {
  await trx('policy')
    .where('id', policyId)
    .update({ enabled: false, quarantined_at: time, quarantine_reason: reason, revision: trx.raw('revision + 1') });
  await recordPolicyVersion(trx, policyId, time);
  await writeEvents(trx, [{ type: 'policy.quarantined', data: { policyId, policyName: name, ruleId, reason, at: now.toISOString() } }], time);
}

/** How long a run's rows stay valid without being renewed, and how often a run renews them. */
const RUN_LEASE_MS = 15_000;
const RUN_RENEW_MS = 5_000;

/**
 * Runs `evaluate` (the worker evaluating the rules of `policyIds`) between writing a row per policy and deleting
 * them: rows renewed every few seconds while it runs, so that a row past its expiry is a server that did not survive
 * the evaluation. Rows this run left behind earlier (a failed delete) are replaced, not duplicated.
 */
export async function withRun<T>(database: Database, runId: string, policyIds: string[], evaluate: () => Promise<T>): Promise<T> {
  if (policyIds.length === 0) return evaluate();
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const expiry = () => dialect.toDatabaseTime(new Date(Date.now() + RUN_LEASE_MS));
  await knex.transaction(async (trx) => {
    await trx('policy_run').where('run_id', runId).delete();
    await trx('policy_run').insert(policyIds.map((policyId) => ({ policy_id: policyId, run_id: runId, expires_at: expiry() })));
  });
  const renewal = setInterval(
    () =>
      void knex('policy_run')
        .where('run_id', runId)
        .update({ expires_at: expiry() })
        .catch(() => undefined),
    RUN_RENEW_MS,
  );
  try {
    return await evaluate();
  } finally {
    clearInterval(renewal);
    // Left behind when the database is unreachable: replaced by this run's next batch, or read as abandoned.
    await knex('policy_run')
      .where('run_id', runId)
      .delete()
      .catch(() => undefined);
  }
}

/**
 * Looks at other runs of `policyIds`: those past their expiry were abandoned by a server that stopped during the
 * evaluation. A run of one policy quarantines it at once; a run of several gives each a strike (the culprit is
 * among them). Resolves with whether it reaped any, and how long to wait for runs still in progress (0: none), so
 * that a server restarted after a crash does not run the same rules before the evidence is read.
 */
export async function reapRuns(
  database: Database,
  runId: string,
  policyIds: string[],
  logger?: AuditLogger,
  now = new Date(),
): Promise<{ reaped: boolean; waitMs: number }> {
  if (policyIds.length === 0) return { reaped: false, waitMs: 0 };
  const knex = database.em.getKnex();
  const rows = (await knex('policy_run').select('policy_id', 'run_id', 'expires_at').whereIn('policy_id', policyIds).whereNot('run_id', runId)) as {
    policy_id: string;
    run_id: string;
    expires_at: Date | number | string;
  }[];
  const expired = rows.filter((row) => new Date(row.expires_at).getTime() <= now.getTime());
  const waiting = rows.filter((row) => !expired.includes(row)).map((row) => new Date(row.expires_at).getTime() - now.getTime());
  if (expired.length > 0) {
    const runs = groupBy(expired, (row) => row.run_id);
    const message = 'a server stopped while evaluating the rule (a crash or its memory)';
    const overruns: Overrun[] = [];
    for (const run of runs.values()) {
      for (const row of run) overruns.push({ policyId: row.policy_id, ruleId: null, kind: run.length === 1 ? 'crash' : 'time', message });
    }
    await recordOverruns(database, overruns, logger, now);
    await knex('policy_run')
      .whereIn('run_id', [...runs.keys()])
      .delete();
  }
  return { reaped: expired.length > 0, waitMs: waiting.length === 0 ? 0 : Math.max(1, Math.min(...waiting)) };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
