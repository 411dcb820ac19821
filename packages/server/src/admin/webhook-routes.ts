import { fieldChanges } from '../audit/audit-changes.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import type { Webhook, WebhookInput } from '../generated/types.gen.js';
import { listDeliveries, redeliver } from '../webhooks/deliveries.js';
import { refusedReceiver } from '../webhooks/safe-request.js';
import { queueTestEvent } from '../webhooks/test-events.js';
import {
  createWebhook as saveWebhook,
  deleteWebhook as removeWebhook,
  findWebhook,
  listWebhooks as readWebhooks,
  updateWebhook as replaceWebhook,
} from '../webhooks/webhook-records.js';
import { actorLogFields } from './actor.js';
import type { AdminHandler, AdminHandlers } from './operation.js';

/** `GET /api/admin/webhooks`. */
const listWebhooks: AdminHandler<'listWebhooks'> = async (_input, { database }) => ({ status: 200, body: { items: await readWebhooks(database) } });

/** `POST /api/admin/webhooks`: the subscription and, this once, its signing secret. */
const createWebhook: AdminHandler<'createWebhook'> = async ({ body, actor, audit }, { database, logger, webhookAllowPrivate }) => {
  checkReceiver(body, webhookAllowPrivate);
  const created = await saveWebhook(database, body);
  // The URL may carry credentials of the receiver: only its origin is logged.
  logger.info(
    { webhookId: created.webhook.id, origin: new URL(created.webhook.url).origin, events: created.webhook.events, ...actorLogFields(actor) },
    'webhook created',
  );
  audit.changes = fieldChanges(undefined, audited(created.webhook), AUDITED_WEBHOOK_FIELDS);
  return { status: 201, body: created };
};

/** `GET /api/admin/webhooks/{webhookId}`. */
const getWebhook: AdminHandler<'getWebhook'> = async ({ path }, { database }) => ({ status: 200, body: await existingWebhook(database, path.webhookId) });

/** `PUT /api/admin/webhooks/{webhookId}`: new settings, the same secret. */
const updateWebhook: AdminHandler<'updateWebhook'> = async ({ path, body, actor, audit }, { database, logger, webhookAllowPrivate }) => {
  checkReceiver(body, webhookAllowPrivate);
  const before = await existingWebhook(database, path.webhookId);
  await replaceWebhook(database, path.webhookId, body);
  logger.info({ webhookId: path.webhookId, ...actorLogFields(actor) }, 'webhook updated');
  const after = await existingWebhook(database, path.webhookId);
  audit.changes = fieldChanges(audited(before), audited(after), AUDITED_WEBHOOK_FIELDS);
  return { status: 200, body: after };
};

/** What the audit trail says changed of a subscription: its URL only as its origin (the rest may carry the receiver's credentials). */
const AUDITED_WEBHOOK_FIELDS = ['url', 'events', 'enabled', 'format', 'description', 'maxDeliveriesPerMinute', 'staleDays', 'regressionThreshold'] as const;
const audited = (webhook: Webhook) => ({ ...webhook, url: new URL(webhook.url).origin });

/** `DELETE /api/admin/webhooks/{webhookId}`: with its delivery log. */
const deleteWebhook: AdminHandler<'deleteWebhook'> = async ({ path, actor }, { database, logger }) => {
  await removeWebhook(database, path.webhookId);
  logger.info({ webhookId: path.webhookId, ...actorLogFields(actor) }, 'webhook deleted');
  return { status: 204 };
};

/** `GET /api/admin/webhooks/{webhookId}/deliveries`. */
const listWebhookDeliveries: AdminHandler<'listWebhookDeliveries'> = async ({ path, query, actor }, { database }) => {
  await existingWebhook(database, path.webhookId);
  const { status, limit, offset } = query;
  const page = await listDeliveries(database, actor.scope, path.webhookId, { status, limit, offset });
  return { status: 200, body: { ...page, limit, offset } };
};

/** `POST /api/admin/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver`: queued now. */
const redeliverWebhookDelivery: AdminHandler<'redeliverWebhookDelivery'> = async ({ path, actor }, { database, logger, webhookDispatcher }) => {
  const delivery = await redeliver(database, path.webhookId, path.deliveryId);
  logger.info({ webhookId: delivery.webhookId, deliveryId: delivery.id, ...actorLogFields(actor) }, 'webhook delivery queued again');
  webhookDispatcher?.wake();
  return { status: 200, body: delivery };
};

/** `POST /api/admin/webhooks/{webhookId}/test`: a `webhook.test` event queued for this subscription alone. */
const sendTestWebhookEvent: AdminHandler<'sendTestWebhookEvent'> = async ({ path, actor }, { database, logger, webhookDispatcher }) => {
  const delivery = await queueTestEvent(database, await existingWebhook(database, path.webhookId));
  logger.info({ webhookId: delivery.webhookId, deliveryId: delivery.id, ...actorLogFields(actor) }, 'webhook test event queued');
  webhookDispatcher?.wake();
  return { status: 202, body: delivery };
};

export const webhookRoutes = {
  listWebhooks,
  createWebhook,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
  sendTestWebhookEvent,
} satisfies AdminHandlers<
  | 'listWebhooks'
  | 'createWebhook'
  | 'getWebhook'
  | 'updateWebhook'
  | 'deleteWebhook'
  | 'listWebhookDeliveries'
  | 'redeliverWebhookDelivery'
  | 'sendTestWebhookEvent'
>;

async function existingWebhook(database: Parameters<typeof findWebhook>[0], id: string) {
  const webhook = await findWebhook(database, id);
  if (!webhook) throw notFound('webhook', id);
  return webhook;
}

/** Refuses a URL on a host webhooks may not reach (told at once, though deliveries check every address again). */
function checkReceiver(input: WebhookInput, allowPrivate: boolean): void {
  const why = refusedReceiver(input.url, allowPrivate);
  if (why) throw new DomainError('invalid', `url: ${why}; this server sends webhooks only to public addresses (see --webhook-allow-private)`);
}
