import { useState } from 'react';
import {
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
  updateWebhook,
  type Client,
  type Webhook,
  type WebhookDelivery,
  type WebhookInput,
} from '@org/audit-client/sdk';
import { data } from '../api.js';
import { DELIVERY_STATUSES, hrefOf, type Route } from '../route.js';
import { useChange } from '../use-change.js';
import { useLoad } from '../use-load.js';
import { EVENT_MEANINGS, STATUS_MEANINGS, settingsOf } from '../webhook-events.js';
import { Pager } from '../components/Pager.js';
import { Status } from '../components/Status.js';
import { When } from '../components/When.js';
import { WebhookForm } from '../components/WebhookForm.js';

const PAGE_SIZE = 25;

type WebhookRoute = Extract<Route, { page: 'webhook' }>;

/**
 * One subscription: its settings, edited or deleted, and its delivery log (newest first, filtered by status, paged),
 * each delivery sendable again. Errors, bodies and everything else the log holds are shown as text only.
 */
export function WebhookPage({ client, route, onUnauthorized }: { client: Client; route: WebhookRoute; onUnauthorized(): void }) {
  const [webhook, reloadWebhook] = useLoad(() => data(getWebhook({ client, path: { webhookId: route.id } })), route.id, onUnauthorized);
  const [deliveries, reloadDeliveries] = useLoad(
    () => data(listWebhookDeliveries({ client, path: { webhookId: route.id }, query: { status: route.status, limit: PAGE_SIZE, offset: route.offset } })),
    hrefOf(route),
    onUnauthorized,
  );
  const reload = () => {
    reloadWebhook();
    reloadDeliveries();
  };
  const settings = useChange(reload, onUnauthorized);
  const log = useChange(reload, onUnauthorized);
  // Once deleted there is nothing to reload: back to the list.
  const removal = useChange(() => (window.location.hash = hrefOf({ page: 'webhooks' })), onUnauthorized);
  const [queued, setQueued] = useState<WebhookDelivery>();
  if (webhook.state !== 'ready') return <Status loaded={webhook} />;
  const save = (input: WebhookInput) => void settings.change(async () => void (await data(updateWebhook({ client, path: { webhookId: route.id }, body: input }))));
  const remove = () => {
    if (!confirm(`Delete the subscription to ${webhook.value.url} and its delivery log?`)) return;
    void removal.change(async () => void (await data(deleteWebhook({ client, path: { webhookId: route.id } }))));
  };
  const redeliver = (delivery: WebhookDelivery) =>
    void log.change(async () => setQueued(await data(redeliverWebhookDelivery({ client, path: { webhookId: route.id, deliveryId: delivery.id } }))));
  const filter = (status: string) => (window.location.hash = hrefOf({ ...route, status: DELIVERY_STATUSES.find((name) => name === status), offset: 0 }));
  return (
    <section aria-labelledby="webhook-title">
      <p>
        <a href={hrefOf({ page: 'webhooks' })}>All webhooks</a>
      </p>
      <h1 id="webhook-title">
        Webhook: <span className="mono">{webhook.value.url}</span>
      </h1>
      <Facts webhook={webhook.value} />
      <section aria-labelledby="delivery-log-title">
        <h2 id="delivery-log-title">Delivery log</h2>
        <div className="filters">
          <label htmlFor="delivery-status">Status</label>
          <select id="delivery-status" value={route.status ?? ''} onChange={(event) => filter(event.target.value)}>
            <option value="">Any status</option>
            {DELIVERY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {status} ({STATUS_MEANINGS[status]})
              </option>
            ))}
          </select>
          <button type="button" onClick={reload}>Reload</button>
        </div>
        {queued && (
          <p className="status" role="status">
            Delivery of <code>{queued.eventType}</code> <span className="mono">{queued.eventId}</span> queued again.
          </p>
        )}
        {log.problem && <p className="error" role="alert">{log.problem}</p>}
        <Status loaded={deliveries} />
        {deliveries.state === 'ready' && (
          <>
            <div className="table-scroll">
              <table className="deliveries">
                <caption>
                  {deliveries.value.total === 0
                    ? 'No deliveries.'
                    : `Deliveries ${deliveries.value.offset + 1}–${deliveries.value.offset + deliveries.value.items.length} of ${deliveries.value.total}, newest first`}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="number">Attempts</th>
                    <th scope="col">Last answer</th>
                    <th scope="col">Next attempt</th>
                    <th scope="col">Created</th>
                    <th scope="col">Delivered</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {deliveries.value.items.map((delivery) => (
                    <DeliveryRow key={delivery.id} delivery={delivery} onRedeliver={() => redeliver(delivery)} />
                  ))}
                </tbody>
              </table>
            </div>
            <Pager route={route} pageSize={PAGE_SIZE} total={deliveries.value.total} label="Pages of deliveries" />
          </>
        )}
      </section>
      <h2>Edit</h2>
      <WebhookForm key={webhook.value.id} initial={webhook.value} submitLabel="Save changes" problem={settings.problem} onSubmit={save} />
      <h2>Delete</h2>
      <p>
        <button type="button" className="danger" onClick={remove}>Delete subscription</button>
      </p>
      {removal.problem && <p className="error" role="alert">{removal.problem}</p>}
    </section>
  );
}

function Facts({ webhook }: { webhook: Webhook }) {
  return (
    <dl className="facts">
      <dt>Description</dt>
      <dd>{webhook.description ?? '—'}</dd>
      <dt>Events</dt>
      <dd>
        <ul className="plain">
          {webhook.events.map((event) => (
            <li key={event}>
              <code>{event}</code> <span className="muted">{EVENT_MEANINGS[event]}</span>
            </li>
          ))}
        </ul>
      </dd>
      <dt>Format</dt>
      <dd>{webhook.format}</dd>
      <dt>Settings</dt>
      <dd>{settingsOf(webhook).join(', ') || '—'}</dd>
      <dt>State</dt>
      <dd>
        {webhook.enabled ? 'enabled' : 'disabled'}; {webhook.pending} pending, {webhook.failed} failed
      </dd>
      <dt>Signing secret</dt>
      <dd>
        <span className="mono">{webhook.secretPrefix}…</span> <span className="muted">(shown whole only when the subscription was created)</span>
      </dd>
      <dt>Created</dt>
      <dd>
        <When time={webhook.createdAt} />
      </dd>
    </dl>
  );
}

/** One delivery of the log; its last error and the body sent are text from elsewhere, shown as text. */
function DeliveryRow({ delivery, onRedeliver }: { delivery: WebhookDelivery; onRedeliver(): void }) {
  return (
    <tr>
      <td>
        <code className="nowrap">{delivery.eventType}</code>
        <span className="sub mono">{delivery.eventId}</span>
        <details className="payload">
          <summary>Body sent</summary>
          <pre className="raw">{delivery.payload}</pre>
        </details>
      </td>
      <td className={`status-${delivery.status} nowrap`}>{delivery.status}</td>
      <td className="number">{delivery.attempts}</td>
      <td className="words">
        {delivery.lastStatusCode ?? '—'}
        {delivery.lastError && <span className="last-error">{delivery.lastError}</span>}
      </td>
      <td>
        <When time={delivery.nextAttemptAt} />
      </td>
      <td>
        <When time={delivery.createdAt} />
      </td>
      <td>
        <When time={delivery.deliveredAt} />
      </td>
      <td className="nowrap">
        <button type="button" onClick={onRedeliver}>Redeliver</button>
      </td>
    </tr>
  );
}
