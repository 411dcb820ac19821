// The admin commands of compliance and alerts: policies and their results, waivers, webhooks, and exports.
import { readFile, writeFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import type { PolicyInput, PolicyList, PolicyResultPage, WebhookDeliveryPage, WebhookEventType, WebhookList } from './generated/types.gen.js';
import { admin, adminCommand, pageOptions, show, type OutputFlags } from './admin-command-base.js';
import { formatPageLine, formatTable, formatTime } from './admin-output.js';
import { dateTime, positiveInteger } from './cli-arguments.js';
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
};
const EVENT_TYPES = Object.keys(EVENTS) as WebhookEventType[];

/** Adds `policies`, `waivers`, `webhooks` and `export` to `audit-client`. */
export function addComplianceCommands(program: Command): void {
  const policies = program.command('policies').description("compliance policies: CEL rules evaluated on every host's latest report");
  adminCommand(policies, 'list', 'list policies with how many hosts pass, fail, err or are waived').action(
    admin<[OutputFlags]>(async (client, options) => show(options, await client.listPolicies(), formatPolicies)),
  );
  adminCommand(
    policies,
    'create',
    'create a policy from a JSON file ({"name", "scope", "rules": [{"id", "expression"}]}); invalid rules are named with the position of their error',
  )
    .requiredOption('--file <path>', 'the policy as JSON')
    .action(
      admin<[OutputFlags & { file: string }]>(async (client, options) => {
        const policy = JSON.parse(await readFile(options.file, 'utf8')) as PolicyInput;
        return show(options, await client.createPolicy(policy), (created) => `Created policy ${created.name} (${created.id})\n`);
      }),
    );
  adminCommand(
    policies,
    'enable-baseline',
    'create the shipped Baseline policy (hardening index >= 60, no vulnerable packages, no warnings, audited within 7 days)',
  ).action(
    admin<[OutputFlags]>(async (client, options) =>
      show(options, await client.enableBaselinePolicy(), (created) => `Created policy ${created.name} (${created.id})\n`),
    ),
  );
  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    adminCommand(policies, name, enabled ? 'enable a policy (clears its quarantine)' : 'disable a policy (kept, not evaluated)')
      .argument('<policy-id>', "the policy's id, from policies list")
      .action(
        admin<[string, OutputFlags]>(async (client, policyId, options) => {
          const { name: policyName, description, scope, rules } = await client.getPolicy(policyId);
          const input: PolicyInput = {
            name: policyName,
            description,
            enabled,
            scope,
            rules: rules.map(({ id, description: text, expression }) => ({ id, description: text, expression })),
          };
          return show(
            options,
            await client.updatePolicy(policyId, input),
            (policy) => `${enabled ? 'Enabled' : 'Disabled'} policy ${policy.name} (${policy.id})\n`,
          );
        }),
      );
  }
  adminCommand(policies, 'delete', 'delete a policy with its results and waivers')
    .argument('<policy-id>', "the policy's id, from policies list")
    .action(
      admin<[string]>(async (client, policyId) => {
        await client.deletePolicy(policyId);
        process.stderr.write(`Deleted policy ${policyId}\n`);
        return EXIT.ok;
      }),
    );
  adminCommand(policies, 'results', "list each host's result on a policy's rules, failures first")
    .argument('<policy-id>', "the policy's id, from policies list")
    .option('--rule <id>', 'only this rule')
    .addOption(new Option('--status <status>', 'only this status').choices(['pass', 'fail', 'error', 'waived']))
    .addOption(pageOptions.limit())
    .addOption(pageOptions.offset())
    .action(
      admin<[string, OutputFlags & { rule?: string; status?: 'pass' | 'fail' | 'error' | 'waived'; limit?: number; offset?: number }]>(
        async (client, policyId, options) =>
          show(
            options,
            await client.listPolicyResults(policyId, { ruleId: options.rule, status: options.status, limit: options.limit, offset: options.offset }),
            formatResults,
          ),
      ),
    );
  addWaiverCommands(program);
  addWebhookCommands(program);
  addExportCommand(program);
}

/** `waivers`: waive a rule or policy for a host or group until a date. */
function addWaiverCommands(program: Command): void {
  const waivers = program.command('waivers').description('waive a rule or policy for a host or group until a date');
  adminCommand(waivers, 'list', 'list waivers that have not expired')
    .option('--policy <id>', 'only waivers of this policy')
    .action(
      admin<[OutputFlags & { policy?: string }]>(async (client, options) =>
        show(options, await client.listWaivers({ policyId: options.policy }), (list) =>
          formatTable(
            [
              ['ID', (w) => w.id],
              ['POLICY', (w) => w.policyId],
              ['RULE', (w) => w.ruleId ?? 'every rule'],
              ['FOR', (w) => w.hostRecordId ?? `group ${w.group}`],
              ['EXPIRES', (w) => formatTime(w.expiresAt)],
              ['REASON', (w) => w.reason],
            ],
            list.items,
          ),
        ),
      ),
    );
  adminCommand(waivers, 'create', 'waive a rule (or every rule) of a policy for a host or a group')
    .requiredOption('--policy <id>', "the policy's id")
    .option('--rule <id>', 'the rule; every rule of the policy when left out')
    .option('--host <id>', "the host's id (Host.id), not its hostid")
    .option('--group <name>', 'a group of the Lynis profile (system-groups=)')
    .requiredOption('--reason <text>', 'why, for the auditors')
    .addOption(new Option('--expires <when>', 'a date (midnight UTC) or date and time').argParser(dateTime).makeOptionMandatory())
    .action(
      admin<[OutputFlags & { policy: string; rule?: string; host?: string; group?: string; reason: string; expires: string }]>(async (client, options) => {
        if (Boolean(options.host) === Boolean(options.group)) throw new UsageError('give exactly one of --host and --group');
        const waiver = await client.createWaiver({
          policyId: options.policy,
          ruleId: options.rule,
          hostRecordId: options.host,
          group: options.group,
          reason: options.reason,
          expiresAt: options.expires,
        });
        return show(options, waiver, (created) => `Created waiver ${created.id}, until ${formatTime(created.expiresAt)}\n`);
      }),
    );
}

/** `webhooks`: subscriptions and their delivery log. */
function addWebhookCommands(program: Command): void {
  const webhooks = program.command('webhooks').description('signed webhooks (Standard Webhooks) and their delivery log');
  adminCommand(webhooks, 'list', 'list subscriptions with their pending and failed deliveries').action(
    admin<[OutputFlags]>(async (client, options) => show(options, await client.listWebhooks(), formatWebhooks)),
  );
  adminCommand(webhooks, 'create', 'subscribe a URL to events; prints the signing secret, shown this once')
    .requiredOption('--to <url>', 'where to POST the events (https:// or http://)')
    .addOption(new Option('--event <type...>', 'the events to send').choices(EVENT_TYPES).makeOptionMandatory())
    .addOption(new Option('--format <format>', 'standard (default) or a Slack-compatible message').choices(['standard', 'slack']))
    .addOption(
      new Option('--max-per-minute <n>', 'most deliveries a minute; further events are folded into one summary (server default 60)').argParser(positiveInteger),
    )
    .action(
      admin<[OutputFlags & { to: string; event: WebhookEventType[]; format?: 'standard' | 'slack'; maxPerMinute?: number }]>(async (client, options) => {
        const created = await client.createWebhook({
          url: options.to,
          events: options.event,
          format: options.format,
          maxDeliveriesPerMinute: options.maxPerMinute,
        });
        if (options.json) return show(options, created, () => '');
        process.stderr.write(`Created webhook ${created.webhook.id}; its signing secret, shown only now:\n`);
        process.stdout.write(`${created.secret}\n`);
        return EXIT.ok;
      }),
    );
  adminCommand(webhooks, 'deliveries', "show a subscription's delivery log, newest first")
    .argument('<webhook-id>', "the subscription's id")
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
  adminCommand(webhooks, 'redeliver', 'send a delivery again now')
    .argument('<webhook-id>', "the subscription's id")
    .argument('<delivery-id>', "the delivery's id, from webhooks deliveries")
    .action(
      admin<[string, string, OutputFlags]>(async (client, webhookId, deliveryId, options) =>
        show(options, await client.redeliverWebhookDelivery(webhookId, deliveryId), (delivery) => `Queued delivery ${delivery.id} again\n`),
      ),
    );
}

/** `export`: hosts, findings or one host's history as CSV or JSON. */
function addExportCommand(program: Command): void {
  program
    .command('export')
    .description("export hosts (with compliance), findings, or one host's history, as CSV or JSON")
    .argument('<what>', 'hosts, findings, or history')
    .argument('[host-id]', "with history: the host's id (Host.id)")
    .addOption(new Option('--format <format>', 'csv (default) or json').choices(['csv', 'json']).default('csv'))
    .option('--output <file>', 'write to this file instead of stdout')
    .action(
      admin<[string, string | undefined, { format: 'csv' | 'json'; output?: string }]>(async (client, what, hostId, options) => {
        const target =
          what === 'hosts'
            ? { hosts: true as const }
            : what === 'findings'
              ? { findings: true as const }
              : what === 'history' && hostId
                ? { hostHistory: hostId }
                : undefined;
        if (!target) throw new UsageError('export hosts, export findings, or export history <host-id>');
        const text = await client.exportText(target, options.format);
        if (options.output) await writeFile(options.output, text);
        else process.stdout.write(text);
        return EXIT.ok;
      }),
    );
}

function formatPolicies(list: PolicyList): string {
  if (list.items.length === 0) return 'No policies. Create one, or: audit-client policies enable-baseline\n';
  return formatTable(
    [
      ['ID', (p) => p.id],
      ['NAME', (p) => p.name],
      ['ENABLED', (p) => (p.enabled ? 'yes' : 'no')],
      ['RULES', (p) => p.rules.length],
      ['PASS', (p) => p.hosts.pass],
      ['FAIL', (p) => p.hosts.fail],
      ['ERROR', (p) => p.hosts.error],
      ['WAIVED', (p) => p.hosts.waived],
      ['QUARANTINED', (p) => (p.quarantine ? `${formatTime(p.quarantine.at)} ${p.quarantine.reason}` : '-')],
    ],
    list.items,
  );
}

function formatResults(page: PolicyResultPage): string {
  const table = formatTable(
    [
      ['HOST', (r) => r.hostname ?? r.hostId],
      ['RULE', (r) => r.ruleId],
      ['STATUS', (r) => r.status],
      ['VALUE', (r) => r.value],
      ['SINCE', (r) => formatTime(r.since)],
      ['MESSAGE', (r) => r.message],
    ],
    page.items,
  );
  return (page.items.length > 0 ? table : '') + formatPageLine(page, 'results');
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

function formatDeliveries(page: WebhookDeliveryPage): string {
  const table = formatTable(
    [
      ['ID', (d) => d.id],
      ['EVENT', (d) => d.eventType],
      ['STATUS', (d) => d.status],
      ['ATTEMPTS', (d) => d.attempts],
      ['LAST', (d) => d.lastStatusCode ?? d.lastError],
      ['CREATED', (d) => formatTime(d.createdAt)],
    ],
    page.items,
  );
  return (page.items.length > 0 ? table : '') + formatPageLine(page, 'deliveries');
}
