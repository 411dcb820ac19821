import { useState } from 'react';
import {
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
  sendTestWebhookEvent,
  updateWebhook,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookInput,
} from '@org/audit-client/sdk';
import { useCan } from '../permissions.js';
import { data } from '../api.js';
import { pageCaption } from '../format.js';
import { DELIVERY_STATUSES, hrefOf, type PageProps, type Route } from '../route.js';
import { useChange } from '../use-change.js';
import { useLoad, type Loaded } from '../use-load.js';
import { DELIVERY_EVENT_NAMES, EVENT_MEANINGS, STATUS_MEANINGS, settingsOf } from '../webhook-events.js';
import { Table, type Column } from '../components/Table.js';
import { Status } from '../components/Status.js';
import { When } from '../components/When.js';
import { WebhookForm } from '../components/WebhookForm.js';

const PAGE_SIZE = 25;

type WebhookRoute = Extract<Route, { page: 'webhook' }>;

/**
 * One subscription: its settings, edited or deleted, and its delivery log (newest first, filtered by status, paged),
 * each delivery sendable again. Errors, bodies and everything else the log holds are shown as text only.
 */
export function WebhookPage(props: PageProps<'webhook'>) {
  // Another webhook is a new page: its forms start from its own settings.
  return <Subscription key={props.route.id} {...props} />;
}

function Subscription({ client, route, onUnauthorized }: PageProps<'webhook'>) {
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
  const mayUpdate = useCan('updateWebhook');
  const mayDelete = useCan('deleteWebhook');
  const mayRedeliver = useCan('redeliverWebhookDelivery');
  const maySendTest = useCan('sendTestWebhookEvent');
  const [queued, setQueued] = useState<QueuedDelivery>();
  if (webhook.state !== 'ready') return <Status loaded={webhook} />;
  const save = (input: WebhookInput) =>
    void settings.change(async () => void (await data(updateWebhook({ client, path: { webhookId: route.id }, body: input }))));
  const remove = () => {
    if (!confirm(`Delete the subscription to ${webhook.value.url} and its delivery log?`)) return;
    void removal.change(async () => void (await data(deleteWebhook({ client, path: { webhookId: route.id } }))));
  };
  const redeliver = (delivery: WebhookDelivery) =>
    void log.change(async () =>
      setQueued({ delivery: await data(redeliverWebhookDelivery({ client, path: { webhookId: route.id, deliveryId: delivery.id } })), test: false }),
    );
  const sendTest = () =>
    void log.change(async () => setQueued({ delivery: await data(sendTestWebhookEvent({ client, path: { webhookId: route.id } })), test: true }));
  return (
    <section aria-labelledby="webhook-title">
      <p>
        <a href={hrefOf({ page: 'webhooks' })}>All webhooks</a>
      </p>
      <h1 id="webhook-title" tabIndex={-1}>
        Webhook: <span className="mono">{webhook.value.url}</span>
      </h1>
      <Facts webhook={webhook.value} />
      <DeliveryLog
        route={route}
        deliveries={deliveries}
        queued={queued}
        problem={log.problem}
        onReload={reload}
        onRedeliver={mayRedeliver ? redeliver : undefined}
        onSendTest={maySendTest ? sendTest : undefined}
      />
      {mayUpdate && (
        <>
          <h2>Edit</h2>
          <WebhookForm key={webhook.value.id} initial={webhook.value} submitLabel="Save changes" problem={settings.problem} onSubmit={save} />
        </>
      )}
      {mayDelete && (
        <>
          <h2>Delete</h2>
          <p>
            <button type="button" className="danger" onClick={remove}>
              Delete subscription
            </button>
          </p>
        </>
      )}
      {removal.problem && (
        <p className="error" role="alert">
          {removal.problem}
        </p>
      )}
    </section>
  );
}

/** A delivery just queued from this page: one sent again, or a test event. */
interface QueuedDelivery {
  delivery: WebhookDelivery;
  test: boolean;
}

/**
 * The delivery log, newest first, filtered by status (in the route, so it survives reload) and paged; `queued` is
 * the delivery last sent again or the test event last queued, `problem` why queuing one failed.
 */
function DeliveryLog({
  route,
  deliveries,
  queued,
  problem,
  onReload,
  onRedeliver,
  onSendTest,
}: {
  route: WebhookRoute;
  deliveries: Loaded<WebhookDeliveryPage>;
  queued?: QueuedDelivery;
  problem?: string;
  onReload(): void;
  /** Not given when the signed-in role may not redeliver (or send a test event): the buttons are left out. */
  onRedeliver?(delivery: WebhookDelivery): void;
  onSendTest?(): void;
}) {
  const filter = (status: string) => (window.location.hash = hrefOf({ ...route, status: DELIVERY_STATUSES.find((name) => name === status), offset: 0 }));
  return (
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
        <button type="button" onClick={onReload}>
          Reload
        </button>
        {onSendTest && (
          <button type="button" onClick={onSendTest}>
            Send a test event
          </button>
        )}
      </div>
      <p className="status" role="status">
        {queued &&
          (queued.test ? (
            <>
              Test event <span className="mono">{queued.delivery.eventId}</span> queued ({queued.delivery.status}): it is first in the log below; Reload shows
              whether it was delivered.
            </>
          ) : (
            <>
              Delivery of {DELIVERY_EVENT_NAMES[queued.delivery.eventType].toLowerCase()} <span className="mono">{queued.delivery.eventId}</span> queued again.
            </>
          ))}
      </p>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <Status loaded={deliveries} />
      {deliveries.state === 'ready' && (
        <Table
          className="deliveries"
          scroll
          caption={`${pageCaption('Deliveries', deliveries.value, 'No deliveries.')}${deliveries.value.total === 0 ? '' : ', newest first'}`}
          columns={deliveryColumns(onRedeliver)}
          rows={deliveries.value.items}
          rowKey={(delivery) => delivery.id}
          paging={{ route, pageSize: PAGE_SIZE, total: deliveries.value.total, label: 'Pages of deliveries' }}
        />
      )}
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

/** The columns of the delivery log; its last error and the body sent are text from elsewhere, shown as text. */
function deliveryColumns(redeliver?: (delivery: WebhookDelivery) => void): Column<WebhookDelivery>[] {
  const columns: Column<WebhookDelivery>[] = [
    { header: 'Event', cell: (delivery) => <DeliveryEvent delivery={delivery} /> },
    { header: 'Host', cellClassName: 'words', cell: (delivery) => <DeliveryHost delivery={delivery} /> },
    { header: 'Status', cellClassName: (delivery) => `status-${delivery.status} nowrap`, cell: (delivery) => delivery.status },
    { header: 'Attempts', className: 'number', cell: (delivery) => delivery.attempts },
    {
      header: 'Last answer',
      cellClassName: 'words',
      cell: (delivery) => (
        <>
          {delivery.lastStatusCode ?? '—'}
          {delivery.lastError && <span className="last-error">{delivery.lastError}</span>}
        </>
      ),
    },
    { header: 'Next attempt', cell: (delivery) => <When time={delivery.nextAttemptAt} /> },
    { header: 'Created', cell: (delivery) => <When time={delivery.createdAt} /> },
    { header: 'Delivered', cell: (delivery) => <When time={delivery.deliveredAt} /> },
  ];
  if (!redeliver) return columns;
  return [
    ...columns,
    {
      header: 'Actions',
      cellClassName: 'nowrap',
      cell: (delivery) => (
        <button type="button" onClick={() => redeliver(delivery)}>
          Redeliver
        </button>
      ),
    },
  ];
}

/** The host a delivery's event is about, linked to its page (its name is the host's own: text only); a dash when none. */
function DeliveryHost({ delivery }: { delivery: WebhookDelivery }) {
  if (!delivery.hostRecordId) return <span className="muted">—</span>;
  return <a href={hrefOf({ page: 'host', id: delivery.hostRecordId })}>{delivery.hostname ?? delivery.hostRecordId}</a>;
}

/** A delivery's event in words, its type and id, and the body sent (folded away). */
function DeliveryEvent({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <>
      <span className="nowrap">{DELIVERY_EVENT_NAMES[delivery.eventType]}</span>
      <code className="sub nowrap">{delivery.eventType}</code>
      <span className="sub mono">{delivery.eventId}</span>
      <details className="payload">
        <summary>Body sent</summary>
        <pre className="raw">{delivery.payload}</pre>
      </details>
    </>
  );
}
