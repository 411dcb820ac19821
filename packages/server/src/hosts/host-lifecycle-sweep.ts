// The server's own lifecycle transitions, on a timer: hosts past their stale threshold become stale; hosts of a
// group with an expiry, and hosts that allow auto-purge, are decommissioned after their wait without a report.
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { AuditLogger } from '@org/audit-server-core';
import { describeFailure } from '@org/audit-server-core';
import { appendAuditEvent } from '../audit/audit-append.js';
import { systemActor } from '../audit/audit-entry.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { BackgroundPasses, BackgroundWorker } from '../ops/background-passes.js';
import { writeEvents } from '../webhooks/outbox.js';
import { decommissionLocked, lockHostsForLifecycle, type DecommissionReason, type LockedHost } from './host-lifecycle.js';
import { shortestStaleMs, type LifecycleSettings } from './lifecycle-settings.js';

const DAY_MS = 86_400_000;
/** Hosts changed per transaction: short transactions, so that uploads never wait long behind one. */
const BATCH = 500;

/** What one sweep changed. */
export interface SweepResult {
  stale: number;
  decommissioned: number;
}

/**
 * One sweep at `now`: expiries first (a host both stale and expired ends decommissioned, with one event), then
 * staleness. Each batch is a transaction that locks its hosts and checks them again, so that a report arriving
 * meanwhile wins and no transition is told twice.
 */
export async function sweepHostLifecycle(database: Database, settings: LifecycleSettings, now: Date = new Date()): Promise<SweepResult> {
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const before = (ms: number) => dialect.toDatabaseTime(new Date(now.getTime() - ms));
  let decommissioned = 0;
  const autoPurge = knex('host').select('id').where('auto_purge', true).andWhere('last_seen', '<', before(settings.autoPurgeAfterMs));
  decommissioned += await decommissionAll(
    database,
    autoPurge,
    'auto-purge',
    now,
    (host) => new Date(host.last_seen) < new Date(before(settings.autoPurgeAfterMs)),
  );
  for (const [group, wait] of settings.groupExpireAfterMs) {
    const expired = knex('host_label as l')
      .join('host', 'host.id', 'l.host_record_id')
      .select({ id: 'host.id' })
      .where('l.kind', 'group')
      .andWhereRaw('lower(l.value) = ?', [group])
      .andWhere('host.last_seen', '<', before(wait));
    decommissioned += await decommissionAll(database, expired, 'group-expiry', now, (host) => new Date(host.last_seen) < new Date(before(wait)));
  }
  return { stale: await markStale(database, settings, now), decommissioned };
}

/** Decommissions every host `candidates` selects (`id`), in batches, each host checked again under its lock. */
async function decommissionAll(
  database: Database,
  candidates: Knex.QueryBuilder,
  reason: DecommissionReason,
  now: Date,
  stillDue: (host: LockedHost) => boolean,
): Promise<number> {
  const dialect = sqlDialectOf(database.em);
  let changed = 0;
  for (;;) {
    const ids = ((await candidates.clone().andWhere('host.state', '<>', 'decommissioned').orderBy('host.id').limit(BATCH)) as { id: string }[]).map(
      (row) => row.id,
    );
    if (ids.length === 0) return changed;
    const done = await database.em.getKnex().transaction(async (trx) => {
      await dialect.startWriting(trx);
      const hosts = (await lockHostsForLifecycle(trx, dialect, ids)).filter(stillDue);
      return decommissionLocked(trx, dialect, hosts, reason, now);
    });
    changed += done.length;
    for (const host of done) await recordAutomatic(database, host, reason, now);
    // Hosts a report made active meanwhile are no longer candidates; anything else left would loop: stop.
    if (done.length < ids.length) return changed;
  }
}

/** The audit trail's entry of a host the server decommissioned by itself. */
async function recordAutomatic(database: Database, host: LockedHost, reason: DecommissionReason, now: Date): Promise<void> {
  await appendAuditEvent(
    database,
    {
      actor: systemActor('host lifecycle'),
      operation: 'decommissionHost',
      target: { type: 'host', id: host.id },
      changes: { state: { before: host.state, after: 'decommissioned' }, reason },
      outcome: 'success',
      status: 200,
      sourceAddress: null,
      userAgent: null,
      requestId: randomUUID(),
    },
    now,
  );
}

/** Active hosts past their stale threshold become stale, with one `host.stale` event each. */
async function markStale(database: Database, settings: LifecycleSettings, now: Date): Promise<number> {
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const cutoff = dialect.toDatabaseTime(new Date(now.getTime() - shortestStaleMs(settings)));
  let after: string | undefined;
  let changed = 0;
  for (;;) {
    const query = knex('host').select('id').where('state', 'active').andWhere('last_seen', '<', cutoff).orderBy('id').limit(BATCH);
    if (after !== undefined) query.andWhere('id', '>', after);
    const candidates = (await query) as { id: string }[];
    if (candidates.length === 0) return changed;
    after = candidates.at(-1)!.id;
    const ids = candidates.map((row) => row.id);
    changed += await knex.transaction(async (trx) => {
      await dialect.startWriting(trx);
      const staleDays = await settings.staleDaysOf(trx, ids);
      const stale = (await lockHostsForLifecycle(trx, dialect, ids)).filter(
        (host) => host.state === 'active' && new Date(host.last_seen).getTime() < now.getTime() - staleDays.get(host.id)! * DAY_MS,
      );
      if (stale.length === 0) return 0;
      const time = dialect.toDatabaseTime(now);
      await trx('host')
        .whereIn(
          'id',
          stale.map((host) => host.id),
        )
        .update({ state: 'stale', state_since: time, state_reason: 'no-report' });
      await writeEvents(
        trx,
        stale.map((host) => ({
          type: 'host.stale',
          data: {
            hostRecordId: host.id,
            keyId: host.key_id,
            hostId: host.host_id,
            hostname: host.hostname,
            lastSeen: new Date(host.last_seen).toISOString(),
            staleDays: staleDays.get(host.id),
          },
        })),
        time,
      );
      return stale.length;
    });
  }
}

/** Sweeps the hosts' lifecycle on a timer (every five minutes), waking the webhook dispatcher when a host changed. */
export class HostLifecycleSweep extends BackgroundWorker {
  protected readonly passes: BackgroundPasses;

  constructor(database: Database, settings: LifecycleSettings, logger: AuditLogger, options: { intervalMs?: number; onChanged?: () => void } = {}) {
    super();
    this.passes = new BackgroundPasses(
      async () => {
        const result = await sweepHostLifecycle(database, settings);
        if (result.stale + result.decommissioned === 0) return;
        logger.info({ component: 'host-lifecycle', ...result }, 'host states changed');
        options.onChanged?.();
      },
      {
        intervalMs: options.intervalMs ?? 300_000,
        wakeDelayMs: 0,
        onError: (error) => logger.error({ error: describeFailure(error) }, 'host lifecycle sweep failed; trying again later'),
      },
    );
  }
}
