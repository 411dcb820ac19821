// `audit-client export finding-states`: the fleet's findings with their lifecycle, as CSV or JSON Lines. It shares
// `export` with the host exports, so `--state` and `--format` are read here for both: host lifecycle states and
// csv|json for hosts, finding states and csv|jsonl for findings with their lifecycle.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { AdminClient, FindingStatesExportQuery } from './admin-client.js';
import { UsageError } from './cli-settings.js';
import { findingStates, KINDS } from './finding-commands.js';
import { HOST_STATES, hostFilterQuery, type HostFilterFlags } from './host-filter-flags.js';

/** What `export` names with `finding-states`. */
export const FINDING_STATES_EXPORT = 'finding-states';

/** The flags of `export`: the host filters, and what `finding-states` takes besides. */
export type ExportFlags = Omit<HostFilterFlags, 'state'> & {
  state?: string;
  kind?: 'warning' | 'suggestion';
  testId?: string;
  format: 'csv' | 'json' | 'jsonl';
  output?: string;
};

/** Adds `--state`, `--kind`, `--test-id` and `--format` to `export`, read by {@link findingStatesExport} or {@link hostExportFlags}. */
export function addExportStateAndFormatOptions(command: Command): Command {
  return command
    .option(
      '--state <state>',
      `hosts and findings: only hosts in this lifecycle state (${HOST_STATES.join(', ')}; default current); ` +
        'finding-states: only findings in these states, comma-separated (open, acknowledged, accepted, resolved, regressed)',
    )
    .addOption(new Option('--kind <kind>', 'finding-states: only warnings or only suggestions').choices(KINDS))
    .option('--test-id <id>', 'finding-states: only this test id, e.g. SSH-7408')
    .addOption(
      new Option('--format <format>', 'csv (default); json for hosts, findings and history; jsonl for finding-states')
        .choices(['csv', 'json', 'jsonl'])
        .default('csv'),
    );
}

/** `export finding-states`: takes `--state`, `--group`, `--kind` and `--test-id`; the host filters belong to the host exports. */
export async function findingStatesExport(client: AdminClient, hostId: string | undefined, flags: ExportFlags): Promise<string> {
  const { state, group, kind, testId, format, output: _output, ...hostFlags } = flags;
  if (hostId !== undefined) throw new UsageError('export finding-states takes no host id');
  if (Object.keys(hostFilterQuery(hostFlags)).length > 0)
    throw new UsageError('export finding-states takes --state, --group, --kind and --test-id, not the host filters');
  if (format === 'json') throw new UsageError('export finding-states writes csv or jsonl');
  return client.exportFindingStates({ state: state === undefined ? undefined : statesOf(state), group, kind, testId, format });
}

/** The host exports' flags, checked: a host lifecycle state, csv or json, and no finding-states flags. */
export function hostExportFlags(flags: ExportFlags): HostFilterFlags & { format: 'csv' | 'json' } {
  const { state, kind, testId, format, ...hostFlags } = flags;
  if (kind !== undefined || testId !== undefined)
    throw new UsageError('--kind and --test-id filter export finding-states; the host exports take --finding and --finding-kind');
  if (format === 'jsonl') throw new UsageError('jsonl is the format of export finding-states; the host exports write csv or json');
  const hostState = HOST_STATES.find((known) => known === state);
  if (state !== undefined && !hostState) throw new UsageError(`--state of hosts must be one of ${HOST_STATES.join(', ')}`);
  return { ...hostFlags, state: hostState, format };
}

function statesOf(value: string): FindingStatesExportQuery['state'] {
  try {
    return findingStates(value);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new UsageError(`--state ${error.message}`);
    throw error;
  }
}
