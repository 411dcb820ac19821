// The host list's filters as command-line flags, shared by `hosts` and `export hosts|findings`.
import { Command, InvalidArgumentError, Option } from 'commander';
import type { HostFilters } from './admin-client.js';
import { dateTime, positiveInteger, recordId } from './cli-arguments.js';
import { UsageError } from './cli-settings.js';

/** The filters and order the flags set (`ids` is for selections, not typed on a command line). */
export type HostFilterQuery = Omit<HostFilters, 'ids'>;

/** The values the flags of {@link addHostFilterOptions} give commander. */
export interface HostFilterFlags {
  hostname?: string;
  key?: string;
  keyId?: string;
  hostId?: string;
  group?: string;
  tag?: string;
  os?: string;
  finding?: string;
  findingKind?: 'warning' | 'suggestion';
  staleDays?: number;
  seenBefore?: string;
  compliance?: HostFilterQuery['compliance'];
  failingPolicy?: string;
  failingRule?: string;
  state?: HostFilterQuery['state'];
  sort?: HostFilterQuery['sort'];
  order?: HostFilterQuery['order'];
}

const COMPLIANCE = ['compliant', 'noncompliant', 'waived', 'unknown'] as const;
/** The contract's `HostStateFilter`: `current` (the server's default) leaves decommissioned hosts out. */
export const HOST_STATES = ['current', 'active', 'stale', 'decommissioned', 'all'] as const;
const SORTS = ['lastSeen', 'hostname', 'hardeningIndex', 'warnings', 'compliance'] as const;
/** The contract's `RuleId`. */
const RULE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** The contract's `Id`, checked here for `--key` (see {@link hostFilterQuery}). */
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;

/** Parses a rule id (`--failing-rule`), refused before anything is sent when it cannot be one. */
const ruleId = (value: string) => {
  if (RULE_ID_PATTERN.test(value)) return value;
  throw new InvalidArgumentError('must be a rule id: lowercase letters, digits and "-", starting with a letter or digit, e.g. hardening-index');
};

/**
 * Adds the host list's filter flags to `command`; `sorted` adds `--sort` and `--order` too; without `state`, the
 * command gives `--state` a meaning of its own.
 */
export function addHostFilterOptions(command: Command, { sorted = true, state = true } = {}): Command {
  command
    .option('--hostname <text>', 'only hosts whose host name contains this text (case-insensitive)')
    .addOption(new Option('--key <id>', 'only hosts that upload with this license key (its id, the ID column of `keys list`)').conflicts('keyId'))
    .addOption(new Option('--key-id <id>', 'the same as --key').hideHelp())
    .option('--host-id <hostid>', 'only hosts with this hostid')
    .option('--group <name>', 'only hosts whose latest report lists this group (system-groups= in the Lynis profile; case-insensitive)')
    .option('--tag <name>', 'only hosts whose latest report lists this tag (tags= in the Lynis profile; case-insensitive)')
    .option('--os <name>', 'only hosts with this operating system, as the OS column shows it (case-insensitive)')
    .option('--finding <test-id>', 'only hosts whose latest report has a warning or suggestion with this test id, e.g. PKGS-7392')
    .addOption(new Option('--finding-kind <kind>', 'with --finding: only warnings or only suggestions').choices(['warning', 'suggestion']))
    .addOption(new Option('--stale-days <n>', 'only hosts without a report for this many days').argParser(positiveInteger).conflicts('seenBefore'))
    .addOption(new Option('--seen-before <when>', 'only hosts whose last report arrived before this date (midnight UTC) or date and time').argParser(dateTime))
    .addOption(new Option('--compliance <state>', 'only hosts with this compliance (waivers applied)').choices(COMPLIANCE))
    .addOption(
      new Option('--failing-policy <id>', 'only hosts failing (or erring on) a rule of this policy that no waiver covers (its id)').argParser(recordId),
    )
    .addOption(new Option('--failing-rule <rule-id>', 'only hosts failing this rule (of --failing-policy when given) that no waiver covers').argParser(ruleId));
  if (state) {
    command.addOption(
      new Option('--state <state>', 'only hosts in this lifecycle state (default current: active and stale, decommissioned hosts left out)').choices(
        HOST_STATES,
      ),
    );
  }
  if (!sorted) return command;
  return command
    .addOption(
      new Option('--sort <column>', 'order by last seen (default), host name, hardening index, warnings of the latest report or compliance').choices(SORTS),
    )
    .addOption(new Option('--order <order>', 'descending (default) or ascending; hosts without a value come last either way').choices(['desc', 'asc']));
}

/**
 * The query the flags give, checked as far as the flags alone tell. A license key's id is checked here rather than
 * by commander, whose message would quote what was given: a license key typed where its id belongs.
 */
export function hostFilterQuery(flags: HostFilterFlags, now = new Date()): HostFilterQuery {
  const { hostname, hostId, group, tag, os, finding, findingKind, staleDays, compliance, failingPolicy, failingRule, state, sort, order } = flags;
  if (findingKind && !finding) throw new UsageError('--finding-kind needs --finding');
  const keyId = flags.key ?? flags.keyId;
  if (keyId !== undefined && !ID_PATTERN.test(keyId)) {
    throw new UsageError("--key must be a license key's id, the ID column of `keys list` (a UUID), never the key itself");
  }
  const seenBefore = staleDays === undefined ? flags.seenBefore : new Date(now.getTime() - staleDays * DAY_MS).toISOString();
  const query: HostFilterQuery = {
    hostname,
    keyId,
    hostId,
    group,
    tag,
    os,
    finding,
    findingKind,
    seenBefore,
    compliance,
    failingPolicy,
    failingRule,
    state,
    sort,
    order,
  };
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
}
