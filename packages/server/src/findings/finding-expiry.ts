// The server's timed moves of findings: an accepted risk whose expiry passed reopens the finding by itself, and, once
// per start, findings held before lifecycles were kept are adopted.
import type { AuditLogger } from '@org/audit-server-core';
import { describeFailure } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { BackgroundPasses, BackgroundWorker } from '../ops/background-passes.js';
import { adoptUntrackedFindings } from './finding-adoption.js';
import { writeFindingEvents } from './finding-events.js';
import { writeTransitions, type FindingState } from './finding-records.js';

/** Findings reopened per transaction. */
const BATCH = 500;

/** Why the server reopened a finding, as its transition says. */
export const EXPIRED_REASON = 'acceptance expired';

/**
 * Reopens the accepted findings whose acceptance expired by `now`: `open` since now, the acceptance cleared, one
 * transition and one `finding.acceptance_expired` event each. Each batch is a transaction that locks its findings
 * and checks them again, so that an operator's change meanwhile wins and no expiry is told twice (on any number of
 * servers). Resolves with how many it reopened.
 */
export async function expireAcceptances(database: Database, now: Date = new Date()): Promise<number> {
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const time = dialect.toDatabaseTime(now);
  let reopened = 0;
  for (;;) {
    const due = () => knex('finding').select('id').where('state', 'accepted').andWhere('accept_expires_at', '<=', time);
    const ids = ((await due().orderBy('id').limit(BATCH)) as { id: string }[]).map((row) => row.id);
    if (ids.length === 0) return reopened;
    const done = await knex.transaction(async (trx) => {
      await dialect.startWriting(trx);
      const still = ((await dialect.lockRows(due().transacting(trx).whereIn('id', ids).orderBy('id'))) as { id: string }[]).map((row) => row.id);
      if (still.length === 0) return 0;
      await trx('finding')
        .whereIn('id', still)
        .update({ state: 'open', state_since: time, accept_reason: null, accept_requested_by: null, accept_approver_id: null, accept_expires_at: null });
      const from: FindingState = 'accepted';
      await writeTransitions(
        trx,
        still.map((findingId) => ({ findingId, from, to: 'open', at: time, actor: null, reason: EXPIRED_REASON })),
      );
      await writeFindingEvents(trx, [{ type: 'finding.acceptance_expired', ids: still }], now);
      return still.length;
    });
    reopened += done;
    // Findings an operator changed meanwhile are no longer due; anything else left would loop: stop.
    if (done < ids.length) return reopened;
  }
}

/**
 * Reopens expired acceptances on a timer (every minute), waking the webhook dispatcher when it did; its first
 * pass adopts the findings hosts held before lifecycles were kept.
 */
export class FindingLifecycleWork extends BackgroundWorker {
  protected readonly passes: BackgroundPasses;
  private adopted = false;

  constructor(database: Database, logger: AuditLogger, options: { intervalMs?: number; onChanged?: () => void; now?: () => Date } = {}) {
    super();
    this.passes = new BackgroundPasses(
      async () => {
        if (!this.adopted) {
          const adopted = await adoptUntrackedFindings(database, () => this.passes.isStopped);
          this.adopted = !this.passes.isStopped;
          if (adopted > 0) logger.info({ component: 'finding-lifecycle', adopted }, 'findings held before lifecycles were kept are tracked');
        }
        const reopened = await expireAcceptances(database, options.now?.() ?? new Date());
        if (reopened === 0) return;
        logger.info({ component: 'finding-lifecycle', reopened }, 'accepted findings whose acceptance expired reopened');
        options.onChanged?.();
      },
      {
        intervalMs: options.intervalMs ?? 60_000,
        wakeDelayMs: 0,
        onError: (error) => logger.error({ error: describeFailure(error) }, 'finding lifecycle pass failed; trying again later'),
      },
    );
  }
}
