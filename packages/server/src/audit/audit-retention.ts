import type { AuditLogger } from '@org/audit-server-core';
import { describeFailure } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { AuditEventRecord } from '../database/entities.js';
import { BackgroundPasses, BackgroundWorker } from '../ops/background-passes.js';

/** How long entries are kept unless told otherwise (`--audit-retention-days`). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 400;

const DAY_MS = 86_400_000;
/** Entries deleted per statement, so that a first sweep of a long trail holds no lock for long. */
const DELETE_BATCH = 5000;

/**
 * Deletes the entries older than `retentionDays`, from the start of the chain only: every entry before the first one
 * young enough to keep, so that what stays is one unbroken chain whose oldest entry is the anchor `audit verify`
 * trusts. Resolves with how many it deleted.
 */
export async function deleteExpiredAuditEvents(database: Database, retentionDays: number, now: Date = new Date()): Promise<number> {
  const em = database.em.fork();
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const firstKept = await em.findOne(AuditEventRecord, { at: { $gte: cutoff } }, { orderBy: { sequence: 'asc' }, fields: ['sequence'] });
  const everyEntry = { sequence: { $gte: 0 } };
  const oldest = await em.findOne(AuditEventRecord, everyEntry, { orderBy: { sequence: 'asc' }, fields: ['sequence'] });
  if (!oldest) return 0;
  // No entry young enough: all go; the next one written is the anchor.
  const end = firstKept?.sequence ?? (await em.findOne(AuditEventRecord, everyEntry, { orderBy: { sequence: 'desc' }, fields: ['sequence'] }))!.sequence + 1;
  let deleted = 0;
  for (let from = oldest.sequence; from < end; from += DELETE_BATCH) {
    deleted += await em.nativeDelete(AuditEventRecord, { sequence: { $gte: from, $lt: Math.min(end, from + DELETE_BATCH) } });
  }
  return deleted;
}

/** Deletes expired audit entries on a timer (hourly). */
export class AuditRetention extends BackgroundWorker {
  protected readonly passes: BackgroundPasses;

  constructor(database: Database, retentionDays: number, logger: AuditLogger, intervalMs = 3_600_000) {
    super();
    this.passes = new BackgroundPasses(
      async () => {
        const deleted = await deleteExpiredAuditEvents(database, retentionDays);
        if (deleted > 0) logger.info({ component: 'audit-retention', deleted, retentionDays }, 'deleted expired audit entries');
      },
      { intervalMs, wakeDelayMs: 0, onError: (error) => logger.error({ error: describeFailure(error) }, 'audit retention failed; trying again later') },
    );
  }
}
