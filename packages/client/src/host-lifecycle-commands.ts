// The `hosts` commands that change a host's life: decommission, reactivate, merge, bulk state changes and delete.
import { Command, Argument, Option } from 'commander';
import type { Host } from './generated/types.gen.js';
import { admin, adminCommand, deleted, show, type OutputFlags } from './admin-command-base.js';
import { hostStateText } from './admin-output.js';
import { recordId, recordIds } from './cli-arguments.js';
import { UsageError } from './cli-settings.js';
import { addHostFilterOptions, hostFilterQuery, type HostFilterFlags } from './host-filter-flags.js';

type StateAction = 'decommission' | 'reactivate';

/** The argument every command here takes first: the host, by its record id. */
const hostArgument = () => new Argument('<id>', "the host's id (the ID column of `hosts list`)").argParser(recordId);

/** Adds `decommission`, `reactivate`, `merge`, `bulk-state` and `delete` under `hosts`. */
export function addHostLifecycleCommands(hosts: Command): void {
  adminCommand(
    hosts,
    'decommission',
    'take a host out of every fleet figure and the default host list, keeping its reports; a new report makes it active again',
  )
    .addArgument(hostArgument())
    .action(admin<[string, OutputFlags]>(async (client, id, options) => show(options, await client.decommissionHost(id), stateChanged)));
  adminCommand(hosts, 'reactivate', 'count a decommissioned host again (active, or stale when its last report is old)')
    .addArgument(hostArgument())
    .action(admin<[string, OutputFlags]>(async (client, id, options) => show(options, await client.reactivateHost(id), stateChanged)));
  adminCommand(hosts, 'merge', "merge another host into this one (the same machine under a new hostid): the other's reports, history and waivers move here")
    .addArgument(hostArgument())
    .addArgument(new Argument('<other-id>', 'the host that moves into it and disappears').argParser(recordId))
    .action(
      admin<[string, string, OutputFlags]>(async (client, id, otherId, options) => {
        if (id === otherId) throw new UsageError('give two different hosts');
        return show(options, await client.mergeHosts(id, otherId), (host) => `Merged host ${otherId} into ${nameOf(host)} (${host.id}).\n`);
      }),
    );
  addBulkStateCommand(hosts);
  adminCommand(hosts, 'delete', 'delete a host and all its reports, findings, policy results and host waivers; cannot be undone')
    .addArgument(hostArgument())
    .option('--yes', 'really delete it (required: nothing is deleted without it)')
    .action(
      admin<[string, OutputFlags & { yes?: boolean }]>(async (client, id, options) => {
        if (!options.yes) throw new UsageError(`this deletes host ${id} and all its reports for good; add --yes to do it`);
        await client.deleteHost(id);
        return deleted(options, 'host', id);
      }),
    );
}

/** `hosts bulk-state decommission|reactivate`: the hosts selected by --ids or by the host list's filters. */
function addBulkStateCommand(hosts: Command): void {
  const bulk = adminCommand(
    hosts,
    'bulk-state',
    "decommission or reactivate each host selected, by --ids or by the host list's filters (reactivating by filters needs --state decommissioned or all); at most 10,000 hosts",
  )
    .addArgument(new Argument('<action>', 'what to do with them').choices(['decommission', 'reactivate']))
    .addOption(new Option('--ids <ids>', 'the hosts, as their ids (Host.id) separated by commas').argParser(recordIds));
  addHostFilterOptions(bulk, { sorted: false }).action(
    admin<[StateAction, OutputFlags & HostFilterFlags & { ids?: string[] }]>(async (client, action, options) => {
      const filters = hostFilterQuery(options);
      const filtered = Object.keys(filters).length > 0;
      if (options.ids !== undefined && filtered) throw new UsageError('give either --ids or filters, not both');
      if (options.ids === undefined && !filtered)
        throw new UsageError('select hosts with --ids or with filters of the host list (--group, --state, --stale-days, …)');
      const result = await client.changeHostStates({ action, hosts: options.ids !== undefined ? { ids: options.ids } : { filters } });
      return show(options, result, ({ changed, hosts: selected }) => `${stateChangesText(action, changed, selected)}\n`);
    }),
  );
}

/** A host's name, or its id when it has none. */
const nameOf = (host: Pick<Host, 'hostname' | 'id'>) => host.hostname ?? host.id;

/** What a decommission or reactivation left the host as. */
export const stateChanged = (host: Host): string => `Host ${nameOf(host)} (${host.id}) is ${hostStateText(host)}.\n`;

/** "2 of 3 hosts decommissioned": the others were in that state already. */
export function stateChangesText(action: StateAction, changed: number, hosts: number): string {
  const done = action === 'decommission' ? 'decommissioned' : 'reactivated';
  const others = changed < hosts ? (action === 'decommission' ? '; the others were decommissioned already' : '; the others were not decommissioned') : '';
  return `${changed} of ${hosts} host${hosts === 1 ? '' : 's'} ${done}${others}`;
}
