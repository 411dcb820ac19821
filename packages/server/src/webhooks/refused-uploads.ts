import type { Knex } from '@mikro-orm/knex';
import type { UploadsRefusedEventData } from '../generated/types.gen.js';
import type { DatabaseTime } from '../database/dialect.js';
import type { RefusalGroup } from '../refusals/rejection-log.js';
import { claimNotices, writeEvents, type OutboxEvent } from './outbox.js';
import { wantedEventTypes } from './webhook-records.js';

const HOUR_MS = 3_600_000;
/** `hostid`s named in an event, as examples: the sender chooses them, so they prove nothing and must not grow it. */
const EXAMPLE_HOST_IDS = 5;

/** The refused uploads of one key and reason in one rejection-log write. */
interface Refused {
  keyId: string;
  reason: string;
  count: number;
  hostIds: Set<string>;
  firstAt: Date;
  lastAt: Date;
}

/**
 * `uploads.refused` events for the refused uploads a rejection-log write holds: one per known key and reason, at
 * most one an hour across servers (a `webhook_notice` row remembers when, claimed in one statement). Deduplicated
 * per key, not per `hostid`: the sender chooses host ids, so a client sending random ones must not make an event each. The event counts the refusals and
 * the distinct host ids, with a few of them as examples. Refusals naming no known key tell of nothing and make none.
 */
export async function writeRefusedUploadEvents(trx: Knex.Transaction, groups: RefusalGroup[], now: Date, toTime: (time: Date) => DatabaseTime): Promise<void> {
  const byKey = new Map<string, Refused>();
  for (const group of groups) {
    if (group.operation !== 'uploadReport' || group.keyId === '') continue;
    const subject = `${group.keyId}\n${group.reason}`;
    let held = byKey.get(subject);
    if (!held)
      byKey.set(subject, (held = { keyId: group.keyId, reason: group.reason, count: 0, hostIds: new Set(), firstAt: group.firstAt, lastAt: group.lastAt }));
    held.count += group.count;
    // Folded groups (the rejection log's memory bound) carry no host id: counted, not named.
    if (group.hostId !== '') held.hostIds.add(group.hostId);
    if (group.firstAt < held.firstAt) held.firstAt = group.firstAt;
    if (group.lastAt > held.lastAt) held.lastAt = group.lastAt;
  }
  // Nothing claimed while no subscription wants the event: one created later hears of the next refusals.
  if (byKey.size === 0 || !(await wantedEventTypes(trx)).has('uploads.refused')) return;
  const time = toTime(now);
  const fresh = await claimNotices(trx, 'uploads.refused', [...byKey.keys()], time, toTime(new Date(now.getTime() - HOUR_MS)));
  await writeEvents(
    trx,
    fresh.map((subject): OutboxEvent => ({ type: 'uploads.refused', data: eventData(byKey.get(subject)!) })),
    time,
  );
}

function eventData(refused: Refused): UploadsRefusedEventData & Record<string, unknown> {
  return {
    keyId: refused.keyId,
    reason: refused.reason,
    count: refused.count,
    hostIdCount: refused.hostIds.size,
    exampleHostIds: [...refused.hostIds].sort().slice(0, EXAMPLE_HOST_IDS),
    firstAt: refused.firstAt.toISOString(),
    lastAt: refused.lastAt.toISOString(),
  };
}

/**
 * Deletes the `uploads.refused` notices older than an hour: they hold nothing back any more, and without this a key's
 * every reason (and, before events were told per key, every host id a sender chose) would keep a row for ever.
 */
export async function pruneRefusedUploadNotices(knex: Knex, now: Date, toTime: (time: Date) => DatabaseTime): Promise<void> {
  const stale = knex('webhook_notice')
    .where('kind', 'uploads.refused')
    .andWhere('notified_at', '<=', toTime(new Date(now.getTime() - HOUR_MS)));
  if (await stale.clone().first('subject')) await stale.delete();
}
