// The `waivers` commands: accepted exceptions to compliance rules, for a host, a group, every host, or many hosts.
import { Command, Option } from 'commander';
import type { Waiver, WaiverList } from './generated/types.gen.js';
import { admin, adminCommand, deleted, show, type OutputFlags } from './admin-command-base.js';
import { formatTable, formatTime } from './admin-output.js';
import { dateTime, positiveInteger, recordId, recordIds } from './cli-arguments.js';
import { UsageError } from './cli-settings.js';
import { addHostFilterOptions, hostFilterQuery, type HostFilterFlags } from './host-filter-flags.js';

const DAY_MS = 86_400_000;
/** How long a waiver runs when neither --expires nor --days says. */
const DEFAULT_DAYS = 90;
/** Waivers that end this soon are marked in the list. */
const SOON_DAYS = 14;

/** When a waiver ends, and how long it runs. */
interface ExpiryFlags {
  expires?: string;
  days?: number;
}

/** `waivers`: waive a rule or policy for a host, a group, every host, or many hosts until a date. */
export function addWaiverCommands(program: Command): void {
  const waivers = program.command('waivers').description('waive a rule or policy for a host, a group, every host or many hosts until a date');
  adminCommand(waivers, 'list', 'list waivers that have not expired, soonest expiry first; those ending within 14 days are marked')
    .addOption(new Option('--policy <id>', 'only waivers of this policy').argParser(recordId))
    .option('--include-expired', 'expired waivers too')
    .action(
      admin<[OutputFlags & { policy?: string; includeExpired?: boolean }]>(async (client, options) =>
        show(options, await client.listWaivers({ policyId: options.policy, includeExpired: options.includeExpired }), (list) =>
          formatWaivers(list, new Date()),
        ),
      ),
    );
  withExpiry(
    adminCommand(waivers, 'create', 'waive a rule (or every rule) of a policy for a host, a group or every host (exactly one of --host, --group, --fleet)')
      .addOption(new Option('--policy <id>', "the policy's id").argParser(recordId).makeOptionMandatory())
      .option('--rule <id>', 'the rule; every rule of the policy when left out')
      .addOption(new Option('--host <id>', "the host's id (Host.id), not its hostid").argParser(recordId))
      .option('--group <name>', 'the hosts whose latest report names this group (system-groups=; any case)')
      .option('--fleet', 'every host the policy covers')
      .requiredOption('--reason <text>', 'why, for the auditors'),
  ).action(
    admin<[OutputFlags & ExpiryFlags & { policy: string; rule?: string; host?: string; group?: string; fleet?: boolean; reason: string }]>(
      async (client, options) => {
        if ([options.host, options.group, options.fleet].filter(Boolean).length !== 1) throw new UsageError('give exactly one of --host, --group and --fleet');
        const waiver = await client.createWaiver({
          policyId: options.policy,
          ruleId: options.rule,
          hostRecordId: options.host,
          group: options.group,
          reason: options.reason,
          expiresAt: expiresAtOf(options),
        });
        return show(options, waiver, (created) => `Created waiver ${created.id} for ${coverageOf(created)}, until ${formatTime(created.expiresAt)}\n`);
      },
    ),
  );
  addBulkCommand(waivers);
  adminCommand(waivers, 'delete', 'delete a waiver: the results it covered count as failures or errors again')
    .argument('<waiver-id>', "the waiver's id, from waivers list", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, waiverId, options) => {
        await client.deleteWaiver(waiverId);
        return deleted(options, 'waiver', waiverId);
      }),
    );
}

/** `waivers bulk`: one waiver per host selected, by ids or by the host list's filters. */
function addBulkCommand(waivers: Command): void {
  const bulk = adminCommand(
    waivers,
    'bulk',
    "waive a rule (or every rule) for each host selected, by --ids or by the host list's filters; all or none, at most 10,000 hosts",
  )
    .addOption(new Option('--policy <id>', "the policy's id").argParser(recordId).makeOptionMandatory())
    .option('--rule <id>', 'the rule; every rule of the policy when left out')
    .requiredOption('--reason <text>', 'why, for the auditors')
    .addOption(new Option('--ids <ids>', 'the hosts, as their ids (Host.id) separated by commas').argParser(recordIds));
  withExpiry(addHostFilterOptions(bulk, { sorted: false })).action(
    admin<[OutputFlags & ExpiryFlags & HostFilterFlags & { policy: string; rule?: string; reason: string; ids?: string[] }]>(async (client, options) => {
      const filters = hostFilterQuery(options);
      const filtered = Object.keys(filters).length > 0;
      if (options.ids !== undefined && filtered) throw new UsageError('give either --ids or filters, not both');
      if (options.ids === undefined && !filtered)
        throw new UsageError('select hosts with --ids or with filters of the host list (--group, --compliance, --failing-rule, …)');
      const result = await client.createWaivers({
        policyId: options.policy,
        ruleId: options.rule,
        reason: options.reason,
        expiresAt: expiresAtOf(options),
        hosts: options.ids !== undefined ? { ids: options.ids } : { filters },
      });
      return show(options, result, ({ created, hosts }) => `Created ${created} waiver${created === 1 ? '' : 's'} for ${hosts} host${hosts === 1 ? '' : 's'}\n`);
    }),
  );
}

/** Adds `--expires` and `--days` (one or the other; 90 days when neither). */
function withExpiry(command: Command): Command {
  return command
    .addOption(new Option('--expires <when>', 'when it ends: a date (midnight UTC) or date and time').argParser(dateTime).conflicts('days'))
    .addOption(
      new Option('--days <n>', `how many days it runs from now (default ${DEFAULT_DAYS}; the server allows at most its maxDays)`).argParser(positiveInteger),
    );
}

/** The expiry the flags ask for. */
export function expiresAtOf({ expires, days }: ExpiryFlags, now = new Date()): string {
  return expires ?? new Date(now.getTime() + (days ?? DEFAULT_DAYS) * DAY_MS).toISOString();
}

/** Who a waiver covers, by name. */
export function coverageOf(waiver: Waiver): string {
  if (waiver.hostRecordId) return waiver.hostname ?? waiver.hostRecordId;
  return waiver.group ? `group ${waiver.group}` : 'every host';
}

/** The waivers as a table: policy name, rule, what each covers by name, creator and expiry, those ending soon marked. */
export function formatWaivers(list: WaiverList, now: Date): string {
  const soon = (waiver: Waiver) => {
    const left = Date.parse(waiver.expiresAt) - now.getTime();
    return left > 0 && left <= SOON_DAYS * DAY_MS;
  };
  return (
    formatTable(
      [
        ['ID', (w) => w.id],
        ['POLICY', (w) => w.policyName ?? w.policyId],
        ['RULE', (w) => w.ruleId ?? 'every rule'],
        ['COVERS', coverageOf],
        ['CREATED BY', (w) => w.createdBy],
        ['EXPIRES', (w) => `${formatTime(w.expiresAt)}${soon(w) ? ' (soon)' : ''}`],
        ['REASON', (w) => w.reason],
      ],
      list.items,
    ) + `Waivers run for at most ${list.maxDays} days on this server.\n`
  );
}
