import type { Knex } from '@mikro-orm/knex';
import type { DatabaseTime } from '../database/dialect.js';
import type { RefusalGroup } from '../rejection-log.js';
import { upsertNotices, writeEvents, type OutboxEvent } from './outbox.js';

const HOUR_MS = 3_600_000;

/**
 * `uploads.refused` events for the refused uploads a rejection-log write holds: one per known key, `hostid` and
 * reason, at most one an hour (a `webhook_notice` row remembers when). Refusals naming no known key or no `hostid`,
 * and folded ones, tell of no host, so they make none: a client sending random host ids cannot flood subscribers.
 */
export async function writeRefusedUploadEvents(trx: Knex.Transaction, groups: RefusalGroup[], now: Date, toTime: (time: Date) => DatabaseTime): Promise<void> {
  const byHost = new Map<string, { keyId: string; hostId: string; reason: string; count: number; firstAt: Date; lastAt: Date }>();
  for (const group of groups) {
    if (group.operation !== 'uploadReport' || group.folded || group.keyId === '' || group.hostId === '') continue;
    const subject = `${group.keyId}\n${group.hostId}\n${group.reason}`;
    const held = byHost.get(subject);
    if (!held) byHost.set(subject, { keyId: group.keyId, hostId: group.hostId, reason: group.reason, count: group.count, firstAt: group.firstAt, lastAt: group.lastAt });
    else {
      held.count += group.count;
      if (group.firstAt < held.firstAt) held.firstAt = group.firstAt;
      if (group.lastAt > held.lastAt) held.lastAt = group.lastAt;
    }
  }
  if (byHost.size === 0) return;
  const subjects = [...byHost.keys()];
  const recent = new Set(
    ((await trx('webhook_notice').select('subject').where('kind', 'uploads.refused').whereIn('subject', subjects).andWhere('notified_at', '>', toTime(new Date(now.getTime() - HOUR_MS)))) as { subject: string }[]).map(
      (row) => row.subject,
    ),
  );
  const fresh = subjects.filter((subject) => !recent.has(subject));
  if (fresh.length === 0) return;
  const events = fresh.map((subject): OutboxEvent => {
    const refused = byHost.get(subject)!;
    return { type: 'uploads.refused', data: { ...refused, firstAt: refused.firstAt.toISOString(), lastAt: refused.lastAt.toISOString() } };
  });
  const time = toTime(now);
  await writeEvents(trx, events, time);
  await upsertNotices(trx, 'uploads.refused', fresh, time);
}
