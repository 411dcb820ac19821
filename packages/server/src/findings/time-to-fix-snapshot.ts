// The default time-to-fix answer (the fleet, the 90 days before now) times every resolution of the window from its
// episode's start: seconds of database work on a large fleet. It is taken in the background every 5 minutes and kept
// in the database (shared by the servers on it) with how long it took. When it took 250 ms or more, a request for
// it reads the kept one while it is under 10 minutes old (the answer's `to` says when it was taken); a quicker one is
// computed for each request, so a small fleet always sees its latest changes. A window asked for, or a reader
// limited to some hosts, is computed as asked.
import type { AuditLogger } from '@org/audit-server-core';
import { describeFailure } from '@org/audit-server-core';
import type { Database, DatabaseTime } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { TimeToFix } from '../generated/types.gen.js';
import { BackgroundPasses, BackgroundWorker } from '../ops/background-passes.js';
import { isScoped, UNSCOPED, type AccessScope } from '../people/scope.js';
import { timeToFix, type TimeToFixOptions } from './time-to-fix.js';

/** How often the kept answer is replaced. */
export const TIME_TO_FIX_INTERVAL_MS = 5 * 60_000;
/** The oldest kept answer a request reads: older (no server replaced it), it is computed again. */
export const TIME_TO_FIX_MAX_AGE_MS = 2 * TIME_TO_FIX_INTERVAL_MS;
/** A kept answer that took less to compute is not read: computing it again costs the request little. */
export const KEEP_SLOWER_THAN_MS = 250;

/** The row of `time_to_fix_snapshot` for a setting of `--lynis-own-findings`. */
const rowKey = (hideLynis: boolean) => ({ lynis_own_findings: hideLynis ? 'hide' : 'show' });

/** The time-to-fix figures asked for: the kept default answer when it is slow to compute and fresh enough, else computed now. */
export async function currentTimeToFix(database: Database, scope: AccessScope, options: TimeToFixOptions & { keepSlowerThanMs?: number }): Promise<TimeToFix> {
  if (isScoped(scope) || options.from !== undefined || options.to !== undefined) return timeToFix(database, scope, options);
  const now = options.now ?? new Date();
  const kept = await keptTimeToFix(database, options.hideLynis);
  const age = kept ? now.getTime() - kept.takenAt.getTime() : Infinity;
  if (!kept || age < 0 || age >= TIME_TO_FIX_MAX_AGE_MS) return takeTimeToFixSnapshot(database, options.hideLynis, now);
  // Fresh: read when slow to compute, else computed again (and not written: the background pass keeps it fresh).
  return kept.tookMs >= (options.keepSlowerThanMs ?? KEEP_SLOWER_THAN_MS) ? kept.figures : timeToFix(database, UNSCOPED, { hideLynis: options.hideLynis, now });
}

/** The kept default answer, when it was taken and how long it took, if any. */
async function keptTimeToFix(database: Database, hideLynis: boolean): Promise<{ figures: TimeToFix; takenAt: Date; tookMs: number } | undefined> {
  const row = (await database.em.getKnex()('time_to_fix_snapshot').first('figures', 'taken_at', 'took_ms').where(rowKey(hideLynis))) as
    { figures: string; taken_at: DatabaseTime; took_ms: number | string } | undefined;
  return row && { figures: JSON.parse(row.figures) as TimeToFix, takenAt: new Date(row.taken_at), tookMs: Number(row.took_ms) };
}

/** Computes the default answer as of `now`, keeps it in place of the one kept, and gives it. */
export async function takeTimeToFixSnapshot(database: Database, hideLynis: boolean, now = new Date()): Promise<TimeToFix> {
  const started = performance.now();
  const figures = await timeToFix(database, UNSCOPED, { hideLynis, now });
  const row = {
    ...rowKey(hideLynis),
    figures: JSON.stringify(figures),
    taken_at: sqlDialectOf(database.em).toDatabaseTime(now),
    took_ms: Math.round(performance.now() - started),
  };
  await database.em.getKnex()('time_to_fix_snapshot').insert(row).onConflict('lynis_own_findings').merge();
  return figures;
}

/**
 * Takes the default answer at start and every 5 minutes; left alone when another server took it within the last
 * half interval.
 */
export class TimeToFixSnapshots extends BackgroundWorker {
  protected readonly passes: BackgroundPasses;

  constructor(database: Database, hideLynis: boolean, logger: AuditLogger, options: { intervalMs?: number; now?: () => Date } = {}) {
    super();
    const intervalMs = options.intervalMs ?? TIME_TO_FIX_INTERVAL_MS;
    this.passes = new BackgroundPasses(
      async () => {
        const now = options.now?.() ?? new Date();
        const kept = await keptTimeToFix(database, hideLynis);
        if (kept && now.getTime() - kept.takenAt.getTime() < intervalMs / 2) return;
        await takeTimeToFixSnapshot(database, hideLynis, now);
      },
      {
        intervalMs,
        wakeDelayMs: 0,
        onError: (error) => logger.error({ error: describeFailure(error) }, 'time-to-fix snapshot pass failed; trying again later'),
      },
    );
  }
}
