// The admin commands of compliance and alerts: policies (policy-commands.ts), waivers (waiver-commands.ts),
// webhooks (webhook-commands.ts), and exports.
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { AdminClient } from './admin-client.js';
import { admin } from './admin-command-base.js';
import { recordId } from './cli-arguments.js';
import { EXIT } from './cli-exit-codes.js';
import { addExportStateAndFormatOptions, FINDING_STATES_EXPORT, findingStatesExport, hostExportFlags, type ExportFlags } from './finding-export-command.js';
import { UsageError } from './cli-settings.js';
import { addHistoryOptions, COMPLIANCE_HISTORY_EXPORT, complianceHistoryExport, refuseHistoryFlags, type HistoryFlags } from './compliance-history-command.js';
import { addHostFilterOptions, hostFilterQuery } from './host-filter-flags.js';
import { addPolicyCommands } from './policy-commands.js';
import { asOfOption } from './as-of-flag.js';
import { addWaiverCommands } from './waiver-commands.js';
import { addWebhookCommands } from './webhook-commands.js';

/** Adds `policies`, `compliance`, `waivers`, `webhooks` and `export` to `audit-client`. */
export function addComplianceCommands(program: Command): void {
  addPolicyCommands(program);
  addWaiverCommands(program);
  addWebhookCommands(program);
  addExportCommand(program);
}

/**
 * `export`: hosts or findings (of the hosts the host list's filters select) or one host's history, as CSV or JSON;
 * or the findings with their lifecycle (`finding-states`), or the fleet's compliance over time (`compliance-history`),
 * as CSV or JSON Lines.
 */
function addExportCommand(program: Command): void {
  addHistoryOptions(
    addExportStateAndFormatOptions(
      addHostFilterOptions(
        program
          .command('export')
          .description(
            "export hosts (with compliance), findings, or one host's history, as CSV or JSON, hosts and findings with the host list's filters; " +
              'or finding-states (the findings with their lifecycle) or compliance-history (compliance and open findings per day or week), as CSV or JSON Lines',
          )
          .argument('<what>', 'hosts, findings, history, finding-states, or compliance-history')
          .argument('[host-id]', "with history: the host's id (Host.id)", recordId),
        { state: false },
      ),
    ),
    { forExport: true },
  )
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .addOption(asOfOption())
    .action(
      admin<[string, string | undefined, ExportFlags & HistoryFlags & { at?: string }]>(async (client, what, hostId, { at, ...options }) => {
        if (at !== undefined && what !== 'hosts') throw new UsageError('--at goes with export hosts only');
        const text =
          what === COMPLIANCE_HISTORY_EXPORT ? await complianceHistoryExport(client, hostId, options) : await otherExport(client, what, hostId, options, at);
        if (options.output) await writeFile(options.output, text);
        else process.stdout.write(text);
        return EXIT.ok;
      }),
    );
}

/** The exports other than the compliance history, which take none of its flags but `--group`. */
async function otherExport(client: AdminClient, what: string, hostId: string | undefined, flags: ExportFlags & HistoryFlags, at?: string): Promise<string> {
  const { from, to, interval, policy, customer, ...exportFlags } = flags;
  refuseHistoryFlags({ from, to, interval, policy, customer });
  return what === FINDING_STATES_EXPORT ? findingStatesExport(client, hostId, exportFlags) : hostExport(client, what, hostId, exportFlags, at);
}

/** `export hosts` (as of `at` when given), `export findings` or `export history <host-id>`. */
async function hostExport(client: AdminClient, what: string, hostId: string | undefined, flags: ExportFlags, at?: string): Promise<string> {
  const target =
    what === 'hosts'
      ? { hosts: true as const }
      : what === 'findings'
        ? { findings: true as const }
        : what === 'history' && hostId
          ? { hostHistory: hostId }
          : undefined;
  if (!target) throw new UsageError('export hosts, export findings, export history <host-id>, export finding-states, or export compliance-history');
  const { format, ...hostFlags } = hostExportFlags(flags);
  const filters = hostFilterQuery(hostFlags);
  if ('hostHistory' in target && Object.keys(filters).length > 0) throw new UsageError('export history takes no host filters');
  if ('findings' in target && (filters.sort || filters.order)) throw new UsageError('--sort and --order order export hosts only');
  return client.exportText(target, format, at === undefined ? filters : { ...filters, at });
}
