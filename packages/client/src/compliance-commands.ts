// The admin commands of compliance and alerts: policies (policy-commands.ts), waivers (waiver-commands.ts),
// webhooks (webhook-commands.ts), and exports.
import { writeFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { admin } from './admin-command-base.js';
import { recordId } from './cli-arguments.js';
import { EXIT } from './cli-exit-codes.js';
import { UsageError } from './cli-settings.js';
import { addHostFilterOptions, hostFilterQuery, type HostFilterFlags } from './host-filter-flags.js';
import { addPolicyCommands } from './policy-commands.js';
import { addWaiverCommands } from './waiver-commands.js';
import { addWebhookCommands } from './webhook-commands.js';

/** Adds `policies`, `compliance`, `waivers`, `webhooks` and `export` to `audit-client`. */
export function addComplianceCommands(program: Command): void {
  addPolicyCommands(program);
  addWaiverCommands(program);
  addWebhookCommands(program);
  addExportCommand(program);
}

/** `export`: hosts or findings (of the hosts the host list's filters select) or one host's history, as CSV or JSON. */
function addExportCommand(program: Command): void {
  addHostFilterOptions(
    program
      .command('export')
      .description("export hosts (with compliance), findings, or one host's history, as CSV or JSON; hosts and findings take the host list's filters")
      .argument('<what>', 'hosts, findings, or history')
      .argument('[host-id]', "with history: the host's id (Host.id)", recordId)
      .addOption(new Option('--format <format>', 'csv (default) or json').choices(['csv', 'json']).default('csv'))
      .option('--output <file>', 'write to this file instead of stdout'),
  ).action(
    admin<[string, string | undefined, HostFilterFlags & { format: 'csv' | 'json'; output?: string }]>(async (client, what, hostId, options) => {
      const target =
        what === 'hosts'
          ? { hosts: true as const }
          : what === 'findings'
            ? { findings: true as const }
            : what === 'history' && hostId
              ? { hostHistory: hostId }
              : undefined;
      if (!target) throw new UsageError('export hosts, export findings, or export history <host-id>');
      const filters = hostFilterQuery(options);
      if ('hostHistory' in target && Object.keys(filters).length > 0) throw new UsageError('export history takes no host filters');
      if ('findings' in target && (filters.sort || filters.order)) throw new UsageError('--sort and --order order export hosts only');
      const text = await client.exportText(target, options.format, filters);
      if (options.output) await writeFile(options.output, text);
      else process.stdout.write(text);
      return EXIT.ok;
    }),
  );
}
