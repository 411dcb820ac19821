import type { DeliveryStatus, WebhookInput } from '@org/audit-server-core';
import { listDeliveries, redeliver } from '../webhooks/deliveries.js';
import { refusedReceiver } from '../webhooks/safe-request.js';
import {
  createWebhook as saveWebhook,
  deleteWebhook as removeWebhook,
  findWebhook,
  listWebhooks as readWebhooks,
  updateWebhook as replaceWebhook,
} from '../webhooks/webhook-records.js';
import type { AdminOperation } from './operation.js';
import { jsonResponse, problemResponse } from './responses.js';

/** `GET /api/admin/webhooks`. */
export const listWebhooks: AdminOperation = async (_input, { database }) => jsonResponse(200, { items: await readWebhooks(database) });

/** `POST /api/admin/webhooks`: the subscription and, this once, its signing secret. */
export const createWebhook: AdminOperation = async ({ body, tokenId }, { database, logger, webhookAllowPrivate }) => {
  const refusal = receiverRefusal(body as unknown as WebhookInput, webhookAllowPrivate);
  if (refusal) return refusal;
  const created = await saveWebhook(database, body as unknown as WebhookInput);
  // The URL may carry credentials of the receiver: only its origin is logged.
  logger.info(
    { webhookId: created.webhook.id, origin: new URL(created.webhook.url).origin, events: created.webhook.events, adminTokenId: tokenId },
    'webhook created',
  );
  return jsonResponse(201, created);
};

/** `GET /api/admin/webhooks/{webhookId}`. */
export const getWebhook: AdminOperation = async ({ params }, { database }) => {
  const webhook = await findWebhook(database, params['webhookId']!);
  return webhook ? jsonResponse(200, webhook) : problemResponse(404, `No webhook with id ${params['webhookId']}`);
};

/** `PUT /api/admin/webhooks/{webhookId}`: new settings, the same secret. */
export const updateWebhook: AdminOperation = async ({ params, body, tokenId }, { database, logger, webhookAllowPrivate }) => {
  const id = params['webhookId']!;
  const refusal = receiverRefusal(body as unknown as WebhookInput, webhookAllowPrivate);
  if (refusal) return refusal;
  if (!(await replaceWebhook(database, id, body as unknown as WebhookInput))) return problemResponse(404, `No webhook with id ${id}`);
  logger.info({ webhookId: id, adminTokenId: tokenId }, 'webhook updated');
  return jsonResponse(200, await findWebhook(database, id));
};

/** `DELETE /api/admin/webhooks/{webhookId}`: with its delivery log. */
export const deleteWebhook: AdminOperation = async ({ params, tokenId }, { database, logger }) => {
  const id = params['webhookId']!;
  if (!(await removeWebhook(database, id))) return problemResponse(404, `No webhook with id ${id}`);
  logger.info({ webhookId: id, adminTokenId: tokenId }, 'webhook deleted');
  return { status: 204, headers: {}, body: '' };
};

/** `GET /api/admin/webhooks/{webhookId}/deliveries`. */
export const listWebhookDeliveries: AdminOperation = async ({ params, query }, { database }) => {
  const id = params['webhookId']!;
  if (!(await findWebhook(database, id))) return problemResponse(404, `No webhook with id ${id}`);
  const limit = query['limit'] as number;
  const offset = query['offset'] as number;
  const page = await listDeliveries(database, id, { status: query['status'] as DeliveryStatus | undefined, limit, offset });
  return jsonResponse(200, { ...page, limit, offset });
};

/** `POST /api/admin/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver`: queued now. */
export const redeliverWebhookDelivery: AdminOperation = async ({ params, tokenId }, { database, logger, webhookDispatcher }) => {
  const delivery = await redeliver(database, params['webhookId']!, params['deliveryId']!);
  if (!delivery) return problemResponse(404, `No delivery ${params['deliveryId']} of webhook ${params['webhookId']}`);
  logger.info({ webhookId: delivery.webhookId, deliveryId: delivery.id, adminTokenId: tokenId }, 'webhook delivery queued again');
  webhookDispatcher?.wake();
  return jsonResponse(200, delivery);
};

/** A 400 for a URL on a host webhooks may not reach (told at once, though deliveries check every address again). */
function receiverRefusal(input: WebhookInput, allowPrivate: boolean) {
  const why = refusedReceiver(input.url, allowPrivate);
  return why ? problemResponse(400, `url: ${why}; this server sends webhooks only to public addresses (see --webhook-allow-private)`) : undefined;
}
