import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { WebhookEventType } from '../generated/types.gen.js';
import { chunks } from '../database/batches.js';
import type { DatabaseTime } from '../database/dialect.js';
import { sqlDialectOfKnex } from '../database/dialects.js';
import { wantedEventTypes } from './webhook-records.js';

/** An event as the outbox keeps it until it is fanned out to the subscriptions. */
export interface OutboxEvent {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/** Rows per insert, well under SQLite's bound-parameter limit. */
const CHUNK = 100;

/** A new event id: `msg_` and 32 hex digits, as Standard Webhooks' examples write them. */
export const newEventId = () => `msg_${randomUUID().replaceAll('-', '')}`;

/**
 * Writes events into the outbox inside the caller's transaction, so that they commit with the change they tell of,
 * or not at all; resolves with how many it wrote. An event no enabled subscription wants is not written: fan-out
 * would only delete it, and on SQLite each of those deletes was a commit competing with the uploads'. The
 * subscriptions are read in the same transaction, just before: on SQLite, where writers take turns, that is the set
 * enabled when the change commits; one enabled later is told of changes committed after it, not before.
 */
export async function writeEvents(trx: Knex.Transaction, events: OutboxEvent[], at: DatabaseTime): Promise<number> {
  if (events.length === 0) return 0;
  const wanted = await wantedEventTypes(trx);
  const kept = events.filter((event) => wanted.has(event.type));
  for (const chunk of chunks(kept, CHUNK)) {
    const rows = chunk.map((event) => ({ id: newEventId(), type: event.type, data: JSON.stringify(event.data), created_at: at, dispatched: false }));
    await trx('webhook_event').insert(rows);
  }
  return kept.length;
}

/** Records that `subjects` were told of now. */
export async function upsertNotices(trx: Knex.Transaction, kind: string, subjects: string[], time: DatabaseTime): Promise<void> {
  for (const chunk of chunks(subjects, CHUNK)) {
    await trx('webhook_notice')
      .insert(chunk.map((subject) => ({ kind, subject, notified_at: time })))
      .onConflict(['kind', 'subject'])
      .merge(['notified_at']);
  }
}

/**
 * Records that the `subjects` not told of since `notToldSince` are told of now, and resolves with those: one
 * statement, so that when servers sharing a database claim the same subject at once, one of them gets it (the other
 * waits for its commit, then finds the subject told).
 */
export async function claimNotices(trx: Knex.Transaction, kind: string, subjects: string[], time: DatabaseTime, notToldSince: DatabaseTime): Promise<string[]> {
  const dialect = sqlDialectOfKnex(trx);
  const claimed: string[] = [];
  // Sorted, so that servers claiming several lock them in one order and cannot deadlock.
  for (const chunk of chunks([...subjects].sort(), CHUNK)) {
    const rows = await dialect.upsertReturning<{ subject: string }>(
      trx,
      {
        table: 'webhook_notice',
        rows: chunk.map((subject) => ({ kind, subject, notified_at: time })),
        conflict: ['kind', 'subject'],
        merge: ['notified_at'],
        where: ['webhook_notice.notified_at', '<=', notToldSince],
      },
      ['subject'],
    );
    claimed.push(...rows.map((row) => row.subject));
  }
  return claimed;
}
