import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { summarizeReportBytes, type ReportToStore } from '@org/audit-server-core';
import type { WebhookEventType } from '../generated/types.gen.js';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { writesDuring } from '@org/test-support/statements';
import { startStubServer, type StubReply, type StubServer } from '@org/test-support/stub-server';
import { openDatabase, type Database } from '../database/open.js';
import { sqlDialectOf } from '../database/dialects.js';
import { hostRecordId } from '../hosts/host-records.js';
import { changeStates, deleteHostRecord } from '../hosts/host-lifecycle.js';
import { sweepHostLifecycle } from '../hosts/host-lifecycle-sweep.js';
import { lifecycleSettings } from '../hosts/lifecycle-settings.js';
import { dayOf, RejectionLog, type RefusalGroup } from '../refusals/rejection-log.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey, setKeySettings } from '../secrets/license-keys.js';
import { listDeliveries, redeliver } from './deliveries.js';
import { WebhookDispatcher } from './dispatcher.js';
import { writeRefusedUploadEvents } from './refused-uploads.js';
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from './webhook-records.js';
import { UNSCOPED } from '../people/scope.js';

const DAY_MS = 86_400_000;
const silent = { info() {}, warn() {}, error() {} };

const lynisReport = (hostname: string, index: number, warnings: string[] = []) =>
  [
    'report_version_major=1',
    'report_version_minor=0',
    'lynis_version=3.0.8',
    `hostname=${hostname}`,
    `hardening_index=${index}`,
    ...warnings.map((id) => `warning[]=${id}|Warned|-|-|`),
    '',
  ].join('\n');

describe.each(DIALECTS)('webhooks on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  let store: OrmReportStore;
  let keyId: string;
  let receiver: StubServer;
  let reply: (attempt: number) => StubReply;
  let clock: Date;
  const dispatchers: WebhookDispatcher[] = [];
  const dispatcher = (options: ConstructorParameters<typeof WebhookDispatcher>[1] = {}) => {
    const created = new WebhookDispatcher(orm, { allowPrivate: true, firstRetryMs: 1000, now: () => clock, logger: silent, ...options });
    dispatchers.push(created);
    return created;
  };
  beforeEach(async () => {
    orm = await openDatabase(database.location);
    store = new OrmReportStore(orm);
    ({ id: keyId } = await createKey(orm));
    clock = new Date();
    reply = () => ({ status: 204, body: '' });
    receiver = await startStubServer(() => reply(receiver.requests.length));
  });
  afterEach(async () => {
    for (const created of dispatchers.splice(0)) await created.stop();
    await receiver.close();
    await orm.close();
  });

  async function upload(hostId: string, text: string): Promise<string> {
    const content = Buffer.from(text);
    const report: ReportToStore = {
      keyId,
      hostId,
      receivedAt: clock,
      encoding: 'raw',
      size: content.length,
      sha256: 'a'.repeat(64),
      content,
      summary: summarizeReportBytes(content),
    };
    return (await store.save(report)).id;
  }

  const subscribe = (events: WebhookEventType[], extra: Partial<Parameters<typeof createWebhook>[1]> = {}) =>
    createWebhook(orm, { url: `${receiver.url}/hook`, events, ...extra });

  it('delivers a stored report signed as Standard Webhooks says, verified by the standardwebhooks package', async () => {
    const { webhook, secret } = await subscribe(['report.stored']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(webhook.secretPrefix).toBe(secret.slice(0, 10));
    const reportId = await upload('a'.repeat(40), lynisReport('web-01', 70));
    await dispatcher().settle();
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    const headers = request!.headers as Record<string, string>;
    const verified = new Webhook(secret).verify(request!.body.toString(), headers) as { type: string; data: Record<string, unknown> };
    expect(verified).toMatchObject({ type: 'report.stored', data: { reportId, hostId: 'a'.repeat(40), hostname: 'web-01', hardeningIndex: 70, keyId } });
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(request!.body.toString(), headers)).toThrow();
    const log = await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 10, offset: 0 });
    expect(log.items).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 1, lastStatusCode: 204, lastError: null, eventId: headers['webhook-id'] }),
    ]);
    // The outbox is empty once fanned out; nothing is sent twice.
    const [{ n: waiting }] = (await orm.em.getKnex()('webhook_event').count({ n: '*' })) as [{ n: number | string }];
    expect(Number(waiting)).toBe(0);
    await dispatcher().settle();
    expect(receiver.requests).toHaveLength(1);
  });

  const outboxSize = async () => Number(((await orm.em.getKnex()('webhook_event').count({ n: '*' })) as [{ n: number | string }])[0].n);

  it('writes no event no subscription wants, and a pass with nothing to send writes nothing', async () => {
    await upload('a'.repeat(40), lynisReport('web-01', 70));
    expect(await outboxSize()).toBe(0);
    await subscribe(['host.stale']);
    await upload('a'.repeat(40), lynisReport('web-01', 71));
    expect(await outboxSize()).toBe(0);
    const idle = dispatcher();
    // A settling pass does everything a pass can, the periodic sweep included.
    expect(await writesDuring(orm.em.getKnex().client, () => idle.settle())).toEqual([]);
    expect(receiver.requests).toHaveLength(0);
    // `host.regressed` is told from `report.stored` events, so those are kept for it.
    await subscribe(['host.regressed']);
    await upload('a'.repeat(40), lynisReport('web-01', 72));
    expect(await outboxSize()).toBe(1);
  });

  it('tells a new subscription of the reports stored after it, not before', async () => {
    await upload('a'.repeat(40), lynisReport('web-01', 70));
    await dispatcher().settle();
    const { webhook } = await subscribe(['report.stored']);
    clock = new Date(clock.getTime() + 1000);
    const after = await upload('b'.repeat(40), lynisReport('web-02', 70));
    await dispatcher().settle();
    expect(receiver.requests.map((request) => (JSON.parse(request.body.toString()) as { data: { reportId: string } }).data.reportId)).toEqual([after]);
    expect((await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 10, offset: 0 })).items).toEqual([expect.objectContaining({ status: 'delivered' })]);
    expect(await outboxSize()).toBe(0);
  });

  it('retries a failing receiver with growing waits, gives up after the last attempt, and redelivers on demand with the same id', async () => {
    const { webhook } = await subscribe(['report.stored']);
    reply = () => ({ status: 500, body: 'down' });
    await upload('a'.repeat(40), lynisReport('web-01', 70));
    const sender = dispatcher({ maxAttempts: 3 });
    await sender.settle();
    let [delivery] = (await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 10, offset: 0 })).items;
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: 500,
      lastError: 'answered 500',
      nextAttemptAt: new Date(clock.getTime() + 1000).toISOString(),
    });
    await sender.settle(); // not due yet
    expect(receiver.requests).toHaveLength(1);
    clock = new Date(clock.getTime() + 1000);
    await sender.settle();
    [delivery] = (await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 10, offset: 0 })).items;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, nextAttemptAt: new Date(clock.getTime() + 2000).toISOString() });
    clock = new Date(clock.getTime() + 2000);
    await sender.settle();
    [delivery] = (await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 10, offset: 0 })).items;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null });
    expect((await listWebhooks(orm))[0]).toMatchObject({ pending: 0, failed: 1 });

    reply = () => ({ status: 200, body: 'ok' });
    expect(await redeliver(orm, webhook.id, delivery!.id, clock)).toMatchObject({ status: 'pending', attempts: 0 });
    await sender.settle();
    expect((await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 10, offset: 0 })).items[0]).toMatchObject({ status: 'delivered', attempts: 1 });
    const ids = receiver.requests.map((request) => request.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    expect(ids).toHaveLength(4);
  });

  it('follows no redirect, and refuses a private address unless allowed', async () => {
    const { webhook } = await subscribe(['report.stored']);
    reply = () => ({ status: 302, body: '', headers: { location: 'http://169.254.169.254/latest/meta-data' } });
    await upload('a'.repeat(40), lynisReport('web-01', 70));
    await dispatcher({ maxAttempts: 1 }).settle();
    expect((await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 10, offset: 0 })).items[0]).toMatchObject({
      status: 'failed',
      lastError: 'answered 302: redirects are not followed',
    });
    expect(receiver.requests).toHaveLength(1);

    clock = new Date(clock.getTime() + 1000);
    await upload('b'.repeat(40), lynisReport('web-02', 70));
    await dispatcher({ maxAttempts: 1, allowPrivate: false }).settle();
    const refused = (await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 10, offset: 0 })).items[0];
    expect(refused).toMatchObject({ status: 'failed', lastStatusCode: null, lastError: '127.0.0.1 is not a public address (loopback)' });
    expect(receiver.requests).toHaveLength(1);
  });

  it('tells of a regression (index drop or new warning) per subscription threshold, in Slack format when asked', async () => {
    const strict = await subscribe(['host.regressed'], { regressionThreshold: 3 });
    const lenient = await subscribe(['host.regressed'], { regressionThreshold: 20, format: 'slack' });
    await upload('a'.repeat(40), lynisReport('web-<!channel>', 70));
    clock = new Date(clock.getTime() + 1000);
    await upload('a'.repeat(40), lynisReport('web-<!channel>', 65));
    clock = new Date(clock.getTime() + 1000);
    await upload('a'.repeat(40), lynisReport('web-<!channel>', 65, ['FIRE-4512']));
    await dispatcher().settle();
    const payloads = (id: string) =>
      listDeliveries(orm, UNSCOPED, id, { limit: 10, offset: 0 }).then((page) => page.items.map((item) => JSON.parse(item.payload) as Record<string, unknown>));
    const strictPayloads = await payloads(strict.webhook.id);
    // Fanned out together, so in no particular order.
    const byIndexBefore = strictPayloads
      .map((payload) => payload['data'] as { hardeningIndex: { before: number }; newWarnings: unknown })
      .sort((a, b) => a.hardeningIndex.before - b.hardeningIndex.before);
    expect(byIndexBefore).toEqual([
      expect.objectContaining({ hardeningIndex: { before: 65, after: 65 }, newWarnings: [{ testId: 'FIRE-4512', text: 'Warned' }] }),
      expect.objectContaining({ hardeningIndex: { before: 70, after: 65 }, newWarnings: [] }),
    ]);
    expect(await payloads(lenient.webhook.id)).toEqual([{ text: 'web-&lt;!channel&gt; regressed: hardening index 65 → 65, new warnings FIRE-4512' }]);
  });

  it('tells of refused uploads at most once an hour per key and reason, however many host ids they name, and never for unknown keys', async () => {
    const { webhook } = await subscribe(['uploads.refused']);
    const toTime = sqlDialectOf(orm.em).toDatabaseTime;
    const log = new RejectionLog(orm, silent, { now: () => clock, onWrite: (trx, groups, now) => writeRefusedUploadEvents(trx, groups, now, toTime) });
    const refuse = (hostId: string, reason = 'invalid-key', key = keyId) =>
      log.record({ operation: 'uploadReport', reason, keyId: key, hostId, remoteAddress: '127.0.0.2' } as never);
    const randomHostId = () => randomBytes(20).toString('hex');
    const hostIds = Array.from({ length: 200 }, randomHostId);
    for (const hostId of hostIds) refuse(hostId);
    refuse(hostIds[0]!);
    refuse('b'.repeat(40), 'invalid-key', '');
    refuse('c'.repeat(40), 'invalid-data');
    await log.flush();
    // Later in the hour: new host ids, more refusals, a later write; nothing more is told.
    clock = new Date(clock.getTime() + 60_000);
    for (let i = 0; i < 50; i++) refuse(randomHostId());
    await log.flush();
    await dispatcher().settle();
    const told = async () =>
      (await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 100, offset: 0 })).items.map(
        (item) => JSON.parse(item.payload).data as Record<string, unknown>,
      );
    let events = await told();
    expect(events).toHaveLength(2);
    const invalidKey = events.find((event) => event['reason'] === 'invalid-key')!;
    expect(invalidKey).toMatchObject({ keyId, reason: 'invalid-key', count: 201, hostIdCount: 200 });
    expect(invalidKey['exampleHostIds']).toHaveLength(5);
    for (const example of invalidKey['exampleHostIds'] as string[]) expect(hostIds).toContain(example);
    expect(events.find((event) => event['reason'] === 'invalid-data')).toMatchObject({ keyId, count: 1, hostIdCount: 1, exampleHostIds: ['c'.repeat(40)] });
    clock = new Date(clock.getTime() + 3_600_000);
    for (let i = 0; i < 20; i++) refuse(randomHostId());
    await log.flush();
    await dispatcher().settle();
    events = await told();
    expect(events).toHaveLength(3);
    expect(
      events
        .filter((event) => event['reason'] === 'invalid-key')
        .map((event) => event['count'])
        .sort(),
    ).toEqual([20, 201]);
    await log.close();
    // Notices outlive their hour by no more than a sweep: invalid-data's is gone already, invalid-key's goes next.
    const notices = async () =>
      Number(((await orm.em.getKnex()('webhook_notice').where('kind', 'uploads.refused').count({ n: '*' })) as [{ n: number | string }])[0].n);
    expect(await notices()).toBe(1);
    clock = new Date(clock.getTime() + 3_600_000);
    await dispatcher().settle();
    expect(await notices()).toBe(0);
  });

  it("tells of a key's refused uploads once when two servers write their refusals at once", async () => {
    const { webhook } = await subscribe(['uploads.refused']);
    const toTime = sqlDialectOf(orm.em).toDatabaseTime;
    const refusals = (): RefusalGroup[] =>
      Array.from({ length: 100 }, () => ({
        day: dayOf(clock),
        operation: 'uploadReport',
        reason: 'invalid-key',
        keyId,
        hostId: randomBytes(20).toString('hex'),
        remoteAddress: '127.0.0.2',
        folded: false,
        count: 1,
        firstAt: clock,
        lastAt: clock,
      }));
    // Each server's write in a transaction of its own; on PostgreSQL both wait until the other has begun, so that
    // they overlap (SQLite has one writer: they take turns).
    let begun = 0;
    let bothBegun!: () => void;
    const overlap = new Promise<void>((resolve) => (bothBegun = resolve));
    const write = (groups: RefusalGroup[]) =>
      orm.em.getKnex().transaction(async (trx) => {
        await trx.raw('select 1');
        if (++begun === 2) bothBegun();
        await overlap;
        await writeRefusedUploadEvents(trx, groups, clock, toTime);
      });
    if (dialect === 'postgresql') await Promise.all([write(refusals()), write(refusals())]);
    else for (let server = 0; server < 2; server++) await orm.em.getKnex().transaction((trx) => writeRefusedUploadEvents(trx, refusals(), clock, toTime));
    await dispatcher().settle();
    const items = (await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 10, offset: 0 })).items;
    expect(items.map((item) => JSON.parse(item.payload).data)).toEqual([
      expect.objectContaining({ keyId, reason: 'invalid-key', count: 100, hostIdCount: 100 }),
    ]);
  });

  /** Stores `count` reports of distinct hosts, each telling `report.stored`. */
  const burst = async (count: number, tag: string) => {
    for (let host = 0; host < count; host++) await upload(`${tag}-${String(host).padStart(4, '0')}`.padEnd(40, '0'), lynisReport(`${tag}-${host}`, 70));
  };
  const deliveredBodies = () => receiver.requests.map((request) => JSON.parse(request.body.toString()) as { type: string; data: Record<string, unknown> });
  /** Reports told one by one plus those told folded: every event is accounted for. */
  const accountedFor = (bodies: { type: string; data: Record<string, unknown> }[]) =>
    bodies.filter((body) => body.type === 'report.stored').length +
    bodies
      .filter((body) => body.type === 'events.folded')
      .reduce((sum, body) => sum + ((body.data['counts'] as Record<string, number>)['report.stored'] ?? 0), 0);

  it("sends at most a subscription's cap of deliveries a minute and folds the rest into one summary that counts them", async () => {
    const { webhook } = await subscribe(['report.stored'], { maxDeliveriesPerMinute: 10 });
    expect(webhook.maxDeliveriesPerMinute).toBe(10);
    expect((await subscribe(['report.stored'], { enabled: false })).webhook.maxDeliveriesPerMinute).toBe(60);
    await burst(35, 'a');
    const sender = dispatcher();
    await sender.settle();
    expect(receiver.requests).toHaveLength(10);
    await sender.settle();
    expect(receiver.requests).toHaveLength(10);
    // A minute on, the summary goes first, then new events fill the rest of the minute's cap, the others fold again.
    clock = new Date(clock.getTime() + 61_000);
    await burst(15, 'b');
    await sender.settle();
    let bodies = deliveredBodies();
    expect(bodies).toHaveLength(20);
    const [summary] = bodies.filter((body) => body.type === 'events.folded');
    expect(summary!.data).toMatchObject({ count: 25, counts: { 'report.stored': 25 }, maxDeliveriesPerMinute: 10 });
    expect(summary!.data['eventIds']).toHaveLength(10);
    expect(new Date(summary!.data['firstAt'] as string).getTime()).toBeLessThanOrEqual(new Date(summary!.data['lastAt'] as string).getTime());
    clock = new Date(clock.getTime() + 61_000);
    await sender.settle();
    bodies = deliveredBodies();
    expect(bodies).toHaveLength(21);
    expect(bodies.at(-1)).toMatchObject({ type: 'events.folded', data: { count: 6, counts: { 'report.stored': 6 } } });
    expect(accountedFor(bodies)).toBe(50);
    // Each is in the log, the summaries too; nothing is left folded.
    const log = await listDeliveries(orm, UNSCOPED, webhook.id, { limit: 100, offset: 0 });
    expect(log.items.filter((item) => item.eventType === 'events.folded')).toHaveLength(2);
    expect(log.total).toBe(21);
    expect(Number(((await orm.em.getKnex()('webhook_fold').count({ n: '*' })) as [{ n: number | string }])[0].n)).toBe(0);
  });

  it("keeps a disabled subscription's folded events until it is enabled again, and deletes them with it", async () => {
    const input = { url: `${receiver.url}/hook`, events: ['report.stored' as const], maxDeliveriesPerMinute: 2 };
    const { webhook } = await subscribe(input.events, input);
    await burst(5, 'a');
    const sender = dispatcher();
    await sender.settle();
    await updateWebhook(orm, webhook.id, { ...input, enabled: false });
    clock = new Date(clock.getTime() + 61_000);
    await sender.settle();
    expect(receiver.requests).toHaveLength(2);
    await updateWebhook(orm, webhook.id, { ...input, enabled: true });
    await sender.settle();
    expect(deliveredBodies().at(-1)).toMatchObject({ type: 'events.folded', data: { count: 3 } });
    await burst(5, 'b');
    await sender.settle();
    const folds = () =>
      orm.em
        .getKnex()('webhook_fold')
        .count({ n: '*' })
        .then((rows) => Number((rows as [{ n: number | string }])[0].n));
    expect(await folds()).toBe(1);
    await deleteWebhook(orm, webhook.id);
    expect(await folds()).toBe(0);
  });

  it('folds in Slack format too, saying how many events were folded', async () => {
    await subscribe(['report.stored'], { maxDeliveriesPerMinute: 1, format: 'slack' });
    await burst(4, 'a');
    const sender = dispatcher();
    await sender.settle();
    clock = new Date(clock.getTime() + 61_000);
    await sender.settle();
    expect(receiver.requests.map((request) => JSON.parse(request.body.toString()).text).at(-1)).toMatch(
      /^3 events folded \(over this subscription's cap of 1 a minute\): 3 report\.stored, from .+ to .+$/,
    );
  });

  it('with two dispatchers on one database, the cap holds for both and each delivery, summaries included, is sent once', async () => {
    await subscribe(['report.stored'], { maxDeliveriesPerMinute: 10 });
    // More than one fan-out batch (100 events), so that both fan out at once.
    await burst(230, 'a');
    const [one, two] = [dispatcher(), dispatcher()];
    await Promise.all([one.settle(), two.settle()]);
    expect(receiver.requests).toHaveLength(10);
    clock = new Date(clock.getTime() + 61_000);
    await Promise.all([one.settle(), two.settle()]);
    const bodies = deliveredBodies();
    expect(bodies).toHaveLength(11);
    expect(bodies.filter((body) => body.type === 'events.folded')).toHaveLength(1);
    expect(accountedFor(bodies)).toBe(230);
    expect(new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size).toBe(11);
  });

  it("tells once of each change in a host's life: first report, stale, back, decommissioned, back, deleted", async () => {
    const lifecycle = await subscribe(['host.enrolled', 'host.stale', 'host.decommissioned', 'host.reactivated', 'host.deleted']);
    const settings = lifecycleSettings({ staleDays: 2, groupStaleDays: '', groupExpireAfter: '', autoPurgeAfter: '24h' });
    const id = hostRecordId(keyId, 'a'.repeat(40));
    const sender = dispatcher();
    const told = async () => {
      await sender.settle();
      const items = (await listDeliveries(orm, UNSCOPED, lifecycle.webhook.id, { limit: 50, offset: 0 })).items;
      return items.map((item) => JSON.parse(item.payload) as { type: string; data: Record<string, unknown> }).reverse();
    };
    await upload('a'.repeat(40), lynisReport('web-01', 70));
    await upload('a'.repeat(40), lynisReport('web-01', 71));
    clock = new Date(clock.getTime() + 3 * DAY_MS);
    expect(await sweepHostLifecycle(orm, settings, clock)).toEqual({ stale: 1, decommissioned: 0 });
    expect(await sweepHostLifecycle(orm, settings, clock)).toEqual({ stale: 0, decommissioned: 0 });
    await upload('a'.repeat(40), lynisReport('web-01', 72));
    expect(await changeStates(orm, [id], 'decommission', settings, clock)).toEqual([id]);
    expect(await changeStates(orm, [id], 'decommission', settings, clock)).toEqual([]);
    await upload('a'.repeat(40), lynisReport('web-01', 73));
    await deleteHostRecord(orm, id, clock);
    const events = await told();
    // Deliveries are listed newest first, several made at one time in no set order: compared as a set.
    expect(events.map((event) => [event.type, event.data['previousState'] ?? null]).sort()).toEqual(
      [
        ['host.enrolled', null],
        ['host.stale', null],
        ['host.reactivated', 'stale'],
        ['host.decommissioned', 'active'],
        ['host.reactivated', 'decommissioned'],
        ['host.deleted', null],
      ].sort(),
    );
    expect(events.every((event) => event.data['hostRecordId'] === id && event.data['hostname'] === 'web-01')).toBe(true);
    expect(events.find((event) => event.type === 'host.stale')!.data).toMatchObject({ staleDays: 2 });
    expect(events.find((event) => event.type === 'host.decommissioned')!.data).toMatchObject({ reason: 'operator' });
  });

  it('tells once of a key about to expire', async () => {
    const expiring = await subscribe(['key.expiring']);
    await createKey(orm, { label: 'soon', expiresAt: new Date(clock.getTime() + 3 * DAY_MS) });
    await createKey(orm, { label: 'later', expiresAt: new Date(clock.getTime() + 30 * DAY_MS) });
    const sender = dispatcher();
    await sender.settle();
    clock = new Date(clock.getTime() + DAY_MS);
    await sender.settle();
    const expiringItems = (await listDeliveries(orm, UNSCOPED, expiring.webhook.id, { limit: 10, offset: 0 })).items;
    expect(expiringItems.map((item) => JSON.parse(item.payload).data.label)).toEqual(['soon']);
  });

  it('tells of a key about to expire again once its expiry is moved, not while it stays', async () => {
    const expiring = await subscribe(['key.expiring']);
    const { id } = await createKey(orm, { label: 'moved', expiresAt: new Date(clock.getTime() + 3 * DAY_MS) });
    const sender = dispatcher();
    const told = async () => {
      await sender.settle();
      await sender.settle();
      return (await listDeliveries(orm, UNSCOPED, expiring.webhook.id, { limit: 10, offset: 0 })).items.map((item) => JSON.parse(item.payload).data.expiresAt);
    };
    const first = new Date(clock.getTime() + 3 * DAY_MS).toISOString();
    expect(await told()).toEqual([first]);
    await setKeySettings(orm, id, { expiresAt: new Date(clock.getTime() + 30 * DAY_MS) }); // moved later: nothing to tell
    expect(await told()).toEqual([first]);
    const second = new Date(clock.getTime() + 5 * DAY_MS);
    await setKeySettings(orm, id, { expiresAt: second }); // near again: told again
    expect(await told()).toEqual(expect.arrayContaining([first, second.toISOString()]));
    expect(await told()).toHaveLength(2);
  });

  it('with two dispatchers on one database, each delivery is sent once', async () => {
    await subscribe(['report.stored']);
    for (let host = 0; host < 30; host++) await upload(String(host % 10).repeat(39) + String(host).slice(-1), lynisReport(`h-${host}`, 70));
    const [one, two] = [dispatcher(), dispatcher()];
    await Promise.all([one.settle(), two.settle()]);
    expect(receiver.requests).toHaveLength(30);
    expect(new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size).toBe(30);
  });
});
