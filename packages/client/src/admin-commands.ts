import { Command, Option } from 'commander';
import { addAuditEventCommands } from './audit-event-commands.js';
import { addEnrollmentCommands } from './enrollment-commands.js';
import { addComplianceCommands } from './compliance-commands.js';
import { addPeopleCommands } from './people-commands.js';
import {
  describeNewKey,
  formatFacets,
  formatFields,
  formatHost,
  formatHostPage,
  formatKeys,
  formatOverview,
  formatRejectionPage,
  formatReport,
  formatReportDiff,
  formatReportPage,
  formatTime,
} from './admin-output.js';
import type { FacetField } from './generated/types.gen.js';
import { dateTime, day, positiveInteger, quotaOr, quotaSetting, recordId, wholeNumber } from './cli-arguments.js';
import { EXIT } from './cli-exit-codes.js';
import { UsageError } from './cli-settings.js';
import { admin, adminCommand, pageOptions, printJson, show, type OutputFlags } from './admin-command-base.js';
import { addHostFilterOptions, hostFilterQuery, type HostFilterFlags } from './host-filter-flags.js';
import { addHostLifecycleCommands } from './host-lifecycle-commands.js';
import { addFindingCommands } from './finding-commands.js';
import { addTimeToFixCommand } from './time-to-fix-command.js';
import { addControlCommands } from './control-commands.js';
import { addDigestCommands } from './digest-commands.js';
import { asOfLine, asOfOption } from './as-of-flag.js';

/** The fields `facets` lists, in the contract's order. */
const FACET_FIELDS: FacetField[] = ['group', 'tag', 'os', 'key', 'customer'];

/** The quota flags of `keys create` and `keys set` (`keys set` also takes `default` or `none`). */
interface QuotaFlags {
  newHostsPerDay?: number | string;
  maxHosts?: number | string;
}

/** Adds the admin commands (hosts, host, reports, report, keys …) to `audit-client`. */
export function addAdminCommands(program: Command): void {
  addComplianceCommands(program);
  addControlCommands(program);
  addPeopleCommands(program);
  addAuditEventCommands(program);
  adminCommand(program, 'overview', 'show the fleet at a glance: hosts, hardening index, top findings, OS and Lynis mix, uploads, stale hosts')
    // Taken and ignored, as the server ignores it now: a host's state says whether it is stale (`--stale-days` there).
    .addOption(new Option('--stale-days <n>', "ignored: hosts are stale by the server's threshold").argParser(positiveInteger).hideHelp())
    .addOption(asOfOption())
    .action(admin<[OutputFlags & { at?: string }]>(async (client, options) => show(options, await client.getOverview({ at: options.at }), formatOverview)));
  addHostCommands(program);
  addReportCommands(program);
  addRejectionCommands(program);
  addKeyCommands(program);
  addEnrollmentCommands(program);
  addDigestCommands(program);
  adminCommand(program, 'whoami', 'show which admin token the commands sign in with: its id, label and first characters, never the token').action(
    admin<[OutputFlags]>(async (client, options) =>
      show(options, await client.getSession(), (session) =>
        formatFields([
          ['Admin token', session.tokenId ?? null],
          ['Label', session.label ?? null],
          ['Prefix', session.prefix ?? null],
        ]),
      ),
    ),
  );
}

/** `hosts` (list, and a host's life), `facets`, `findings` (grouped, and with their lifecycle), `host` and `accept-identity`: the fleet's hosts and findings. */
function addHostCommands(program: Command): void {
  // `hosts` alone lists, as it did before it had subcommands: `list` is its default, and `hosts` has no flags of its own
  // (commander would take them from the subcommand).
  const hosts = program.command('hosts').description('list hosts (`hosts list`, the default), decommission, reactivate, merge or delete them');
  addHostFilterOptions(
    adminCommand(hosts, 'list', 'list hosts, most recently seen first unless --sort says otherwise; filters combine; decommissioned hosts only with --state', {
      isDefault: true,
    }),
  )
    .addOption(pageOptions.limit())
    .addOption(pageOptions.offset())
    .addOption(asOfOption())
    .action(
      admin<[HostsFlags & { at?: string }]>(async (client, options) =>
        show(
          options,
          await client.listHosts({ ...hostFilterQuery(options), at: options.at, limit: options.limit, offset: options.offset }),
          (page) => asOfLine(options.at) + formatHostPage(page),
        ),
      ),
    );
  addHostLifecycleCommands(hosts);
  addTimeToFixCommand(addFindingCommands(program, hosts));

  adminCommand(program, 'facets', 'list the known groups, tags, operating systems, license keys and customers, with their host counts')
    .addOption(new Option('--field <field>', 'only this field').choices(FACET_FIELDS))
    .option('--q <text>', 'only values containing this text (case-insensitive)')
    .addOption(new Option('--limit <n>', 'most values per field (server default 10, at most 100)').argParser(positiveInteger))
    .action(
      admin<[OutputFlags & { field?: FacetField; q?: string; limit?: number }]>(async (client, options) =>
        show(options, await client.listFacets({ field: options.field, q: options.q, limit: options.limit }), (facets) => formatFacets(facets, options.field)),
      ),
    );

  adminCommand(program, 'host', 'show a host and the hardening index of its newest reports')
    .argument('<id>', "the host's id (the ID column of `hosts`)", recordId)
    .addOption(new Option('--history <n>', 'how many of the newest reports the hardening history covers (server default 100)').argParser(positiveInteger))
    .action(
      admin<[string, OutputFlags & { history?: number }]>(async (client, id, options) =>
        show(options, await client.getHost(id, { historyLimit: options.history }), formatHost),
      ),
    );

  adminCommand(program, 'accept-identity', 'accept the new hostid2 of a host whose identity change is flagged (e.g. a reinstalled host)')
    .argument('<id>', "the host's id (the ID column of `hosts`)", recordId)
    .argument('<hostid2>', 'the new hostid2, as `host <id>` shows it under "Identity change" ("-": none)')
    .action(
      admin<[string, string, OutputFlags]>(async (client, id, hostId2, options) =>
        show(
          options,
          await client.acceptHostIdentity(id, hostId2 === '-' ? null : hostId2),
          (host) => `Accepted hostid2 ${host.hostId2 ?? '(none)'} for host ${host.id}.\n`,
        ),
      ),
    );
}

/** `reports`, `report` and `diff`: the reports and what changed between them. */
function addReportCommands(program: Command): void {
  adminCommand(program, 'reports', 'list reports, newest first')
    .option('--host <id>', 'only reports of this host (its id, as `hosts` shows it)')
    .option('--key-id <id>', 'only reports uploaded with this license key (its id)')
    .addOption(pageOptions.limit())
    .addOption(pageOptions.offset())
    .action(
      admin<[ReportsFlags]>(async (client, options) => {
        const { host, keyId, limit, offset } = options;
        return show(options, await client.listReports({ hostRecordId: host, keyId, limit, offset }), formatReportPage);
      }),
    );

  adminCommand(program, 'report', "show a report's metadata and what the Lynis report says; --raw prints the report as stored")
    .argument('<id>', "the report's id (as `upload` printed it, or the ID column of `reports`)", recordId)
    .addOption(new Option('--raw', "print the report's text as stored (license keys redacted) instead").conflicts('json'))
    .action(
      admin<[string, OutputFlags & { raw?: boolean }]>(async (client, id, options) => {
        if (!options.raw) return show(options, await client.getReport(id), formatReport);
        process.stdout.write(await client.getRawReport(id));
        return EXIT.ok;
      }),
    );

  adminCommand(program, 'diff', "show what changed since the host's previous report (or against another of its reports)")
    .argument('<id>', "the report's id", recordId)
    .option('--against <id>', 'another report of the same host to compare with (the earlier of the two is "before")')
    .action(
      admin<[string, OutputFlags & { against?: string }]>(async (client, id, options) =>
        show(options, await client.getReportDiff(id, options.against), formatReportDiff),
      ),
    );
}

/** `rejections`: refused uploads and license checks. */
function addRejectionCommands(program: Command): void {
  adminCommand(program, 'rejections', 'list refused uploads and license checks (hosts losing reports), newest day first')
    .addOption(new Option('--since <date>', 'only refusals on this day (UTC, YYYY-MM-DD) or later').argParser(day))
    .option('--reason <reason>', 'only refusals for this reason, e.g. invalid-key or invalid-data')
    .addOption(new Option('--operation <operation>', 'only refused uploads or only refused license checks').choices(['uploadReport', 'checkLicense']))
    .option('--host-id <hostid>', 'only refusals of this hostid')
    .option('--key-id <id>', 'only refusals that named this license key (its id)')
    .addOption(pageOptions.limit())
    .addOption(pageOptions.offset())
    .action(
      admin<[RejectionsFlags]>(async (client, options) => {
        const { since, reason, operation, hostId, keyId, limit, offset } = options;
        return show(options, await client.listRejections({ since, reason, operation, hostId, keyId, limit, offset }), formatRejectionPage);
      }),
    );
}

/**
 * `keys`: list, create, change, revoke and rotate license keys. Their ids are left to the server to check: the
 * local check's message quotes what it was given, which could be a license key typed where its id belongs.
 */
function addKeyCommands(program: Command): void {
  const keys = program.command('keys').description('list, create, change, revoke and rotate license keys');
  adminCommand(keys, 'list', 'list the license keys, oldest first (never the keys themselves)').action(
    admin<[OutputFlags]>(async (client, options) => show(options, await client.listLicenseKeys(), (list) => formatKeys(list.items))),
  );

  adminCommand(keys, 'create', 'create a license key and print it on stdout: the only time it is shown')
    .option('--label <text>', 'what the key is for, e.g. "web servers"')
    .addOption(new Option('--expires <when>', 'when the key stops working: a date (midnight UTC) or an ISO 8601 date and time').argParser(dateTime))
    .addOption(new Option('--new-hosts-per-day <n>', "hosts new to the key that may enroll per UTC day (default: the server's)").argParser(wholeNumber))
    .addOption(new Option('--max-hosts <n>', 'most hosts the key may have (default: no maximum)').argParser(wholeNumber))
    .action(
      admin<[OutputFlags & QuotaFlags & { label?: string; expires?: string }]>(async (client, options) => {
        const quotas = { newHostsPerDay: quotaSetting(options.newHostsPerDay), maxHosts: quotaSetting(options.maxHosts) };
        const created = await client.createLicenseKey({ label: options.label, expiresAt: options.expires, ...quotas });
        if (options.json) return printJson(created);
        process.stderr.write(`${describeNewKey(created.key)}\nThe key is shown only now; give it to the hosts (license-key= in their Lynis profile):\n`);
        process.stdout.write(`${created.licenseKey}\n`);
        return EXIT.ok;
      }),
    );

  adminCommand(keys, 'set', "change a license key's quotas of hosts or its expiry")
    .argument('<id>', "the key's id (the ID column of `keys list`)")
    .addOption(new Option('--new-hosts-per-day <n>', 'hosts new to the key per UTC day, or "default" for the server\'s').argParser(quotaOr('default')))
    .addOption(new Option('--max-hosts <n>', 'most hosts the key may have, or "none"').argParser(quotaOr('none')))
    .addOption(
      new Option('--expires <when>', 'when the key stops working: a date (midnight UTC) or an ISO 8601 date and time; a past one stops it now').argParser(
        dateTime,
      ),
    )
    .addOption(new Option('--no-expiry', 'the key never expires'))
    .action(
      admin<[string, OutputFlags & QuotaFlags & ExpiryFlags]>(async (client, id, options) => {
        const settings = { newHostsPerDay: quotaSetting(options.newHostsPerDay), maxHosts: quotaSetting(options.maxHosts), expiresAt: expirySetting(options) };
        if (Object.values(settings).every((value) => value === undefined))
          throw new UsageError('give --new-hosts-per-day, --max-hosts, --expires or --no-expiry');
        return show(options, await client.updateLicenseKey(id, settings), (key) => formatKeys([key]));
      }),
    );

  adminCommand(keys, 'revoke', 'revoke a license key: its checks and uploads are refused from now on')
    .argument('<id>', "the key's id (the ID column of `keys list`), never the key itself")
    .action(admin<[string, OutputFlags]>(async (client, id, options) => show(options, await client.revokeLicenseKey(id), (key) => formatKeys([key]))));

  adminCommand(keys, 'rotate', 'issue a new key for an old one, which keeps working for the grace period; prints the new key on stdout')
    .argument('<id>', "the old key's id (the ID column of `keys list`)")
    .addOption(new Option('--grace <seconds>', 'how long the old key keeps working (server default 86400, a day)').argParser(wholeNumber))
    .action(
      admin<[string, OutputFlags & { grace?: number }]>(async (client, id, options) => {
        const rotated = await client.rotateLicenseKey(id, { graceSeconds: options.grace });
        if (options.json) return printJson(rotated);
        process.stderr.write(
          `${describeNewKey(rotated.key)}\nThe old key ${rotated.previous.id} works until ${formatTime(rotated.previous.expiresAt)}.\n` +
            'The new key is shown only now; give it to the hosts (license-key= in their Lynis profile):\n',
        );
        process.stdout.write(`${rotated.licenseKey}\n`);
        return EXIT.ok;
      }),
    );
}

/** The expiry flags of `keys set`; commander gives `expiry: false` for `--no-expiry`. */
interface ExpiryFlags {
  expires?: string;
  expiry?: boolean;
}

/** The expiry the flags ask for: a time, null for `--no-expiry`, undefined (unchanged) when neither is given. */
function expirySetting(flags: ExpiryFlags): string | null | undefined {
  if (flags.expires !== undefined && flags.expiry === false) throw new UsageError('give --expires or --no-expiry, not both');
  return flags.expiry === false ? null : flags.expires;
}

interface HostsFlags extends OutputFlags, HostFilterFlags {
  limit?: number;
  offset?: number;
}

interface RejectionsFlags extends OutputFlags {
  since?: string;
  reason?: string;
  operation?: 'uploadReport' | 'checkLicense';
  hostId?: string;
  keyId?: string;
  limit?: number;
  offset?: number;
}

interface ReportsFlags extends OutputFlags {
  host?: string;
  keyId?: string;
  limit?: number;
  offset?: number;
}
