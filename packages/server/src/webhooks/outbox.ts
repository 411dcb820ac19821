import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { WebhookEventType } from '@org/audit-server-core';
import type { DatabaseTime } from '../database/dialect.js';

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
 * or not at all.
 */
export async function writeEvents(trx: Knex.Transaction, events: OutboxEvent[], at: DatabaseTime): Promise<void> {
  for (let start = 0; start < events.length; start += CHUNK) {
    const rows = events.slice(start, start + CHUNK).map((event) => ({ id: newEventId(), type: event.type, data: JSON.stringify(event.data), created_at: at, dispatched: false }));
    await trx('webhook_event').insert(rows);
  }
}

/** Records that `subjects` were told of now. */
export async function upsertNotices(trx: Knex.Transaction, kind: string, subjects: string[], time: DatabaseTime): Promise<void> {
  for (let start = 0; start < subjects.length; start += CHUNK) {
    await trx('webhook_notice')
      .insert(subjects.slice(start, start + CHUNK).map((subject) => ({ kind, subject, notified_at: time })))
      .onConflict(['kind', 'subject'])
      .merge(['notified_at']);
  }
}
