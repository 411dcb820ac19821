// The admin commands of webhooks: subscriptions (list, show, create, update, delete), test events and their delivery log.
import { Command, Option } from 'commander';
import type { Webhook, WebhookDeliveryPage, WebhookEventType, WebhookInput, WebhookList } from './generated/types.gen.js';
import { admin, adminCommand, deleted, pageOptions, show, type OutputFlags } from './admin-command-base.js';
import { formatFields, formatPageLine, formatTable, formatTime } from './admin-output.js';
import { positiveInteger, recordId } from './cli-arguments.js';
import { EXIT } from './cli-exit-codes.js';
import { UsageError } from './cli-settings.js';

/** Every event a subscription can choose: keyed by the contract's enum, so an event added there does not compile until it is here. */
const EVENTS: Record<WebhookEventType, true> = {
  'report.stored': true,
  'host.regressed': true,
  'host.noncompliant': true,
  'host.compliant': true,
  'host.stale': true,
  'uploads.refused': true,
  'key.expiring': true,
  'host.identity_changed': true,
  'key.quota_reached': true,
  'policy.quarantined': true,
  'audit.event': true,
  'host.enrolled': true,
  'host.decommissioned': true,
  'host.reactivated': true,
  'host.merged': true,
  'host.deleted': true,
  'finding.opened': true,
  'finding.resolved': true,
  'finding.regressed': true,
  'finding.accepted': true,
  'finding.acceptance_expired': true,
  'digest.ready': true,
};
const EVENT_TYPES = Object.keys(EVENTS) as WebhookEventType[];

/** The delivery settings `webhooks create` and `webhooks update` both take. */
interface DeliveryFlags {
  description?: string | false;
  format?: 'standard' | 'slack';
  maxPerMinute?: number;
  staleDays?: number;
  regressionThreshold?: number;
}

/** The flags of `webhooks update`: each given one changes the subscription. */
interface WebhookUpdateFlags extends OutputFlags, DeliveryFlags {
  to?: string;
  event?: WebhookEventType[];
  enable?: boolean;
  disable?: boolean;
}

/** Adds the delivery settings' options, fresh for each command (commander keeps per-command state in them). */
function withDeliveryOptions(command: Command): Command {
  return command
    .option('--description <text>', 'what the subscription is for')
    .addOption(new Option('--format <format>', 'standard (default) or a Slack-compatible message').choices(['standard', 'slack']))
    .addOption(
      new Option('--max-per-minute <n>', 'most deliveries a minute; further events are folded into one summary (server default 60)').argParser(positiveInteger),
    )
    .addOption(new Option('--stale-days <n>', 'days without a report before host.stale is sent (server default 7)').argParser(positiveInteger))
    .addOption(
      new Option('--regression-threshold <n>', 'points the hardening index must drop for host.regressed (server default 5)').argParser(positiveInteger),
    );
}

/** The settings the flags give, as the contract names them; absent flags stay absent. */
function deliverySettings(flags: DeliveryFlags): Partial<WebhookInput> {
  const settings: Partial<WebhookInput> = {
    format: flags.format,
    maxDeliveriesPerMinute: flags.maxPerMinute,
    staleDays: flags.staleDays,
    regressionThreshold: flags.regressionThreshold,
    description: flags.description === false ? null : flags.description,
  };
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

/** `webhooks`: subscriptions and their delivery log. */
export function addWebhookCommands(program: Command): void {
  const webhooks = program.command('webhooks').description('signed webhooks (Standard Webhooks) and their delivery log');
  adminCommand(webhooks, 'list', 'list subscriptions with their pending and failed deliveries').action(
    admin<[OutputFlags]>(async (client, options) => show(options, await client.listWebhooks(), formatWebhooks)),
  );
  adminCommand(webhooks, 'show', 'show a subscription: its URL, events and settings (never its secret)')
    .argument('<webhook-id>', "the subscription's id, from webhooks list", recordId)
    .action(admin<[string, OutputFlags]>(async (client, webhookId, options) => show(options, await client.getWebhook(webhookId), formatWebhook)));
  withDeliveryOptions(
    adminCommand(webhooks, 'create', 'subscribe a URL to events; prints the signing secret, shown this once')
      .requiredOption('--to <url>', 'where to POST the events (https:// or http://)')
      .addOption(new Option('--event <type...>', 'the events to send').choices(EVENT_TYPES).makeOptionMandatory())
      .option('--disabled', 'create it disabled: nothing is sent until webhooks update --enable'),
  ).action(
    admin<[OutputFlags & DeliveryFlags & { to: string; event: WebhookEventType[]; disabled?: boolean }]>(async (client, options) => {
      const created = await client.createWebhook({
        url: options.to,
        events: options.event,
        ...deliverySettings(options),
        ...(options.disabled ? { enabled: false } : {}),
      });
      if (options.json) return show(options, created, () => '');
      process.stderr.write(`Created webhook ${created.webhook.id}; its signing secret, shown only now:\n`);
      process.stdout.write(`${created.secret}\n`);
      return EXIT.ok;
    }),
  );
  addWebhookUpdateCommand(webhooks);
  adminCommand(webhooks, 'delete', 'delete a subscription with its delivery log')
    .argument('<webhook-id>', "the subscription's id, from webhooks list", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, webhookId, options) => {
        await client.deleteWebhook(webhookId);
        return deleted(options, 'webhook', webhookId);
      }),
    );
  addDeliveryCommands(webhooks);
}

/** `webhooks update`: the subscription as it is, with what the flags change, saved in one request; the secret stays. */
function addWebhookUpdateCommand(webhooks: Command): void {
  withDeliveryOptions(
    adminCommand(webhooks, 'update', "change a subscription's URL, events or settings, or enable or disable it; what is not given stays, the secret too")
      .argument('<webhook-id>', "the subscription's id, from webhooks list", recordId)
      .option('--to <url>', 'a new URL to POST the events to')
      .addOption(new Option('--event <type...>', 'the events to send, replacing those it has').choices(EVENT_TYPES))
      .addOption(new Option('--enable', 'send deliveries again').conflicts('disable'))
      .option('--disable', 'send nothing until enabled again'),
  )
    .option('--no-description', 'remove the description')
    .action(
      admin<[string, WebhookUpdateFlags]>(async (client, webhookId, options) => {
        const changes: Partial<WebhookInput> = {
          ...deliverySettings(options),
          ...(options.to === undefined ? {} : { url: options.to }),
          ...(options.event === undefined ? {} : { events: options.event }),
          ...(options.enable ? { enabled: true } : options.disable ? { enabled: false } : {}),
        };
        if (Object.keys(changes).length === 0) throw new UsageError('nothing to change: give --to, --event, --format, --enable, --disable … (see --help)');
        const current = await client.getWebhook(webhookId);
        const updated = await client.updateWebhook(webhookId, { ...webhookInputOf(current), ...changes });
        return show(options, updated, (webhook) => `Updated webhook ${webhook.id} (${webhook.enabled ? 'enabled' : 'disabled'})\n`);
      }),
    );
}

/** `webhooks deliveries`, `webhooks test` and `webhooks redeliver`: the delivery log. */
function addDeliveryCommands(webhooks: Command): void {
  adminCommand(webhooks, 'deliveries', "show a subscription's delivery log, newest first")
    .argument('<webhook-id>', "the subscription's id", recordId)
    .addOption(new Option('--status <status>', 'only this status').choices(['pending', 'delivered', 'failed']))
    .addOption(pageOptions.limit())
    .addOption(pageOptions.offset())
    .action(
      admin<[string, OutputFlags & { status?: 'pending' | 'delivered' | 'failed'; limit?: number; offset?: number }]>(async (client, webhookId, options) =>
        show(
          options,
          await client.listWebhookDeliveries(webhookId, { status: options.status, limit: options.limit, offset: options.offset }),
          formatDeliveries,
        ),
      ),
    );
  adminCommand(webhooks, 'test', 'send a test event (webhook.test) to a subscription, even a disabled one, to check its receiver and signature check')
    .argument('<webhook-id>', "the subscription's id", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, webhookId, options) =>
        show(
          options,
          await client.sendTestWebhookEvent(webhookId),
          (delivery) => `Queued test event ${delivery.eventId} as delivery ${delivery.id}; see webhooks deliveries ${webhookId}\n`,
        ),
      ),
    );
  adminCommand(webhooks, 'redeliver', 'send a delivery again now')
    .argument('<webhook-id>', "the subscription's id", recordId)
    .argument('<delivery-id>', "the delivery's id, from webhooks deliveries", recordId)
    .action(
      admin<[string, string, OutputFlags]>(async (client, webhookId, deliveryId, options) =>
        show(options, await client.redeliverWebhookDelivery(webhookId, deliveryId), (delivery) => `Queued delivery ${delivery.id} again\n`),
      ),
    );
}

/** What the API takes to save a subscription unchanged: a stored one without its id, secret prefix, times and counts. */
function webhookInputOf(webhook: Webhook): WebhookInput {
  const { url, description, events, format, enabled, staleDays, regressionThreshold, maxDeliveriesPerMinute } = webhook;
  return { url, description, events, format, enabled, staleDays, regressionThreshold, maxDeliveriesPerMinute };
}

function formatWebhooks(list: WebhookList): string {
  if (list.items.length === 0) return 'No webhooks.\n';
  return formatTable(
    [
      ['ID', (w) => w.id],
      ['URL', (w) => w.url],
      ['EVENTS', (w) => w.events.join(',')],
      ['FORMAT', (w) => w.format ?? 'standard'],
      ['PER MINUTE', (w) => w.maxDeliveriesPerMinute ?? 60],
      ['PENDING', (w) => w.pending],
      ['FAILED', (w) => w.failed],
    ],
    list.items,
  );
}

/** `webhooks show`: the subscription's fields, one per line. */
function formatWebhook(webhook: Webhook): string {
  return formatFields([
    ['Webhook', webhook.id],
    ['URL', webhook.url],
    ['Description', webhook.description ?? null],
    ['Events', webhook.events.join(', ')],
    ['Format', webhook.format ?? 'standard'],
    ['Enabled', webhook.enabled === false ? 'no' : 'yes'],
    ['Stale days', webhook.staleDays ?? 7],
    ['Regression threshold', webhook.regressionThreshold ?? 5],
    ['Per minute', webhook.maxDeliveriesPerMinute ?? 60],
    ['Secret prefix', webhook.secretPrefix],
    ['Created', formatTime(webhook.createdAt)],
    ['Pending', webhook.pending],
    ['Failed', webhook.failed],
  ]);
}

function formatDeliveries(page: WebhookDeliveryPage): string {
  const table = formatTable(
    [
      ['ID', (d) => d.id],
      ['EVENT', (d) => d.eventType],
      ['HOST', (d) => d.hostname ?? d.hostRecordId],
      ['STATUS', (d) => d.status],
      ['ATTEMPTS', (d) => d.attempts],
      ['LAST', (d) => d.lastStatusCode ?? d.lastError],
      ['CREATED', (d) => formatTime(d.createdAt)],
    ],
    page.items,
  );
  return (page.items.length > 0 ? table : '') + formatPageLine(page, 'deliveries');
}
