import type { DeliveryStatus, ListWebhookDeliveriesData, WebhookDelivery } from '../generated/types.gen.js';
import type { WebhookDeliveryRecord } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { DomainError } from '../errors/domain-error.js';
import { limitToScope } from '../hosts/host-scope.js';
import type { AccessScope } from '../people/scope.js';

export type DeliveryRow = Omit<ReadRowOf<WebhookDeliveryRecord>, 'event_type' | 'status'> & {
  event_type: WebhookDelivery['eventType'];
  status: DeliveryStatus;
};

/**
 * One page of a subscription's delivery log, newest first. A scoped reader sees the deliveries of events about its
 * own hosts only: those about no one host (refused uploads, folded events) name hosts of any scope.
 */
export async function listDeliveries(
  database: Database,
  scope: AccessScope,
  webhookId: string,
  filter: NonNullable<ListWebhookDeliveriesData['query']> & { limit: number; offset: number },
) {
  const knex = database.em.getKnex();
  const matching = knex('webhook_delivery').where('webhook_id', webhookId);
  limitToScope(knex, matching, 'host_record_id', scope);
  if (filter.status !== undefined) matching.andWhere('status', filter.status);
  const [rows, [{ total }]] = await Promise.all([
    matching
      .clone()
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(filter.limit)
      .offset(filter.offset) as Promise<DeliveryRow[]>,
    matching.clone().count({ total: '*' }) as unknown as Promise<[{ total: number | string }]>,
  ]);
  return { items: rows.map(toDelivery), total: Number(total) };
}

/** Queues a delivery to be sent again now, its attempts counted from zero; a `not_found` {@link DomainError} when it is not the subscription's. */
export async function redeliver(database: Database, webhookId: string, deliveryId: string, now = new Date()): Promise<WebhookDelivery> {
  const knex = database.em.getKnex();
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  const updated = await knex('webhook_delivery')
    .where({ id: deliveryId, webhook_id: webhookId })
    .update({ status: 'pending', attempts: 0, next_attempt_at: time, claimed_until: null, delivered_at: null });
  if (updated === 0) throw new DomainError('not_found', `No delivery ${deliveryId} of webhook ${webhookId}`);
  const [row] = (await knex('webhook_delivery').select('*').where('id', deliveryId)) as DeliveryRow[];
  return toDelivery(row!);
}

const isoOrNull = (time: Date | number | null) => (time === null ? null : new Date(time).toISOString());

/**
 * The delivery columns naming the host an event is about: the `hostRecordId` and `hostname` of its data (every event
 * about one host carries both), null for the others.
 */
export function hostColumnsOf(data: Record<string, unknown>): { host_record_id: string | null; hostname: string | null } {
  const id = data['hostRecordId'];
  if (typeof id !== 'string') return { host_record_id: null, hostname: null };
  const name = data['hostname'];
  return { host_record_id: id, hostname: typeof name === 'string' ? name.slice(0, MAX_HOSTNAME) : null };
}

/** The `hostname` column's length (a host's name is 255 characters at most already). */
const MAX_HOSTNAME = 255;

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    hostRecordId: row.host_record_id,
    hostname: row.hostname,
    status: row.status,
    attempts: Number(row.attempts),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    createdAt: new Date(row.created_at).toISOString(),
    nextAttemptAt: isoOrNull(row.next_attempt_at),
    deliveredAt: isoOrNull(row.delivered_at),
    payload: row.payload,
  };
}
