import type { Knex } from '@mikro-orm/knex';
import { Webhook } from 'standardwebhooks';
import { describeFailure, summarizeReportBytes, type AuditLogger } from '@org/audit-server-core';
import type { WebhookEventType } from '../generated/types.gen.js';
import type { Database, SqlDialect } from '../database/dialect.js';
import { BackgroundPasses, BackgroundWorker } from '../ops/background-passes.js';
import { sqlDialectOf } from '../database/dialects.js';
import { CONTENT_COLUMNS, reportBytesOf, type ContentColumns } from '../reports/report-content.js';
import { receivedBefore } from '../reports/report-queries.js';
import { chunks } from '../database/batches.js';
import type { WebhookDeliveryRecord, WebhookEventRecord } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import { admitDeliveries, lockSubscriptions, subscriptionsWithFolds, type DeliveryCandidate } from './delivery-cap.js';
import { upsertNotices, writeEvents, type OutboxEvent } from './outbox.js';
import { pruneRefusedUploadNotices } from './refused-uploads.js';
import { postWebhook } from './safe-request.js';
import { enabledSubscriptions, subscriptionsByIds, type Subscription } from './webhook-records.js';

/** Tuning of {@link WebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  /** Send to addresses that are not public unicast too (off by default: a subscription could probe the inside). */
  allowPrivate?: boolean;
  /** Longest wait for a receiver's answer. Default 10 s. */
  timeoutMs?: number;
  /** Attempts before a delivery is given up as `failed`. Default 10 (about 8.5 hours of backoff). */
  maxAttempts?: number;
  /** Wait before the second attempt; it doubles with each failure, up to 6 hours. Default 30 s. */
  firstRetryMs?: number;
  /** How often to look for work even when not woken. Default 5 s. */
  intervalMs?: number;
  /** How often stale hosts and expiring keys are looked for and old deliveries deleted. Default 60 s. */
  sweepIntervalMs?: number;
  /** Days delivered and failed deliveries are kept in the log. Default 30. */
  keepDays?: number;
  logger?: AuditLogger;
  now?: () => Date;
}

/** A delivery claimed for sending. */
type DeliveryRow = Pick<ReadRowOf<WebhookDeliveryRecord>, 'id' | 'webhook_id' | 'event_id' | 'event_type' | 'payload' | 'attempts'>;

type EventRow = Omit<ReadRowOf<WebhookEventRecord>, 'type'> & { type: WebhookEventType };

const BATCH = 100;
const SENDS_AT_ONCE = 4;
const CLAIM_MS = 60_000;
const MAX_RETRY_MS = 6 * 3_600_000;
const DAY_MS = 86_400_000;
const KEY_WARNING_MS = 7 * DAY_MS;
const MAX_ERROR = 500;

/**
 * Sends webhook events at least once. Events wait in the outbox (`webhook_event`), written in the transaction of the
 * change they tell of; a pass fans them out into one delivery per subscription that wants them (deleting them from
 * the outbox in the same transaction), then sends the deliveries that are due, each claimed first so that several
 * servers on one PostgreSQL database send each one once. A failed attempt is retried with exponential backoff; the
 * log keeps every delivery's status, attempts and last error. Stale hosts and expiring keys are looked for by a
 * periodic sweep, told once per host or key.
 */
export class WebhookDispatcher extends BackgroundWorker {
  protected readonly passes: BackgroundPasses;
  private lastSweep = 0;
  private readonly dialect: SqlDialect;
  private readonly now: () => Date;

  constructor(
    private readonly database: Database,
    private readonly options: WebhookDispatcherOptions = {},
  ) {
    super();
    this.dialect = sqlDialectOf(database.em);
    this.now = options.now ?? (() => new Date());
    this.passes = new BackgroundPasses((settling) => this.dispatch(settling), {
      intervalMs: options.intervalMs ?? 5000,
      wakeDelayMs: 50,
      onError: (error) => options.logger?.error({ error: describeFailure(error) }, 'webhook dispatch failed; retrying on the next pass'),
    });
  }

  /** One pass: the sweep when due (or settling), then the outbox fanned out and the due deliveries sent. */
  private async dispatch(settling: boolean): Promise<void> {
    await this.sweepIfDue(settling);
    while ((await this.fanOut()) > 0 && !this.passes.isStopped);
    await this.releaseFolds();
    while ((await this.sendDue()) > 0 && !this.passes.isStopped);
  }

  /** Turns a batch of outbox events into deliveries; resolves with how many events it took. */
  private async fanOut(): Promise<number> {
    // Looked for outside a transaction first: most passes find nothing, and on SQLite a transaction holds the one
    // connection the uploads commit through.
    if (!(await this.database.em.getKnex()('webhook_event').first('id'))) return 0;
    return this.database.em.getKnex().transaction(async (trx) => {
      const events = (await this.dialect.lockSkippingLocked(trx('webhook_event').select('*').orderBy(['created_at', 'id']).limit(BATCH))) as EventRow[];
      if (events.length === 0) return 0;
      const subscriptions = await enabledSubscriptions(trx);
      const candidates = new Map<Subscription, DeliveryCandidate[]>();
      for (const event of events) {
        const data = JSON.parse(event.data) as Record<string, unknown>;
        const createdAt = new Date(event.created_at);
        const add = (subscription: Subscription, type: WebhookEventType, eventId: string, eventData: Record<string, unknown>) => {
          let list = candidates.get(subscription);
          if (!list) candidates.set(subscription, (list = []));
          list.push({ type, eventId, createdAt, data: eventData });
        };
        let regression: Regression | null | undefined;
        for (const subscription of subscriptions) {
          if (event.type === 'report.stored' && subscription.events.has('host.regressed')) {
            regression ??= await regressionOf(trx, data);
            if (regression && (regression.drop >= subscription.regressionThreshold || regression.data.newWarnings.length > 0)) {
              add(subscription, 'host.regressed', `${event.id}r`, regression.data);
            }
          }
          if (!subscription.events.has(event.type)) continue;
          add(subscription, event.type, event.id, data);
        }
      }
      await this.admit(
        trx,
        subscriptions.filter((subscription) => candidates.has(subscription)),
        candidates,
      );
      await trx('webhook_event')
        .whereIn(
          'id',
          events.map((event) => event.id),
        )
        .delete();
      return events.length;
    });
  }

  /**
   * Inserts the deliveries each subscription's cap admits (folding the rest), the subscriptions locked first so that
   * servers sharing the database count each one's minute in turn.
   */
  private async admit(trx: Knex.Transaction, subscriptions: Subscription[], candidates: Map<Subscription, DeliveryCandidate[]>): Promise<number> {
    await lockSubscriptions(
      trx,
      this.dialect,
      subscriptions.map((subscription) => subscription.id),
    );
    const now = this.now();
    const deliveries: Record<string, unknown>[] = [];
    for (const subscription of subscriptions)
      deliveries.push(...(await admitDeliveries(trx, this.dialect, subscription, candidates.get(subscription) ?? [], now)));
    for (const chunk of chunks(deliveries, BATCH)) await trx('webhook_delivery').insert(chunk);
    return deliveries.length;
  }

  /** Tells the events folded for enabled subscriptions whose minute has room again; resolves with how many summaries it queued. */
  private async releaseFolds(): Promise<number> {
    // As in fanOut: a transaction only when something is folded.
    if ((await subscriptionsWithFolds(this.database.em.getKnex())).length === 0) return 0;
    return this.database.em.getKnex().transaction(async (trx) => {
      const folded = new Set(await subscriptionsWithFolds(trx));
      const subscriptions = (await enabledSubscriptions(trx)).filter((subscription) => folded.has(subscription.id));
      return this.admit(trx, subscriptions, new Map());
    });
  }

  /** Claims the deliveries that are due and sends them; resolves with how many it sent. */
  private async sendDue(): Promise<number> {
    const now = this.now();
    const time = this.dialect.toDatabaseTime(now);
    const due = (knex: Knex) =>
      knex('webhook_delivery as d')
        .where('d.status', 'pending')
        .andWhere('d.next_attempt_at', '<=', time)
        .andWhere((free) => {
          free.whereNull('d.claimed_until').orWhere('d.claimed_until', '<', time);
        });
    // As in fanOut: a transaction only when something is due.
    if (!(await due(this.database.em.getKnex()).first('d.id'))) return 0;
    const claimed = await this.database.em.getKnex().transaction(async (trx) => {
      const query = due(trx)
        .select('d.id', 'd.webhook_id', 'd.event_id', 'd.event_type', 'd.payload', 'd.attempts')
        .orderBy(['d.next_attempt_at', 'd.id'])
        .limit(BATCH);
      const rows = (await this.dialect.lockSkippingLocked(query)) as DeliveryRow[];
      if (rows.length > 0) {
        await trx('webhook_delivery')
          .whereIn(
            'id',
            rows.map((row) => row.id),
          )
          .update({ claimed_until: this.dialect.toDatabaseTime(new Date(now.getTime() + CLAIM_MS)) });
      }
      return rows;
    });
    if (claimed.length === 0) return 0;
    const webhookIds = [...new Set(claimed.map((row) => row.webhook_id))];
    const subscriptions = new Map((await subscriptionsByIds(this.database.em.getKnex(), webhookIds)).map((subscription) => [subscription.id, subscription]));
    const queue = [...claimed];
    const sender = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) await this.send(row, subscriptions.get(row.webhook_id));
    };
    await Promise.all(Array.from({ length: SENDS_AT_ONCE }, sender));
    return claimed.length;
  }

  /** One attempt of one delivery, and its outcome written to the log. */
  private async send(row: DeliveryRow, subscription: Subscription | undefined): Promise<void> {
    // Disabled since it was queued: left pending, tried again once it is enabled (a test event is sent all the same).
    if (!subscription || (!subscription.enabled && row.event_type !== 'webhook.test'))
      return void (await this.database.em
        .getKnex()('webhook_delivery')
        .where('id', row.id)
        .update({ claimed_until: null, next_attempt_at: this.dialect.toDatabaseTime(new Date(this.now().getTime() + CLAIM_MS)) }));
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const sentAt = this.now();
      const signature = new Webhook(subscription.secret).sign(row.event_id, sentAt, row.payload);
      const answer = await postWebhook(
        subscription.url,
        {
          'content-type': 'application/json',
          'user-agent': 'audit-server-webhooks',
          'webhook-id': row.event_id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        row.payload,
        { allowPrivate: this.options.allowPrivate ?? false, timeoutMs: this.options.timeoutMs ?? 10_000 },
      );
      statusCode = answer.status;
      if (statusCode < 200 || statusCode >= 300)
        error = statusCode >= 300 && statusCode < 400 ? `answered ${statusCode}: redirects are not followed` : `answered ${statusCode}`;
    } catch (caught) {
      error = (caught instanceof Error ? caught.message : String(caught)).slice(0, MAX_ERROR);
    }
    const attempts = Number(row.attempts) + 1;
    const now = this.now();
    const outcome =
      error === null
        ? { status: 'delivered', delivered_at: this.dialect.toDatabaseTime(now), next_attempt_at: null }
        : attempts >= (this.options.maxAttempts ?? 10)
          ? { status: 'failed', next_attempt_at: null }
          : { status: 'pending', next_attempt_at: this.dialect.toDatabaseTime(new Date(now.getTime() + this.retryDelay(attempts))) };
    if (error !== null) this.options.logger?.warn({ webhookId: subscription.id, deliveryId: row.id, attempts, error }, 'webhook delivery failed');
    await this.database.em
      .getKnex()('webhook_delivery')
      .where('id', row.id)
      .update({ ...outcome, attempts, last_status_code: statusCode, last_error: error, claimed_until: null });
  }

  /** The wait after the `attempts`-th failure: doubling from the first retry's, up to six hours. */
  private retryDelay(attempts: number): number {
    return Math.min((this.options.firstRetryMs ?? 30_000) * 2 ** (attempts - 1), MAX_RETRY_MS);
  }

  private async sweepIfDue(force: boolean): Promise<void> {
    const now = this.now();
    if (!force && now.getTime() - this.lastSweep < (this.options.sweepIntervalMs ?? 60_000)) return;
    this.lastSweep = now.getTime();
    const subscriptions = await enabledSubscriptions(this.database.em.getKnex());
    if (subscriptions.some((s) => s.events.has('key.expiring'))) await this.noticeExpiringKeys(now);
    const cutoff = this.dialect.toDatabaseTime(new Date(now.getTime() - (this.options.keepDays ?? 30) * DAY_MS));
    const expired = this.database.em.getKnex()('webhook_delivery').whereIn('status', ['delivered', 'failed']).andWhere('created_at', '<', cutoff);
    if (await expired.clone().first('id')) await expired.delete();
    await pruneRefusedUploadNotices(this.database.em.getKnex(), now, this.dialect.toDatabaseTime);
  }

  /** License keys that expire within a week, told once per expiry. */
  private async noticeExpiringKeys(now: Date): Promise<void> {
    const knex = this.database.em.getKnex();
    const time = this.dialect.toDatabaseTime(now);
    const keys = (await knex('license_key as k')
      .select('k.id', 'k.label', 'k.prefix', 'k.expires_at')
      .whereNull('k.revoked_at')
      .andWhere('k.expires_at', '>', time)
      .andWhere('k.expires_at', '<=', this.dialect.toDatabaseTime(new Date(now.getTime() + KEY_WARNING_MS)))) as {
      id: string;
      label: string | null;
      prefix: string;
      expires_at: Date | number;
    }[];
    const subjects = keys.map((key) => `${key.id}:${new Date(key.expires_at).getTime()}`);
    const told = new Set(
      ((await knex('webhook_notice').select('subject').where('kind', 'key.expiring').whereIn('subject', subjects)) as { subject: string }[]).map(
        (row) => row.subject,
      ),
    );
    const fresh = keys.filter((_, i) => !told.has(subjects[i]!));
    if (fresh.length === 0) return;
    const events = fresh.map((key): OutboxEvent => ({
      type: 'key.expiring',
      data: { keyId: key.id, label: key.label, prefix: key.prefix, expiresAt: new Date(key.expires_at).toISOString() },
    }));
    await this.notice(
      events,
      fresh.map((key) => `${key.id}:${new Date(key.expires_at).getTime()}`),
      'key.expiring',
      now,
    );
  }

  /** Writes events and the notices that keep them from being sent twice, in one transaction. */
  private async notice(events: OutboxEvent[], subjects: string[], kind: string, now: Date): Promise<void> {
    const time = this.dialect.toDatabaseTime(now);
    await this.database.em.getKnex().transaction(async (trx) => {
      await writeEvents(trx, events, time);
      await upsertNotices(trx, kind, subjects, time);
    });
  }
}

interface Regression {
  /** How much the hardening index dropped (0 when it did not, or either report has none). */
  drop: number;
  data: {
    reportId: string;
    previousReportId: string;
    hostRecordId: string;
    hostId: unknown;
    hostname: unknown;
    hardeningIndex: { before: number | null; after: number | null };
    newWarnings: { testId: string; text: string }[];
  };
}

/** How a stored report compares with its host's previous one; null when it is the first or not a Lynis report. */
async function regressionOf(trx: Knex.Transaction, stored: Record<string, unknown>): Promise<Regression | null> {
  const reportId = stored['reportId'] as string;
  const [current] = (await trx('report')
    .select('host_record_id', 'received_at', ...CONTENT_COLUMNS)
    .where('id', reportId)) as (ContentColumns & { host_record_id: string; received_at: Date | number })[];
  if (!current) return null;
  const [previous] = (await trx('report')
    .select(...CONTENT_COLUMNS)
    .where('host_record_id', current.host_record_id)
    .andWhere((earlier) => receivedBefore(earlier, current))
    .orderBy([
      { column: 'received_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(1)) as ContentColumns[];
  if (!previous) return null;
  const after = summarizeReportBytes(await reportBytesOf(current));
  const before = summarizeReportBytes(await reportBytesOf(previous));
  if (!after || !before) return null;
  const known = new Set(before.warnings.map((warning) => warning.testId));
  const drop = before.hardeningIndex !== null && after.hardeningIndex !== null ? Math.max(0, before.hardeningIndex - after.hardeningIndex) : 0;
  return {
    drop,
    data: {
      reportId,
      previousReportId: previous.id,
      hostRecordId: current.host_record_id,
      hostId: stored['hostId'],
      hostname: stored['hostname'],
      hardeningIndex: { before: before.hardeningIndex, after: after.hardeningIndex },
      newWarnings: after.warnings.filter((warning) => !known.has(warning.testId)).map((warning) => ({ testId: warning.testId, text: warning.text })),
    },
  };
}
