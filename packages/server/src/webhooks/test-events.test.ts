import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { summarizeReportBytes, type ReportToStore } from '@org/audit-server-core';
import type { Webhook as Subscription, NewWebhook, WebhookDelivery, WebhookDeliveryPage } from '../generated/types.gen.js';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { startStubServer, type StubServer } from '@org/test-support/stub-server';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { openDatabase, type Database } from '../database/open.js';
import { hostRecordId } from '../hosts/host-records.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { WebhookDispatcher } from './dispatcher.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const silent = { info() {}, warn() {}, error() {} };

describe.each(DIALECTS)('webhook test events and the hosts deliveries name on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let admin: AdminApi;
  let token: string;
  let receiver: StubServer;
  let dispatcher: WebhookDispatcher;
  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token } = await createAdminToken(database, { label: 'tests' }));
    admin = await createAdminApi({ database, webhookAllowPrivate: true });
    receiver = await startStubServer(() => ({ status: 204, body: '' }));
    dispatcher = new WebhookDispatcher(database, { allowPrivate: true, logger: silent });
  });
  afterEach(async () => {
    await dispatcher.stop();
    await receiver.close();
    await database.close();
  });

  /** One admin API call, answered with its status and parsed JSON body. */
  async function call<T>(method: string, path: string, value?: unknown): Promise<{ status: number; body: T }> {
    const answer = await admin.handle({
      method,
      path,
      query: {},
      headers: { authorization: `Bearer ${token}`, ...(value === undefined ? {} : { 'content-type': 'application/json' }) },
      body: value === undefined ? { kind: 'none' } : { kind: 'json', value },
    });
    return { status: answer.status, body: (typeof answer.body === 'string' && answer.body ? JSON.parse(answer.body) : undefined) as T };
  }
  const subscribe = async (input: Record<string, unknown>) =>
    (await call<NewWebhook>('POST', '/api/admin/webhooks', { url: `${receiver.url}/hook`, ...input })).body;
  const deliveries = async (webhook: Subscription) => (await call<WebhookDeliveryPage>('GET', `/api/admin/webhooks/${webhook.id}/deliveries`)).body.items;

  it('queues a test event for a disabled subscription of other events, delivered signed to its receiver', async () => {
    const { webhook, secret } = await subscribe({ events: ['host.stale'], enabled: false, description: 'Ops channel' });
    const queued = await call<WebhookDelivery>('POST', `/api/admin/webhooks/${webhook.id}/test`);
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ webhookId: webhook.id, eventType: 'webhook.test', status: 'pending', attempts: 0, hostRecordId: null, hostname: null });
    await dispatcher.settle();
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    const verified = new Webhook(secret).verify(request!.body.toString(), request!.headers as Record<string, string>);
    expect(verified).toMatchObject({
      type: 'webhook.test',
      data: { test: true, webhookId: webhook.id, description: 'Ops channel', receiver: new URL(receiver.url).host },
    });
    expect(request!.headers['webhook-id']).toBe(queued.body.eventId);
    expect(await deliveries(webhook)).toEqual([expect.objectContaining({ id: queued.body.id, status: 'delivered', lastStatusCode: 204 })]);
  });

  it('writes a Slack subscription test event as text', async () => {
    const { webhook } = await subscribe({ events: ['report.stored'], format: 'slack', description: '<!channel> ops' });
    expect((await call('POST', `/api/admin/webhooks/${webhook.id}/test`)).status).toBe(202);
    await dispatcher.settle();
    expect(receiver.requests.map((request) => JSON.parse(request.body.toString()) as unknown)).toEqual([
      { text: 'Test event for the webhook &lt;!channel&gt; ops: its receiver is reached' },
    ]);
  });

  it('answers 404 for an unknown webhook and 400 for an id that is not one', async () => {
    expect(await call('POST', `/api/admin/webhooks/${UNKNOWN_ID}/test`)).toMatchObject({
      status: 404,
      body: { detail: expect.stringContaining(UNKNOWN_ID) as unknown },
    });
    expect((await call('POST', '/api/admin/webhooks/not-an-id/test')).status).toBe(400);
    const [{ n }] = (await database.em.getKnex()('webhook_delivery').count({ n: '*' })) as [{ n: number | string }];
    expect(Number(n)).toBe(0);
  });

  it('names the host of each event about one, in either format: a report stored, a regression, a changed identity', async () => {
    const events = ['report.stored', 'host.regressed', 'host.identity_changed'];
    const standard = (await subscribe({ events })).webhook;
    const slack = (await subscribe({ events, format: 'slack' })).webhook;
    const { id: keyId } = await createKey(database);
    const store = new OrmReportStore(database);
    const upload = async (hostId2: string, index: number, minutesAgo: number) => {
      const content = Buffer.from(`report_version_major=1\nreport_version_minor=0\nhostname=web-01\nhardening_index=${index}\n`);
      const report: ReportToStore = {
        keyId,
        hostId: 'a'.repeat(40),
        hostId2,
        receivedAt: new Date(Date.now() - minutesAgo * 60_000),
        encoding: 'raw',
        size: content.length,
        sha256: 'a'.repeat(64),
        content,
        summary: summarizeReportBytes(content),
      };
      await store.save(report);
    };
    await upload('b'.repeat(64), 80, 2);
    await upload('c'.repeat(64), 60, 1);
    await dispatcher.settle();
    const host = { hostRecordId: hostRecordId(keyId, 'a'.repeat(40)), hostname: 'web-01' };
    for (const webhook of [standard, slack]) {
      const items = await deliveries(webhook);
      expect(items.map((item) => item.eventType).sort()).toEqual(['host.identity_changed', 'host.regressed', 'report.stored', 'report.stored']);
      for (const item of items) expect([item.eventType, item]).toEqual([item.eventType, expect.objectContaining(host)]);
    }
  });
});
