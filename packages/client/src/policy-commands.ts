// The admin commands of compliance policies: list, show, preview, create, update, enable, disable, delete, their
// results, one host's compliance, and the fleet's over time (compliance-history-command.ts).
import { readFile } from 'node:fs/promises';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { HostCompliance, Policy, PolicyInput, PolicyList, PolicyPreview, PolicyResultPage, PolicyScope, Rule } from './generated/types.gen.js';
import type { AdminClient, PolicyResultQuery } from './admin-client.js';
import { admin, adminCommand, deleted, pageOptions, show, type OutputFlags } from './admin-command-base.js';
import { formatFields, formatPageLine, formatTable, formatTime } from './admin-output.js';
import { recordId } from './cli-arguments.js';
import { UsageError } from './cli-settings.js';
import { addComplianceHistoryCommand } from './compliance-history-command.js';
import { asOfLine, asOfOption } from './as-of-flag.js';

/** The contract's `RuleId`. */
const RULE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The flags of `policies update`: each given one changes the policy; `false` is a `--no-…` flag, clearing the value. */
interface PolicyUpdateFlags extends OutputFlags {
  file?: string;
  name?: string;
  description?: string | false;
  rule?: Rule[];
  removeRule?: string[];
  keyId?: string | false;
  group?: string | false;
  tag?: string | false;
  hostname?: string | false;
  enable?: boolean;
  disable?: boolean;
}

/** The scope conditions, as the contract names them and as `policies update` takes them. */
const SCOPE_KEYS = ['keyId', 'group', 'tag', 'hostname'] as const satisfies ReadonlyArray<keyof PolicyScope>;

/** Adds `policies` and `compliance` to `audit-client`. */
export function addPolicyCommands(program: Command): void {
  const policies = program.command('policies').description("compliance policies: CEL rules evaluated on every host's latest report");
  adminCommand(policies, 'list', 'list policies with how many hosts pass, fail, err or are waived').action(
    admin<[OutputFlags]>(async (client, options) => show(options, await client.listPolicies(), formatPolicies)),
  );
  adminCommand(policies, 'show', "show a policy: its scope, its hosts' statuses, and each rule with its expression and results")
    .argument('<policy-id>', "the policy's id, from policies list", recordId)
    .action(admin<[string, OutputFlags]>(async (client, policyId, options) => show(options, await client.getPolicy(policyId), formatPolicy)));
  adminCommand(
    policies,
    'create',
    'create a policy from a JSON file ({"name", "scope", "rules": [{"id", "expression"}]}); invalid rules are named with the position of their error',
  )
    .requiredOption('--file <path>', 'the policy as JSON')
    .action(
      admin<[OutputFlags & { file: string }]>(async (client, options) => {
        const policy = await readPolicyFile(options.file);
        return show(options, await client.createPolicy(policy as PolicyInput), (created) => `Created policy ${created.name} (${created.id})\n`);
      }),
    );
  adminCommand(
    policies,
    'preview',
    'before creating a policy: the hosts its scope covers and how many fail each rule (the JSON file policies create takes; nothing is stored)',
  )
    .requiredOption('--file <path>', 'the policy as JSON')
    .action(
      admin<[OutputFlags & { file: string }]>(async (client, options) =>
        show(options, await client.previewPolicy((await readPolicyFile(options.file)) as PolicyInput), formatPreview),
      ),
    );
  adminCommand(
    policies,
    'enable-baseline',
    'create the shipped Baseline policy (hardening index >= 50, no vulnerable packages, firewall active, no warnings besides PKGS-7392 and LOGG-2138, audited within 7 days)',
  ).action(
    admin<[OutputFlags]>(async (client, options) =>
      show(options, await client.enableBaselinePolicy(), (created) => `Created policy ${created.name} (${created.id})\n`),
    ),
  );
  adminCommand(
    policies,
    'preview-baseline',
    "each rule of the shipped Baseline: the hosts it would pass and fail (before it is enabled; the server's preview)",
  ).action(admin<[OutputFlags]>(async (client, options) => show(options, await client.previewBaselinePolicy(), formatPreview)));
  addPolicyUpdateCommand(policies);
  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    adminCommand(policies, name, enabled ? 'enable a policy (clears its quarantine)' : 'disable a policy (kept, not evaluated)')
      .argument('<policy-id>', "the policy's id, from policies list", recordId)
      .action(
        admin<[string, OutputFlags]>(async (client, policyId, options) =>
          show(
            options,
            await replacePolicy(client, policyId, (current) => ({ ...current, enabled })),
            (policy) => `${enabled ? 'Enabled' : 'Disabled'} policy ${policy.name} (${policy.id})\n`,
          ),
        ),
      );
  }
  adminCommand(policies, 'delete', 'delete a policy with its results and waivers')
    .argument('<policy-id>', "the policy's id, from policies list", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, policyId, options) => {
        await client.deletePolicy(policyId);
        return deleted(options, 'policy', policyId);
      }),
    );
  addResultCommands(program, policies);
}

/** `policies update`: the current policy, with what a file and the flags change, saved in one request. */
function addPolicyUpdateCommand(policies: Command): void {
  adminCommand(
    policies,
    'update',
    'change a policy: its name, description, rules, scope or whether it is enabled; what is not given stays (every host is evaluated again)',
  )
    .argument('<policy-id>', "the policy's id, from policies list", recordId)
    .option('--file <path>', 'JSON as policies create takes it; the fields it has replace the policy\'s ("rules" and "scope" as a whole), then the flags apply')
    .option('--name <text>', 'a new name')
    .option('--description <text>', 'a new description')
    .option('--no-description', 'remove the description')
    .option(
      '--rule <id=expression>',
      'add a rule, or replace the expression of the rule with this id (repeatable), e.g. "hardening-index=summary.hardeningIndex >= 70"',
      collectRule,
    )
    .option('--remove-rule <id>', 'remove the rule with this id (repeatable)', (id: string, ids: string[] = []) => [...ids, id])
    .addOption(new Option('--key-id <id>', 'apply to hosts uploading with this license key (its id)').argParser(recordId))
    .option('--no-key-id', 'drop the license-key condition of the scope')
    .option('--group <name>', 'apply to hosts whose latest report lists this group (system-groups=)')
    .option('--no-group', 'drop the group condition of the scope')
    .option('--tag <name>', 'apply to hosts whose latest report lists this tag (tags=)')
    .option('--no-tag', 'drop the tag condition of the scope')
    .option('--hostname <pattern>', 'apply to hosts whose host name matches this pattern, * for any characters (case-insensitive), e.g. web-*')
    .option('--no-hostname', 'drop the host-name condition of the scope')
    .addOption(new Option('--enable', 'enable the policy (clears its quarantine)').conflicts('disable'))
    .option('--disable', 'disable the policy (kept, not evaluated)')
    .action(
      admin<[string, PolicyUpdateFlags]>(async (client, policyId, options) => {
        const file = options.file === undefined ? undefined : await readPolicyFile(options.file);
        if (file === undefined && !changesSomething(options)) {
          throw new UsageError('nothing to change: give --file, or flags such as --name, --rule, --group or --disable (see --help)');
        }
        const updated = await replacePolicy(client, policyId, (current) => withFlags({ ...current, ...file }, options));
        return show(options, updated, (policy) => `Updated policy ${policy.name} (${policy.id})\n`);
      }),
    );
}

/** `policies results` and `compliance`: the results of a policy's hosts, of one host on every policy, and the history. */
function addResultCommands(program: Command, policies: Command): void {
  adminCommand(policies, 'results', "list each host's result on a policy's rules (failures first), with how many there are and the next page")
    .argument('<policy-id>', "the policy's id, from policies list", recordId)
    .option('--rule <id>', 'only this rule', ruleId)
    .addOption(new Option('--status <status>', 'only this status').choices(['pass', 'fail', 'error', 'waived']))
    .option('--hostname <text>', 'only hosts whose name contains this text (case-insensitive)')
    .addOption(
      new Option('--sort <column>', 'order by status (failures first), host name, since (when the status last changed) or rule').choices([
        'status',
        'hostname',
        'since',
        'rule',
      ]),
    )
    .addOption(new Option('--order <order>', 'ascending or descending (since asc: the longest-failing first)').choices(['asc', 'desc']))
    .addOption(pageOptions.limit())
    .addOption(pageOptions.offset())
    .addOption(asOfOption())
    .action(
      admin<[string, OutputFlags & Omit<PolicyResultQuery, 'ruleId'> & { rule?: string }]>(async (client, policyId, options) => {
        const { rule, status, hostname, sort, order, limit, offset, at } = options;
        return show(
          options,
          await client.listPolicyResults(policyId, { ruleId: rule, status, hostname, sort, order, limit, offset, at }),
          (page) => asOfLine(at) + formatResults(page),
        );
      }),
    );
  // `compliance <host-id>` shows a host's, as it did before `history`: `host` is the default subcommand, and
  // `compliance` has no flags of its own (commander would take them from the subcommand).
  const compliance = program.command('compliance').description("a host's compliance (`compliance host <host-id>`, the default), or the fleet's over time");
  addComplianceHistoryCommand(compliance);
  adminCommand(compliance, 'host', "show a host's results on every policy, and their latest changes", { isDefault: true })
    .argument('<host-id>', "the host's id (the ID column of `hosts`)", recordId)
    .action(
      admin<[string, OutputFlags]>(async (client, hostRecordId, options) => show(options, await client.getHostCompliance(hostRecordId), formatHostCompliance)),
    );
}

/** Reads a policy's JSON file; what it holds is the server's to check. */
async function readPolicyFile(path: string): Promise<Partial<PolicyInput>> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`Cannot read the policy file ${path}: ${error.code ?? error.message}`);
  });
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // Said below, as for any file that is not a JSON object.
  }
  throw new UsageError(`The policy file ${path} is not a JSON object ({"name", "scope", "rules": [{"id", "expression"}]})`);
}

/** Saves `change` of the policy as it is now: the API replaces a policy as a whole. */
async function replacePolicy(client: AdminClient, policyId: string, change: (current: PolicyInput) => PolicyInput): Promise<Policy> {
  return client.updatePolicy(policyId, change(policyInputOf(await client.getPolicy(policyId))));
}

/** What the API takes to save a policy unchanged: a stored policy without its counts and times. */
function policyInputOf({ name, description, enabled, scope, rules }: Policy): PolicyInput {
  return {
    name,
    description,
    enabled,
    scope,
    // Each rule's controls kept, so that changing one thing does not drop them.
    rules: rules.map(({ id, description: text, controls, expression }) => ({
      id,
      description: text,
      ...(controls === undefined ? {} : { controls }),
      expression,
    })),
  };
}

/** Whether any flag of `policies update` changes the policy. */
function changesSomething(flags: PolicyUpdateFlags): boolean {
  const fields = [flags.name, flags.description, flags.rule, flags.removeRule, flags.enable, flags.disable, ...SCOPE_KEYS.map((key) => flags[key])];
  // `--description` and its `--no-` twin: commander leaves it undefined unless one of them is given.
  return fields.some((field) => field !== undefined);
}

/** The policy with the flags' changes: name, description, rules added, replaced or removed, scope, enabled. */
function withFlags(policy: PolicyInput, flags: PolicyUpdateFlags): PolicyInput {
  const scope: PolicyScope = { ...policy.scope };
  for (const key of SCOPE_KEYS) {
    const value = flags[key];
    if (value !== undefined) scope[key] = value === false ? null : value;
  }
  let rules = policy.rules.filter((rule) => !flags.removeRule?.includes(rule.id));
  for (const rule of flags.rule ?? []) {
    const existing = rules.find((r) => r.id === rule.id);
    rules = existing ? rules.map((r) => (r === existing ? { ...r, expression: rule.expression } : r)) : [...rules, rule];
  }
  const enabled = flags.enable ? true : flags.disable ? false : policy.enabled;
  const description = flags.description === undefined ? policy.description : flags.description || null;
  return { ...policy, name: flags.name ?? policy.name, description, enabled, scope, rules };
}

/** Checks a rule's id (`--rule` of `policies results`) before anything is sent. */
function ruleId(value: string): string {
  if (RULE_ID_PATTERN.test(value)) return value;
  throw new InvalidArgumentError('must be a rule id as policies show shows it: a-z, 0-9 and -, e.g. hardening-index');
}

/** Parses `--rule id=expression` into a rule, collecting repeated flags. */
function collectRule(value: string, previous: Rule[] = []): Rule[] {
  const at = value.indexOf('=');
  const id = value.slice(0, Math.max(at, 0));
  const expression = value.slice(at + 1).trim();
  if (at < 0 || !RULE_ID_PATTERN.test(id) || expression === '') {
    throw new InvalidArgumentError('must be a rule id (a-z, 0-9 and -), "=" and a CEL expression, e.g. hardening-index=summary.hardeningIndex >= 60');
  }
  return [...previous, { id, expression }];
}

/** A policy's scope in one line: `group=web tag=prod`, or `every host`. */
const scopeText = (scope: PolicyScope | undefined) =>
  SCOPE_KEYS.filter((key) => scope?.[key] != null)
    .map((key) => `${key}=${scope![key]}`)
    .join(' ') || 'every host';

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

/** `policies preview` and `preview-baseline`: one line per rule, then the hosts in scope, evaluated and failing. */
function formatPreview(preview: PolicyPreview): string {
  const table = formatTable(
    [
      ['RULE', (rule) => rule.ruleId],
      ['EVALUATED', (rule) => rule.evaluated],
      ['PASS', (rule) => rule.passing],
      ['FAIL', (rule) => rule.failing],
      ['ERROR', (rule) => rule.errors],
    ],
    preview.rules,
  );
  return (
    table +
    `hosts in scope: ${preview.hostsInScope} of ${preview.hostsWithReports} with a report\n` +
    `hosts evaluated: ${preview.evaluatedHosts} (the most recently seen in scope)\n` +
    `hosts failing or erring on a rule: ${preview.failingHosts} of ${preview.evaluatedHosts}\n`
  );
}

/** `policies show`: the policy's fields, then one line per rule. */
function formatPolicy(policy: Policy): string {
  const { hosts } = policy;
  const fields = formatFields([
    ['Policy', policy.id],
    ['Name', policy.name],
    ['Description', policy.description],
    ['Enabled', policy.enabled ? 'yes' : 'no'],
    ['Scope', scopeText(policy.scope)],
    ['Hosts', `${hosts.pass} pass, ${hosts.fail} fail, ${hosts.error} error, ${hosts.waived} waived`],
    ['Quarantined', policy.quarantine ? `${formatTime(policy.quarantine.at)} ${policy.quarantine.reason}` : null],
    ['Created', formatTime(policy.createdAt)],
    ['Updated', formatTime(policy.updatedAt)],
  ]);
  const rules = formatTable<Policy['rules'][number]>(
    [
      ['RULE', (r) => r.id],
      ['PASS', (r) => r.results.pass],
      ['FAIL', (r) => r.results.fail],
      ['ERROR', (r) => r.results.error],
      ['WAIVED', (r) => r.results.waived],
      ['EXPRESSION', (r) => r.expression],
      ['DESCRIPTION', (r) => r.description ?? null],
    ],
    policy.rules,
  );
  return `${fields}\nRules:\n${rules}`;
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

/** `compliance <host-id>`: the host's status, its result on each rule of each policy, and the latest changes. */
function formatHostCompliance(compliance: HostCompliance): string {
  const head = formatFields([
    ['Host', compliance.hostRecordId],
    ['Status', compliance.status ?? 'no policy applies, or none evaluated yet'],
  ]);
  const results = formatTable<HostCompliance['results'][number]>(
    [
      ['POLICY', (r) => r.policyId],
      ['RULE', (r) => r.ruleId],
      ['STATUS', (r) => r.status],
      ['VALUE', (r) => r.value],
      ['SINCE', (r) => formatTime(r.since)],
      ['MESSAGE', (r) => r.message],
    ],
    compliance.results,
  );
  const history = formatTable<HostCompliance['history'][number]>(
    [
      ['AT', (c) => formatTime(c.at)],
      ['POLICY', (c) => c.policyId],
      ['RULE', (c) => c.ruleId],
      ['STATUS', (c) => c.status],
      ['VALUE', (c) => c.value],
    ],
    compliance.history,
  );
  return (
    `${head}\n` +
    (compliance.results.length > 0 ? `Results:\n${results}` : 'Results: none\n') +
    (compliance.history.length > 0 ? `\nChanges, newest first:\n${history}` : '')
  );
}
