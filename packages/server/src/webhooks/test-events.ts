import { randomUUID } from 'node:crypto';
import type { Webhook, WebhookDelivery } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { toDelivery, type DeliveryRow } from './deliveries.js';
import { deliveryBody } from './messages.js';
import { newEventId } from './outbox.js';

/**
 * Queues a `webhook.test` delivery for one subscription, whatever events it chose and enabled or not (the dispatcher
 * sends test events to disabled subscriptions too), outside its cap: an operator asked for it. Resolves with the
 * delivery as the log shows it.
 */
export async function queueTestEvent(database: Database, webhook: Webhook, now = new Date()): Promise<WebhookDelivery> {
  const knex = database.em.getKnex();
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  const id = randomUUID();
  await knex('webhook_delivery').insert({
    id,
    webhook_id: webhook.id,
    event_id: newEventId(),
    event_type: 'webhook.test',
    payload: deliveryBody(webhook.format ?? 'standard', 'webhook.test', now, testEventData(webhook)),
    host_record_id: null,
    hostname: null,
    status: 'pending',
    attempts: 0,
    next_attempt_at: time,
    created_at: time,
  });
  const [row] = (await knex('webhook_delivery').select('*').where('id', id)) as DeliveryRow[];
  return toDelivery(row!);
}

/** A test event's `data`: the subscription it was sent to (by id, description and receiver host), and that it is a test. */
function testEventData(webhook: Webhook): Record<string, unknown> {
  return {
    test: true,
    webhookId: webhook.id,
    description: webhook.description,
    receiver: new URL(webhook.url).host,
    message: 'A test event sent on request; it tells of no host or report.',
  };
}
