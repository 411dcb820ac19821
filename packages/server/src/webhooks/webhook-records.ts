import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { Webhook, WebhookEventType, WebhookInput } from '../generated/types.gen.js';
import type { WebhookRecord } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { notFound } from '../errors/domain-error.js';

/** How deliveries are written: the contract's `format`. */
export type WebhookFormat = NonNullable<WebhookInput['format']>;

/** A subscription as the dispatcher reads it, with its secret. */
export interface Subscription {
  id: string;
  url: string;
  events: Set<WebhookEventType>;
  format: WebhookFormat;
  enabled: boolean;
  staleDays: number;
  regressionThreshold: number;
  /** Most new deliveries in any 60 seconds; further events are folded. */
  maxDeliveriesPerMinute: number;
  secret: string;
}

/** A `webhook` row, with its deliveries pending and failed where counted. */
type WebhookRow = ReadRowOf<WebhookRecord> & { pending?: number | string; failed?: number | string };

/** Characters of the secret shown in listings: `whsec_` and four of its own. */
const SECRET_PREFIX_LENGTH = 10;

/** A new signing secret: `whsec_` and 24 random bytes in base64, the form `standardwebhooks` reads. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** Saves a subscription; its secret is returned this once. */
export async function createWebhook(database: Database, input: WebhookInput, now = new Date()): Promise<{ webhook: Webhook; secret: string }> {
  const id = randomUUID();
  const secret = newSecret();
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  await database.em
    .getKnex()('webhook')
    .insert({ id, ...columnsOf(input), secret, created_at: time, updated_at: time });
  return { webhook: (await findWebhook(database, id))!, secret };
}

/** Replaces a subscription's settings, keeping its secret; a `not_found` {@link DomainError} when there is none. */
export async function updateWebhook(database: Database, id: string, input: WebhookInput, now = new Date()): Promise<void> {
  const time = sqlDialectOf(database.em).toDatabaseTime(now);
  const updated = await database.em
    .getKnex()('webhook')
    .where('id', id)
    .update({ ...columnsOf(input), updated_at: time });
  if (updated === 0) throw notFound('webhook', id);
}

/** Deletes a subscription, its delivery log and the events its cap folded; a `not_found` {@link DomainError} when there is none. */
export async function deleteWebhook(database: Database, id: string): Promise<void> {
  await database.em.getKnex().transaction(async (trx) => {
    const deleted = await trx('webhook').where('id', id).delete();
    if (deleted === 0) throw notFound('webhook', id);
    await trx('webhook_delivery').where('webhook_id', id).delete();
    await trx('webhook_fold').where('webhook_id', id).delete();
  });
}

export async function listWebhooks(database: Database): Promise<Webhook[]> {
  return ((await withCounts(database).orderBy(['w.created_at', 'w.id'])) as WebhookRow[]).map(toWebhook);
}

export async function findWebhook(database: Database, id: string): Promise<Webhook | undefined> {
  const [row] = (await withCounts(database).where('w.id', id)) as WebhookRow[];
  return row && toWebhook(row);
}

/** The enabled subscriptions, with their secrets, for the dispatcher (read through `knex`, a transaction's or not). */
export async function enabledSubscriptions(knex: Knex): Promise<Subscription[]> {
  return ((await knex('webhook').select('*').where('enabled', true)) as WebhookRow[]).map(toSubscription);
}

/** The subscriptions of `ids`, enabled or not, with their secrets (a disabled one is still sent its test events). */
export async function subscriptionsByIds(knex: Knex, ids: string[]): Promise<Subscription[]> {
  return ((await knex('webhook').select('*').whereIn('id', ids)) as WebhookRow[]).map(toSubscription);
}

function toSubscription(row: WebhookRow): Subscription {
  return {
    id: row.id,
    url: row.url,
    events: new Set(eventTypesOf(row.events)),
    format: row.format === 'slack' ? 'slack' : 'standard',
    enabled: Boolean(row.enabled),
    staleDays: Number(row.stale_days),
    regressionThreshold: Number(row.regression_threshold),
    maxDeliveriesPerMinute: Number(row.max_deliveries_per_minute),
    secret: row.secret,
  };
}

/**
 * The event types some enabled subscription wants (read through `knex`, a transaction's or not). `report.stored`
 * too when one wants `host.regressed`: the dispatcher tells a regression from the stored report's event.
 */
export async function wantedEventTypes(knex: Knex): Promise<Set<WebhookEventType>> {
  const rows = (await knex('webhook').distinct('events').where('enabled', true)) as { events: string }[];
  const wanted = new Set(rows.flatMap((row) => eventTypesOf(row.events)));
  if (wanted.has('host.regressed')) wanted.add('report.stored');
  return wanted;
}

/** The `webhook.events` column, a comma-separated list, read back. */
const eventTypesOf = (column: string) => column.split(',') as WebhookEventType[];

function withCounts(database: Database) {
  const knex = database.em.getKnex();
  const count = (status: string) => knex('webhook_delivery as d').count('*').whereRaw('d.webhook_id = w.id').andWhere('d.status', status);
  return knex('webhook as w').select('w.*', knex.raw('(?) as pending', [count('pending')]), knex.raw('(?) as failed', [count('failed')]));
}

function columnsOf(input: WebhookInput) {
  return {
    url: input.url,
    description: input.description ?? null,
    events: [...new Set(input.events)].join(','),
    format: input.format ?? 'standard',
    enabled: input.enabled ?? true,
    stale_days: input.staleDays ?? 7,
    regression_threshold: input.regressionThreshold ?? 5,
    max_deliveries_per_minute: input.maxDeliveriesPerMinute ?? 60,
  };
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: eventTypesOf(row.events),
    format: row.format as Webhook['format'],
    enabled: Boolean(row.enabled),
    staleDays: Number(row.stale_days),
    regressionThreshold: Number(row.regression_threshold),
    maxDeliveriesPerMinute: Number(row.max_deliveries_per_minute),
    createdAt: new Date(row.created_at).toISOString(),
    secretPrefix: row.secret.slice(0, SECRET_PREFIX_LENGTH),
    pending: Number(row.pending ?? 0),
    failed: Number(row.failed ?? 0),
  };
}
