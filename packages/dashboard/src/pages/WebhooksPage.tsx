import { useState } from 'react';
import { createWebhook, listWebhooks, type Client, type Webhook, type WebhookInput } from '@org/audit-client/sdk';
import { useCan } from '../permissions.js';
import { data } from '../api.js';
import { hrefOf } from '../route.js';
import { useChange } from '../use-change.js';
import { mapLoaded, useLoad } from '../use-load.js';
import { settingsOf } from '../webhook-events.js';
import { LoadedTable, type Column } from '../components/Table.js';
import { When } from '../components/When.js';
import { WebhookForm } from '../components/WebhookForm.js';

/** Webhook subscriptions: the list, each opening its settings and delivery log, and a form for a new one (its secret shown once). */
export function WebhooksPage({ client, onUnauthorized }: { client: Client; onUnauthorized(): void }) {
  const [webhooks, reload] = useLoad(() => data(listWebhooks({ client })), 'webhooks', onUnauthorized);
  const [shown, setShown] = useState<{ url: string; secret: string }>();
  // A new key empties the form after a subscription was created.
  const [formKey, setFormKey] = useState(0);
  const { problem, change } = useChange(reload, onUnauthorized);
  const mayCreate = useCan('createWebhook');
  const create = (input: WebhookInput) =>
    void change(async () => {
      const created = await data(createWebhook({ client, body: input }));
      setShown({ url: created.webhook.url, secret: created.secret });
      setFormKey((key) => key + 1);
    });
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title" tabIndex={-1}>
        Webhooks
      </h1>
      <p className="hint">
        Each subscription is sent the events it chose, signed as Standard Webhooks says; a receiver that does not answer 2xx is tried again with backoff (10
        attempts). Open one for its delivery log.
      </p>
      {shown && (
        <div className="shown-once" role="status">
          <p>
            New subscription to <strong>{shown.url}</strong>. Copy its signing secret now: it is shown only this once.
          </p>
          <output className="mono" aria-label="Signing secret">
            {shown.secret}
          </output>
          <button type="button" onClick={() => setShown(undefined)}>
            Done
          </button>
        </div>
      )}
      <LoadedTable
        loaded={mapLoaded(webhooks, (value) => value.items)}
        scroll
        empty={<p>No subscriptions yet.</p>}
        columns={COLUMNS}
        rowKey={(webhook) => webhook.id}
      />
      {mayCreate && (
        <>
          <h2>New subscription</h2>
          <WebhookForm key={formKey} submitLabel="Create subscription" problem={problem} onSubmit={create} />
        </>
      )}
    </section>
  );
}

const COLUMNS: Column<Webhook>[] = [
  {
    header: 'URL',
    cellClassName: 'mono',
    cell: (webhook) => (
      <>
        <a href={hrefOf({ page: 'webhook', id: webhook.id, offset: 0 })}>{webhook.url}</a>
        {webhook.description && <span className="sub">{webhook.description}</span>}
        {!webhook.enabled && <span className="sub">(disabled)</span>}
      </>
    ),
  },
  {
    header: 'Events',
    cell: (webhook) => (
      <ul className="plain">
        {webhook.events.map((event) => (
          <li key={event}>
            <code>{event}</code>
          </li>
        ))}
      </ul>
    ),
  },
  { header: 'Format', cell: (webhook) => webhook.format },
  { header: 'Settings', cell: (webhook) => settingsOf(webhook).join(', ') || '—' },
  {
    header: 'Deliveries',
    cellClassName: 'nowrap',
    cell: (webhook) => (
      <>
        {webhook.pending} pending
        <span className={webhook.failed > 0 ? 'sub status-fail' : 'sub'}>{webhook.failed} failed</span>
      </>
    ),
  },
  { header: 'Created', cell: (webhook) => <When time={webhook.createdAt} /> },
];
