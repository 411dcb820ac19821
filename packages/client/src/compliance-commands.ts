// The admin commands of compliance and alerts: policies (policy-commands.ts), waivers, webhooks
// (webhook-commands.ts), and exports.
import { writeFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { admin, adminCommand, deleted, show, type OutputFlags } from './admin-command-base.js';
import { formatTable, formatTime } from './admin-output.js';
import { dateTime, recordId } from './cli-arguments.js';
import { EXIT } from './cli-exit-codes.js';
import { UsageError } from './cli-settings.js';
import { addPolicyCommands } from './policy-commands.js';
import { addWebhookCommands } from './webhook-commands.js';

/** Adds `policies`, `compliance`, `waivers`, `webhooks` and `export` to `audit-client`. */
export function addComplianceCommands(program: Command): void {
  addPolicyCommands(program);
  addWaiverCommands(program);
  addWebhookCommands(program);
  addExportCommand(program);
}

/** `waivers`: waive a rule or policy for a host or group until a date. */
function addWaiverCommands(program: Command): void {
  const waivers = program.command('waivers').description('waive a rule or policy for a host or group until a date');
  adminCommand(waivers, 'list', 'list waivers that have not expired, soonest expiry first')
    .addOption(new Option('--policy <id>', 'only waivers of this policy').argParser(recordId))
    .option('--include-expired', 'expired waivers too')
    .action(
      admin<[OutputFlags & { policy?: string; includeExpired?: boolean }]>(async (client, options) =>
        show(options, await client.listWaivers({ policyId: options.policy, includeExpired: options.includeExpired }), (list) =>
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
    .addOption(new Option('--policy <id>', "the policy's id").argParser(recordId).makeOptionMandatory())
    .option('--rule <id>', 'the rule; every rule of the policy when left out')
    .addOption(new Option('--host <id>', "the host's id (Host.id), not its hostid").argParser(recordId))
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
  adminCommand(waivers, 'delete', 'delete a waiver: the results it covered count as failures or errors again')
    .argument('<waiver-id>', "the waiver's id, from waivers list", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, waiverId, options) => {
        await client.deleteWaiver(waiverId);
        return deleted(options, 'waiver', waiverId);
      }),
    );
}

/** `export`: hosts, findings or one host's history as CSV or JSON. */
function addExportCommand(program: Command): void {
  program
    .command('export')
    .description("export hosts (with compliance), findings, or one host's history, as CSV or JSON")
    .argument('<what>', 'hosts, findings, or history')
    .argument('[host-id]', "with history: the host's id (Host.id)", recordId)
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
