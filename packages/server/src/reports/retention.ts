import type { Logger } from 'pino';
import { describeFailure } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { databaseTime } from '../database/dialects.js';

/** Which reports to keep; a rule left unset does not apply. With no rule set, nothing is deleted. */
export interface RetentionRules {
  /** Keep each host's newest N reports. */
  keepLast?: number;
  /** Keep reports younger than this many days. */
  maxAgeDays?: number;
}

/** Most reports deleted in one transaction, so that uploads never wait long for the database. */
const ROUND_SIZE = 1000;
const DAY_MS = 86_400_000;

export const hasRetentionRule = (rules: RetentionRules) => rules.keepLast !== undefined || rules.maxAgeDays !== undefined;

/**
 * Deletes the reports no rule keeps: a report goes when it is not its host's newest and it fails every rule that is
 * set (outside the newest N and older than D days). Host report counts drop in the same transaction. Safe to run on
 * several servers at once. Resolves with how many reports were deleted, or with `dryRun` would be.
 */
export async function pruneReports(orm: Database, rules: RetentionRules, options: { dryRun?: boolean; now?: Date } = {}): Promise<number> {
  if (!hasRetentionRule(rules)) return 0;
  const { sql, params } = doomedReports(orm, rules, options.now ?? new Date());
  const connection = orm.em.getConnection();
  if (options.dryRun) {
    const [{ doomed }] = await connection.execute<[{ doomed: number | string }]>(`select count(*) as doomed from (${sql}) as doomed_reports`, params);
    return Number(doomed);
  }
  let deleted = 0;
  for (;;) {
    const doomed = await connection.execute<{ id: string; host_record_id: string }[]>(
      `${sql} order by ranked.host_record_id, ranked.id limit ${ROUND_SIZE}`,
      params,
    );
    if (doomed.length > 0) deleted += await deleteReports(orm, doomed);
    if (doomed.length < ROUND_SIZE) return deleted;
  }
}

/** The query of the reports to delete (columns `id`, `host_record_id`). */
function doomedReports(orm: Database, rules: RetentionRules, now: Date): { sql: string; params: unknown[] } {
  // A host's newest report by received time (`position` 1) and the one its row names as newest are both kept.
  const conditions = ['ranked.position > 1', '(host.latest_report_id is null or ranked.id <> host.latest_report_id)'];
  const params: unknown[] = [];
  if (rules.keepLast !== undefined) {
    conditions.push('ranked.position > ?');
    params.push(rules.keepLast);
  }
  if (rules.maxAgeDays !== undefined) {
    conditions.push('ranked.received_at < ?');
    params.push(databaseTime(orm, new Date(now.getTime() - rules.maxAgeDays * DAY_MS)));
  }
  const ranked =
    'select id, host_record_id, received_at, row_number() over (partition by host_record_id order by received_at desc, id desc) as position from report';
  const sql = `select ranked.id, ranked.host_record_id from (${ranked}) as ranked join host on host.id = ranked.host_record_id where ${conditions.join(' and ')}`;
  return { sql, params };
}

/** Deletes reports (sorted by host) in one transaction and lowers their hosts' counts by what was really deleted. */
async function deleteReports(orm: Database, reports: { id: string; host_record_id: string }[]): Promise<number> {
  const idsByHost = new Map<string, string[]>();
  for (const { id, host_record_id } of reports) idsByHost.set(host_record_id, [...(idsByHost.get(host_record_id) ?? []), id]);
  return orm.em.getKnex().transaction(async (trx) => {
    let deleted = 0;
    for (const [hostId, ids] of idsByHost) {
      // Counted per host from what this statement deleted: another server pruning at the same time deletes the rest.
      const gone = await trx('report').whereIn('id', ids).andWhere('host_record_id', hostId).delete();
      if (gone > 0) await trx('host').where('id', hostId).decrement('report_count', gone);
      deleted += gone;
    }
    return deleted;
  });
}

/** A running prune schedule. */
export interface PruneSchedule {
  /** Stops the schedule, waiting for a prune under way. */
  stop(): Promise<void>;
}

/**
 * Prunes now and then every `intervalMinutes`, logging how many reports each round deleted. Resolves to undefined
 * (nothing scheduled) when no rule is set or the interval is 0.
 */
export function schedulePruning(orm: Database, rules: RetentionRules, intervalMinutes: number, logger: Logger): PruneSchedule | undefined {
  if (!hasRetentionRule(rules) || intervalMinutes === 0) return undefined;
  let running: Promise<void> | undefined;
  const prune = () => {
    running ??= pruneReports(orm, rules)
      .then(
        (deleted) => logger.info({ component: 'retention', deleted, ...rules }, 'pruned reports'),
        (error: unknown) => logger.error({ component: 'retention', error: describeFailure(error) }, 'pruning failed; retrying at the next interval'),
      )
      .finally(() => (running = undefined));
  };
  const timer = setInterval(prune, intervalMinutes * 60_000);
  timer.unref();
  prune();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
