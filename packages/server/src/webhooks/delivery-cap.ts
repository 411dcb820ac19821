import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { DeliveryEventType, EventsFoldedEventData } from '../generated/types.gen.js';
import type { SqlDialect } from '../database/dialect.js';
import type { WebhookFoldRecord } from '../database/entities.js';
import type { RowOf } from '../database/rows.js';
import { hostColumnsOf } from './deliveries.js';
import { deliveryBody } from './messages.js';
import { newEventId } from './outbox.js';
import type { Subscription } from './webhook-records.js';

/** An event to deliver to one subscription, if its cap lets it. */
export interface DeliveryCandidate {
  type: DeliveryEventType;
  eventId: string;
  createdAt: Date;
  data: Record<string, unknown>;
}

/** A `webhook_fold` row: the events a subscription's cap held back, not yet told. */
type FoldRow = RowOf<WebhookFoldRecord>;

/** The events folded for one subscription, as counted in memory. */
interface Fold {
  counts: Record<string, number>;
  eventIds: string[];
  total: number;
  firstAt: Date;
  lastAt: Date;
}

const WINDOW_MS = 60_000;
/** Ids of folded events a summary names: enough to find the start of a flood, bounded whatever its size. */
const FOLDED_IDS = 10;

/**
 * Locks the subscriptions' rows until the transaction ends, in id order (so that passes locking several cannot
 * deadlock), so that servers sharing a database count and fold each subscription's deliveries one at a time (where
 * the dialect lets one writer in at a time, the transaction alone does it).
 */
export async function lockSubscriptions(trx: Knex.Transaction, dialect: SqlDialect, ids: string[]): Promise<void> {
  await dialect.lockRowsById(trx, 'webhook', ids);
}

/**
 * The delivery rows to insert for one subscription (locked by {@link lockSubscriptions}): the candidates while the
 * subscription has made fewer than `maxDeliveriesPerMinute` deliveries in the last 60 seconds, the rest folded into
 * its `webhook_fold` row. A fold is told first, as one `events.folded` delivery, once the minute has room; it takes
 * one of the minute's deliveries. Every folded event is counted in exactly one summary: nothing is dropped.
 */
export async function admitDeliveries(
  trx: Knex.Transaction,
  dialect: SqlDialect,
  subscription: Subscription,
  candidates: DeliveryCandidate[],
  now: Date,
): Promise<Record<string, unknown>[]> {
  const [{ used }] = (await trx('webhook_delivery')
    .where('webhook_id', subscription.id)
    .andWhere('created_at', '>', dialect.toDatabaseTime(new Date(now.getTime() - WINDOW_MS)))
    .count({ used: '*' })) as [{ used: number | string }];
  let room = subscription.maxDeliveriesPerMinute - Number(used);
  const [stored] = (await trx('webhook_fold').select('*').where('webhook_id', subscription.id)) as FoldRow[];
  let fold = stored && foldOf(stored);
  const rows: Record<string, unknown>[] = [];
  const time = dialect.toDatabaseTime(now);
  const deliver = (candidate: DeliveryCandidate) => {
    rows.push({
      id: randomUUID(),
      webhook_id: subscription.id,
      event_id: candidate.eventId,
      event_type: candidate.type,
      payload: deliveryBody(subscription.format, candidate.type, candidate.createdAt, candidate.data),
      ...hostColumnsOf(candidate.data),
      status: 'pending',
      attempts: 0,
      next_attempt_at: time,
      created_at: time,
    });
    room--;
  };
  if (fold && room > 0) {
    deliver({ type: 'events.folded', eventId: newEventId(), createdAt: now, data: summaryOf(fold, subscription) });
    fold = undefined;
  }
  let folded = false;
  for (const candidate of candidates) {
    if (room > 0) deliver(candidate);
    else {
      fold = addTo(fold, candidate);
      folded = true;
    }
  }
  if (stored && !fold) await trx('webhook_fold').where('webhook_id', subscription.id).delete();
  else if (fold && (folded || !stored)) await writeFold(trx, dialect, subscription.id, fold, Boolean(stored));
  return rows;
}

/** The ids of the enabled subscriptions with folded events, to be told once their minute has room. */
export async function subscriptionsWithFolds(knex: Knex): Promise<string[]> {
  const rows = (await knex('webhook_fold as f')
    .join('webhook as w', 'w.id', 'f.webhook_id')
    .where('w.enabled', true)
    .select('f.webhook_id')
    .orderBy('f.webhook_id')) as { webhook_id: string }[];
  return rows.map((row) => row.webhook_id);
}

function addTo(fold: Fold | undefined, candidate: DeliveryCandidate): Fold {
  const held = fold ?? { counts: {}, eventIds: [], total: 0, firstAt: candidate.createdAt, lastAt: candidate.createdAt };
  held.counts[candidate.type] = (held.counts[candidate.type] ?? 0) + 1;
  if (held.eventIds.length < FOLDED_IDS) held.eventIds.push(candidate.eventId);
  held.total++;
  if (candidate.createdAt < held.firstAt) held.firstAt = candidate.createdAt;
  if (candidate.createdAt > held.lastAt) held.lastAt = candidate.createdAt;
  return held;
}

function summaryOf(fold: Fold, subscription: Subscription): EventsFoldedEventData & Record<string, unknown> {
  return {
    count: fold.total,
    counts: fold.counts,
    firstAt: fold.firstAt.toISOString(),
    lastAt: fold.lastAt.toISOString(),
    eventIds: fold.eventIds,
    maxDeliveriesPerMinute: subscription.maxDeliveriesPerMinute,
  };
}

const foldOf = (row: FoldRow): Fold => ({
  counts: JSON.parse(row.counts) as Record<string, number>,
  eventIds: JSON.parse(row.event_ids) as string[],
  total: Number(row.total),
  firstAt: new Date(row.first_at),
  lastAt: new Date(row.last_at),
});

async function writeFold(trx: Knex.Transaction, dialect: SqlDialect, webhookId: string, fold: Fold, exists: boolean): Promise<void> {
  const columns = {
    counts: JSON.stringify(fold.counts),
    event_ids: JSON.stringify(fold.eventIds),
    total: fold.total,
    first_at: dialect.toDatabaseTime(fold.firstAt),
    last_at: dialect.toDatabaseTime(fold.lastAt),
  };
  if (exists) await trx('webhook_fold').where('webhook_id', webhookId).update(columns);
  else await trx('webhook_fold').insert({ webhook_id: webhookId, ...columns });
}
