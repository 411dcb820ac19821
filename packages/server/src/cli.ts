import { mkdir, readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { Command, Option } from 'commander';
import { describeFailure } from '@org/audit-server-core';
import { DEFAULT_SERVER_CONFIG as DEFAULTS, parseServerConfig, readConfigFile, type ServerConfig } from './config.js';
import type { Database } from './database/dialect.js';
import { openDatabase } from './database/open.js';
import { parseDuration, parseExpiry } from './duration.js';
import { createKey, importKeys, listKeys, parseKeyList, parseQuota, revokeKeyOrFail, rotateKey, setKeySettings } from './secrets/license-keys.js';
import { createLogger } from './ops/logger.js';
import { createAdminToken, listAdminTokens, revokeAdminTokenOrFail } from './secrets/admin-tokens.js';
import { DEFAULT_ADMIN_ROLE, parseRole, ROLES, type AdminRole } from './people/roles.js';
// The command line reads the database as its operator, who sees every host.
import { UNSCOPED } from './people/scope.js';
import { deleteUser, listUsers, setUserDisabled, setUserRole, setUserScope } from './people/user-records.js';
import {
  addUserWithPassword,
  collectRepeated,
  readPasswordFrom,
  resetUserPassword,
  scopeOfFlags,
  scopeText,
  USER_LIST_HEADER,
  userListRows,
  type ScopeFlags,
  type UserAddFlags,
} from './people/user-commands.js';
import { ADMIN_TOKEN_LIST_HEADER, adminTokenListRows } from './secrets/admin-token-commands.js';
import { ADMIN_ROLES } from './generated/admin-operations.gen.js';
import { BASELINE_POLICY } from './policies/baseline.js';
import { createPolicy, deletePolicy, listPolicies, setPolicyEnabled } from './policies/policy-records.js';
import { PREVIEW_MAX_HOSTS, previewPolicy } from './policies/policy-preview.js';
import { hasRetentionRule, pruneReports } from './reports/retention.js';
import { verifyAuditChain } from './audit/audit-verify.js';
import { hostDetail, hostPage } from './hosts/host-queries.js';
import {
  checkHostId,
  describeHost,
  historyLimit,
  HOST_LIST_HEADER,
  hostListQuery,
  hostListRows,
  hostPageLine,
  type HostListFlags,
} from './hosts/host-listing.js';
import { notFound } from './errors/domain-error.js';
import { importControlFile } from './controls/control-records.js';
import { controlReport } from './controls/control-report.js';
import { DEMO_DEFAULT_HOSTS, DEMO_DEFAULT_SEED, DEMO_MAX_HOSTS, seedDemo, seededDemoText } from './demo/seed-demo.js';
import { startServer } from './server.js';

const program = new Command('audit-server')
  .description('Reference server collecting audit reports (Lynis compatible)')
  .addOption(
    new Option('--config <file>', 'JSON file of settings (names as in docs/operating.md, "Settings"); flags and environment override it').env('CONFIG_FILE'),
  )
  .addOption(new Option('--data-dir <dir>', 'folder for the SQLite database and the self-signed certificate (default: data)').env('DATA_DIR'))
  .addOption(
    new Option('--database-url <url>', 'PostgreSQL database, postgres://user:password@host:port/name (default: SQLite in the data directory)').env(
      'DATABASE_URL',
    ),
  )
  .showHelpAfterError();

program
  .command('start')
  .description('serve the audit API (HTTPS unless --plain-http)')
  .addOption(new Option('--host <address>', `address to listen on (default: ${DEFAULTS.host})`).env('HOST'))
  .addOption(new Option('--port <port>', `port to listen on (default: ${DEFAULTS.port})`).env('PORT'))
  .addOption(new Option('--tls-cert <file>', 'PEM certificate (default: a self-signed one in the data directory)').env('TLS_CERT'))
  .addOption(new Option('--tls-key <file>', 'PEM private key of --tls-cert').env('TLS_KEY'))
  .option('--plain-http', 'serve plain HTTP, for running behind a TLS-terminating proxy')
  .option(
    '--webhook-allow-private',
    'let webhooks reach loopback, private and link-local addresses (refused by default; environment: WEBHOOK_ALLOW_PRIVATE=true)',
  )
  .addOption(
    new Option('--public-host <name>', "host name enrolled hosts reach the server by, in the enroll command (default: the admin request's host name)").env(
      'PUBLIC_HOST',
    ),
  )
  .addOption(new Option('--tool-segment <name>', `path segment in /api/<name>/upload/ (default: ${DEFAULTS.toolSegment})`).env('TOOL_SEGMENT'))
  .addOption(new Option('--max-body-bytes <bytes>', `largest request body accepted (default: ${DEFAULTS.maxBodyBytes / 2 ** 20} MiB)`).env('MAX_BODY_BYTES'))
  .addOption(new Option('--max-fields <count>', `most form fields in one request (default: ${DEFAULTS.maxFields})`).env('MAX_FIELDS'))
  .addOption(
    new Option(
      '--max-body-bytes-in-flight <bytes>',
      `memory budget: most body bytes held at once, all requests together; more get 503 (default: ${DEFAULTS.maxBodyBytesInFlight / 2 ** 20} MiB)`,
    ).env('MAX_BODY_BYTES_IN_FLIGHT'),
  )
  .addOption(
    new Option(
      '--max-bodies-per-address <count>',
      `request bodies one client address may send at once; more get 429 (default: ${DEFAULTS.maxBodiesPerAddress})`,
    ).env('MAX_BODIES_PER_ADDRESS'),
  )
  .addOption(
    new Option(
      '--min-body-bytes-per-second <bytes>',
      `slowest average body rate after the grace period; slower get 408; 0: off (default: ${DEFAULTS.minBodyBytesPerSecond})`,
    ).env('MIN_BODY_BYTES_PER_SECOND'),
  )
  .addOption(new Option('--body-grace-ms <ms>', `time a body has before the minimum rate applies (default: ${DEFAULTS.bodyGraceMs})`).env('BODY_GRACE_MS'))
  .addOption(
    new Option('--headers-timeout-ms <ms>', `time a client has to send the request headers (default: ${DEFAULTS.headersTimeoutMs})`).env('HEADERS_TIMEOUT_MS'),
  )
  .addOption(
    new Option('--request-timeout-ms <ms>', `time a client has to send the whole request (default: ${DEFAULTS.requestTimeoutMs})`).env('REQUEST_TIMEOUT_MS'),
  )
  .addOption(
    new Option('--tls-handshake-timeout-ms <ms>', `time a client has to finish the TLS handshake (default: ${DEFAULTS.tlsHandshakeTimeoutMs})`).env(
      'TLS_HANDSHAKE_TIMEOUT_MS',
    ),
  )
  .addOption(
    new Option(
      '--max-connections-per-address <count>',
      `open connections one client address may hold; more are closed at once (default: ${DEFAULTS.maxConnectionsPerAddress})`,
    ).env('MAX_CONNECTIONS_PER_ADDRESS'),
  )
  .addOption(
    new Option('--rate-limit-address <n>', `requests per minute from one client address; 0: off (default: ${DEFAULTS.rateLimitAddress})`).env(
      'RATE_LIMIT_ADDRESS',
    ),
  )
  .addOption(new Option('--rate-limit-key <n>', `requests per minute with one key; 0: off (default: ${DEFAULTS.rateLimitKey})`).env('RATE_LIMIT_KEY'))
  .addOption(
    new Option('--rate-limit-failures <n>', `failed key checks per 10 minutes from one address; 0: off (default: ${DEFAULTS.rateLimitFailures})`).env(
      'RATE_LIMIT_FAILURES',
    ),
  )
  .addOption(new Option('--redis-url <url>', 'Redis shared by every instance for rate limits (default: in memory)').env('REDIS_URL'))
  .addOption(new Option('--redis-prefix <prefix>', `prefix of the rate-limit keys in Redis (default: ${DEFAULTS.redisPrefix})`).env('REDIS_PREFIX'))
  .addOption(new Option('--trust-proxy <proxies>', 'hop count or addresses of proxies whose X-Forwarded-For is believed (default: none)').env('TRUST_PROXY'))
  .addOption(new Option('--log-level <level>', `fatal, error, warn, info, debug, trace or silent (default: ${DEFAULTS.logLevel})`).env('LOG_LEVEL'))
  .addOption(new Option('--ops-host <address>', `address of /healthz, /readyz and /metrics (default: ${DEFAULTS.opsHost})`).env('OPS_HOST'))
  .addOption(new Option('--ops-port <port>', `port of /healthz, /readyz and /metrics, or "off" (default: ${DEFAULTS.opsPort})`).env('OPS_PORT'))
  .addOption(
    new Option(
      '--admin-listen <host:port|off>',
      'serve the admin API only on this address (e.g. 127.0.0.1:8444, [::1]:8444), or "off" (default: on the collectors\' port)',
    ).env('ADMIN_LISTEN'),
  )
  .addOption(
    new Option(
      '--shutdown-timeout-seconds <seconds>',
      `on SIGTERM, how long uploads in flight may take to finish (default: ${DEFAULTS.shutdownTimeoutSeconds})`,
    ).env('SHUTDOWN_TIMEOUT_SECONDS'),
  )
  .addOption(new Option('--retention-keep-last <n>', "keep each host's newest n reports (default: no count rule)").env('RETENTION_KEEP_LAST'))
  .addOption(new Option('--retention-max-age-days <days>', 'keep reports younger than this (default: no age rule)').env('RETENTION_MAX_AGE_DAYS'))
  .addOption(
    new Option(
      '--prune-interval-minutes <minutes>',
      `how often to delete what no retention rule keeps; 0: never (default: ${DEFAULTS.pruneIntervalMinutes})`,
    ).env('PRUNE_INTERVAL_MINUTES'),
  )
  .addOption(
    new Option(
      '--audit-retention-days <days>',
      `days the audit trail keeps its entries, the oldest deleted first (default: ${DEFAULTS.auditRetentionDays})`,
    ).env('AUDIT_RETENTION_DAYS'),
  )
  .addOption(
    new Option(
      '--rejections-keep-days <days>',
      `days of refused uploads and license checks kept for the admin API (default: ${DEFAULTS.rejectionsKeepDays})`,
    ).env('REJECTIONS_KEEP_DAYS'),
  )
  .addOption(
    new Option('--rejections-flush-ms <ms>', `how often counted refusals are written to the database (default: ${DEFAULTS.rejectionsFlushMs})`).env(
      'REJECTIONS_FLUSH_MS',
    ),
  )
  .addOption(
    new Option(
      '--host-identity <mode>',
      `a report whose hostid2 differs from its host's last one: "record" stores it and flags the host, "strict" refuses it until an operator accepts (default: ${DEFAULTS.hostIdentity})`,
    ).env('HOST_IDENTITY'),
  )
  .addOption(
    new Option(
      '--identity-merge <mode>',
      `a report under a new hostid whose hostid2 and machine id match one known host: "auto" joins that host, "off" makes a new one (default: ${DEFAULTS.identityMerge})`,
    ).env('IDENTITY_MERGE'),
  )
  .addOption(
    new Option(
      '--key-new-hosts-per-day <n>',
      `hosts new to a license key that may enroll per UTC day, unless the key sets its own (default: ${DEFAULTS.keyNewHostsPerDay})`,
    ).env('KEY_NEW_HOSTS_PER_DAY'),
  )
  .addOption(new Option('--stale-days <n>', `a host without a report this many days is stale (default: ${DEFAULTS.staleDays})`).env('STALE_DAYS'))
  .addOption(
    new Option('--group-stale-days <pairs>', "system groups' own stale thresholds in days, e.g. laptops=30,lab=2 (the largest of a host's groups wins)").env(
      'GROUP_STALE_DAYS',
    ),
  )
  .addOption(
    new Option(
      '--group-expire-after <pairs>',
      'hosts of these system groups are decommissioned after this long without a report, e.g. ci-runners=12h,autoscale=2d',
    ).env('GROUP_EXPIRE_AFTER'),
  )
  .addOption(
    new Option(
      '--auto-purge-after <duration>',
      `hosts whose report says allow-auto-purge=1 are decommissioned after this long without a report (default: ${DEFAULTS.autoPurgeAfter})`,
    ).env('AUTO_PURGE_AFTER'),
  )
  .addOption(
    new Option(
      '--lynis-own-findings <mode>',
      `"hide" or "show" findings about Lynis itself (test LYNIS) in fleet lists (default: ${DEFAULTS.lynisOwnFindings})`,
    ).env('LYNIS_OWN_FINDINGS'),
  )
  .addOption(
    new Option('--waiver-max-days <n>', `the longest a waiver may run, in days from its creation (default: ${DEFAULTS.waiverMaxDays})`).env('WAIVER_MAX_DAYS'),
  )
  .addOption(
    new Option(
      '--finding-approval <mode>',
      `"distinct": an accepted finding's approver must be another person than the one asking; "any": anyone (default: ${DEFAULTS.findingApproval})`,
    ).env('FINDING_APPROVAL'),
  )
  .addOption(
    new Option('--finding-accept-role <role>', `"operator" or "admin": the role accepting a finding's risk needs (default: ${DEFAULTS.findingAcceptRole})`).env(
      'FINDING_ACCEPT_ROLE',
    ),
  )
  .addOption(
    new Option('--session-idle-minutes <n>', `a person's session unused this long ends (default: ${DEFAULTS.sessionIdleMinutes})`).env('SESSION_IDLE_MINUTES'),
  )
  .addOption(
    new Option('--session-max-hours <n>', `a person's session ends this long after sign-in, however busy (default: ${DEFAULTS.sessionMaxHours})`).env(
      'SESSION_MAX_HOURS',
    ),
  )
  .addOption(new Option('--oidc-issuer <url>', 'single sign-on: the https:// URL of the OpenID provider (default: no single sign-on)').env('OIDC_ISSUER'))
  .addOption(new Option('--oidc-client-id <id>', "single sign-on: this server's client id at the provider").env('OIDC_CLIENT_ID'))
  .addOption(
    new Option('--oidc-client-secret <secret>', 'single sign-on: the client secret (prefer the environment variable: flags show in ps)').env(
      'OIDC_CLIENT_SECRET',
    ),
  )
  .addOption(
    new Option(
      '--oidc-redirect-url <url>',
      "single sign-on: the callback URL registered at the provider (default: the admin API's own origin + /api/admin/session/sso/callback)",
    ).env('OIDC_REDIRECT_URL'),
  )
  .addOption(
    new Option('--oidc-role-claim <claim>', `single sign-on: the claim whose value(s) give the role (default: ${DEFAULTS.oidcRoleClaim})`).env(
      'OIDC_ROLE_CLAIM',
    ),
  )
  .addOption(
    new Option('--oidc-role-map <pairs>', 'single sign-on: claim values to roles, e.g. sec-admins=admin,sec-ops=operator; the highest wins').env(
      'OIDC_ROLE_MAP',
    ),
  )
  .addOption(
    new Option(
      '--oidc-default-role <role>',
      `single sign-on: the role of people whose claim maps to none, or "none" to refuse them (default: ${DEFAULTS.oidcDefaultRole})`,
    ).env('OIDC_DEFAULT_ROLE'),
  )
  .addOption(new Option('--oidc-label <text>', "single sign-on: the provider's name on the sign-in button (default: SSO)").env('OIDC_LABEL'))
  .addOption(new Option('--oidc-scopes <scopes>', `single sign-on: the scopes asked for (default: ${DEFAULTS.oidcScopes})`).env('OIDC_SCOPES'))
  .addOption(
    new Option(
      '--smtp-url <url>',
      'digests by email: the SMTP server, smtp://[user:password@]host[:port] or smtps://… (prefer the environment variable: flags show in ps; default: no email)',
    ).env('SMTP_URL'),
  )
  .addOption(new Option('--mail-from <address>', 'digests by email: the sender, an address or "Name <address>"').env('MAIL_FROM'))
  .action(async (_options, command: Command) => {
    const config = await loadConfig(command);
    const logger = createLogger(config.logLevel);
    const server = await startServer(config, logger);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        logger.info({ signal }, 'shutting down: finishing requests in flight');
        server.close().then(
          () => process.exit(0),
          (error: unknown) => {
            logger.error({ error: describeFailure(error) }, 'shutdown failed');
            process.exit(1);
          },
        );
      });
    }
  });

const keys = program.command('keys').description('manage license keys (stored only as SHA-256 hashes)');

keys
  .command('create')
  .description('create a key and print it, and only it, on stdout: it cannot be shown again')
  .option('--label <label>', 'a name for the key, e.g. the host group it is for')
  .option('--expires <when>', 'when the key stops working: a duration (90d, 12h) or an ISO date (default: never)')
  .option('--new-hosts-per-day <n>', "hosts new to the key that may enroll per UTC day (default: the server's --key-new-hosts-per-day)")
  .option('--max-hosts <n>', 'most hosts the key may have (default: no maximum)')
  .action(async (options: QuotaFlags & { label?: string; expires?: string }, command: Command) => {
    const expiresAt = options.expires === undefined ? undefined : parseExpiry(options.expires);
    await withDatabase(command, async (orm) => {
      const { id, key } = await createKey(orm, { label: options.label, expiresAt, ...quotasOf(options) });
      process.stderr.write(`Created key ${id}${expiresAt ? `, expires ${expiresAt.toISOString()}` : ''}\n`);
      process.stdout.write(`${key}\n`);
    });
  });

keys
  .command('import')
  .description('import existing keys, one per line, from a file or stdin (never from the command line); prints their ids')
  .argument('[file]', 'file with one key per line; - or nothing: stdin')
  .option('--label <label>', 'a name for the imported keys')
  .option('--expires <when>', 'when the keys stop working: a duration (90d) or an ISO date (default: never)')
  .action(async (file: string | undefined, options: { label?: string; expires?: string }, command: Command) => {
    const expiresAt = options.expires === undefined ? undefined : parseExpiry(options.expires);
    const fromStdin = file === undefined || file === '-';
    if (fromStdin && process.stdin.isTTY) throw new Error('give a file of keys, or pipe them in: keys import < keys.txt');
    const keyList = parseKeyList(fromStdin ? await text(process.stdin) : await readFile(file, 'utf8'));
    await withDatabase(command, async (orm) => {
      const ids = await importKeys(orm, keyList, { label: options.label, expiresAt });
      process.stderr.write(`Imported ${ids.length} key${ids.length === 1 ? '' : 's'}\n`);
      process.stdout.write(ids.map((id) => `${id}\n`).join(''));
    });
  });

keys
  .command('list')
  .description('list keys: id, label, prefix, state, created, expiry, last use, last upload, quotas of hosts (never the key)')
  .action(async (_options, command: Command) => {
    await withDatabase(command, async (orm) => {
      const rows = (await listKeys(orm)).map((k) => [
        k.id,
        k.label ?? '-',
        `${k.prefix}…`,
        k.state,
        k.createdAt.toISOString(),
        k.expiresAt?.toISOString() ?? 'never',
        k.lastUsedAt?.toISOString() ?? 'never',
        k.lastUploadAt?.toISOString() ?? 'never',
        k.newHostsPerDay === null ? 'default' : String(k.newHostsPerDay),
        k.maxHosts === null ? 'none' : String(k.maxHosts),
      ]);
      printTable(['ID', 'LABEL', 'PREFIX', 'STATE', 'CREATED', 'EXPIRES', 'LAST USED', 'LAST UPLOAD', 'NEW HOSTS/DAY', 'MAX HOSTS'], rows);
    });
  });

keys
  .command('revoke')
  .description('revoke a key: every running server refuses it within a second')
  .argument('<id>', 'the key id shown by keys list')
  .action(async (id: string, _options, command: Command) => {
    await withDatabase(command, async (orm) => {
      await revokeKeyOrFail(orm, id);
      process.stderr.write(`Revoked key ${id}\n`);
    });
  });

keys
  .command('rotate')
  .description("issue a new key (printed on stdout) with the old one's label; the old key works until the grace period ends")
  .argument('<id>', 'the key id shown by keys list')
  .requiredOption('--grace <duration>', 'how long the old key keeps working, e.g. 7d or 12h; 0s: stop at once')
  .action(async (id: string, options: { grace: string }, command: Command) => {
    const graceMs = parseDuration(options.grace);
    await withDatabase(command, async (orm) => {
      const rotated = await rotateKey(orm, id, graceMs);
      process.stderr.write(`Created key ${rotated.id}; key ${id} stops working at ${rotated.oldExpiresAt.toISOString()}\n`);
      process.stdout.write(`${rotated.key}\n`);
    });
  });

keys
  .command('set')
  .description("change a key's quotas of hosts or its expiry; every running server applies them from its next commit, an expiry within a second")
  .argument('<id>', 'the key id shown by keys list')
  .option('--new-hosts-per-day <n>', 'hosts new to the key per UTC day, or "default" for the server\'s --key-new-hosts-per-day')
  .option('--max-hosts <n>', 'most hosts the key may have, or "none"')
  .option('--expires <when>', 'when the key stops working: a duration from now (90d, 12h) or an ISO date')
  .option('--no-expiry', 'the key never expires')
  .action(async (id: string, options: QuotaFlags & ExpiryFlags, command: Command) => {
    const settings = { ...quotasOf(options), expiresAt: expiryOf(options) };
    if (Object.values(settings).every((value) => value === undefined)) throw new Error('give --new-hosts-per-day, --max-hosts, --expires or --no-expiry');
    await withDatabase(command, async (orm) => {
      await setKeySettings(orm, id, settings);
      process.stderr.write(`Changed the settings of key ${id}\n`);
    });
  });

/** The expiry flags of `keys set`; commander gives `expiry: false` for `--no-expiry`. */
interface ExpiryFlags {
  expires?: string;
  expiry?: boolean;
}

/** The expiry the flags give: a time, null for `--no-expiry`, undefined when neither is given. */
function expiryOf(flags: ExpiryFlags): Date | null | undefined {
  if (flags.expires !== undefined && flags.expiry === false) throw new Error('give --expires or --no-expiry, not both');
  if (flags.expiry === false) return null;
  return flags.expires === undefined ? undefined : parseExpiry(flags.expires);
}

/** The quota flags of `keys create` and `keys set`. */
interface QuotaFlags {
  newHostsPerDay?: string;
  maxHosts?: string;
}

/** The quotas the flags give: a count, or `default` / `none` (null); absent flags stay undefined. */
const quotasOf = (flags: QuotaFlags) => ({
  newHostsPerDay: flags.newHostsPerDay === undefined ? undefined : parseQuota(flags.newHostsPerDay, 'default', '--new-hosts-per-day'),
  maxHosts: flags.maxHosts === undefined ? undefined : parseQuota(flags.maxHosts, 'none', '--max-hosts'),
});

const adminTokens = program.command('admin-tokens').description('manage the bearer tokens of the admin API (stored only as SHA-256 hashes)');

adminTokens
  .command('create')
  .description('create an admin token and print it, and only it, on stdout: it cannot be shown again')
  .option('--label <label>', 'a name for the token, e.g. what it is for')
  .option('--service-account <name>', 'the service account that uses it, e.g. siem (default: the label, else "cli")')
  .addOption(
    new Option('--role <role>', 'what the token may do: viewer reads and exports, operator also takes day-to-day actions, admin does everything')
      .choices(ADMIN_ROLES)
      .default(DEFAULT_ADMIN_ROLE, `${DEFAULT_ADMIN_ROLE}, as every token made before roles existed`),
  )
  .option('--expires <date>', 'when it stops working: an ISO date (2027-01-31) or a duration (90d); default: never')
  .option('--customer <name>', 'let it see only hosts of this customer (system-customer-name=); repeatable', collectRepeated)
  .option('--group <name>', 'let it see only hosts of this system group; repeatable', collectRepeated)
  .action(async (options: { label?: string; serviceAccount?: string; role: AdminRole; expires?: string } & ScopeFlags, command: Command) => {
    const expiresAt = options.expires === undefined ? null : parseExpiry(options.expires);
    await withDatabase(command, async (orm) => {
      const { id, token } = await createAdminToken(orm, {
        label: options.label,
        role: options.role,
        serviceAccount: options.serviceAccount ?? options.label ?? 'cli',
        expiresAt,
        scope: scopeOfFlags(options),
      });
      process.stderr.write(`Created admin token ${id}\n`);
      process.stdout.write(`${token}\n`);
    });
  });

adminTokens
  .command('list')
  .description('list admin tokens: id, kind, owner or service account, label, role, scope, prefix, created, last use, expiry, revoked (never the token)')
  .action(async (_options, command: Command) => {
    await withDatabase(command, async (orm) => printTable(ADMIN_TOKEN_LIST_HEADER, adminTokenListRows(await listAdminTokens(orm))));
  });

adminTokens
  .command('revoke')
  .description('revoke an admin token: refused from its next request on, by every server')
  .argument('<id>', 'the token id shown by admin-tokens list')
  .action(async (id: string, _options, command: Command) => {
    await withDatabase(command, async (orm) => {
      await revokeAdminTokenOrFail(orm, id);
      process.stderr.write(`Revoked admin token ${id}\n`);
    });
  });

const users = program.command('users').description('manage the accounts of people (passwords stored only as argon2id hashes); works with the server down');

users
  .command('add')
  .description('add an account, e.g. the first admin of a fresh install; prints its id (never the password)')
  .requiredOption('--email <email>', 'the email the person signs in with (case does not matter)')
  .requiredOption('--role <role>', `what the person may do: ${ROLES.join(' < ')}`)
  .option('--name <name>', 'the name shown for the person')
  .option('--customer <name>', 'let the person see only hosts of this customer (system-customer-name=); repeatable', collectRepeated)
  .option('--group <name>', 'let the person see only hosts of this system group; repeatable', collectRepeated)
  .requiredOption('--password-stdin', 'read the password (at least 12 characters) from stdin: never give it on the command line')
  .action(async (options: UserAddFlags, command: Command) => {
    const password = await readPasswordFrom(process.stdin);
    await withDatabase(command, async (orm) => {
      const user = await addUserWithPassword(orm, options, password);
      process.stderr.write(`Added user ${user.email} (${user.role})\n`);
      process.stdout.write(`${user.id}\n`);
    });
  });

users
  .command('list')
  .description('list accounts: id, email, name, role, scope, state, created, last sign-in (never a password or its hash)')
  .action(async (_options, command: Command) => {
    await withDatabase(command, async (orm) => printTable(USER_LIST_HEADER, userListRows(await listUsers(orm))));
  });

users
  .command('set-role')
  .description('give an account another role (the last enabled admin keeps theirs)')
  .argument('<email>', 'the email of the account')
  .argument('<role>', ROLES.join(', '))
  .action(async (email: string, role: string, _options, command: Command) => {
    await withDatabase(command, async (orm) => {
      const user = await setUserRole(orm, email, parseRole(role));
      process.stderr.write(`User ${user.email} is now ${user.role}\n`);
    });
  });

for (const [name, disabled] of [
  ['disable', true],
  ['enable', false],
] as const) {
  users
    .command(`${name} <email>`)
    .description(disabled ? 'disable an account: it can no longer sign in (kept, with its role)' : 'enable a disabled account again')
    .action(async (email: string, _options, command: Command) => {
      await withDatabase(command, async (orm) => {
        const user = await setUserDisabled(orm, email, disabled);
        process.stderr.write(`${disabled ? 'Disabled' : 'Enabled'} user ${user.email}\n`);
      });
    });
}

users
  .command('set-scope')
  .description('limit which hosts an account sees (its sessions end); no --customer nor --group: every host')
  .requiredOption('--email <email>', 'the email of the account')
  .option('--customer <name>', 'hosts of this customer (system-customer-name=); repeatable', collectRepeated)
  .option('--group <name>', 'hosts of this system group; repeatable', collectRepeated)
  .action(async (options: { email: string } & ScopeFlags, command: Command) => {
    await withDatabase(command, async (orm) => {
      const user = await setUserScope(orm, options.email, scopeOfFlags(options));
      process.stderr.write(`User ${user.email} now sees ${scopeText(user.scope)}\n`);
    });
  });

users
  .command('delete')
  .description('delete an account with its sessions and personal tokens (never the last enabled admin)')
  .argument('<email>', 'the email of the account')
  .action(async (email: string, _options, command: Command) => {
    await withDatabase(command, async (orm) => {
      const user = await deleteUser(orm, email);
      process.stderr.write(`Deleted user ${user.email}\n`);
    });
  });

users
  .command('reset-password')
  .description("replace an account's password")
  .argument('<email>', 'the email of the account')
  .requiredOption('--password-stdin', 'read the new password (at least 12 characters) from stdin: never give it on the command line')
  .action(async (email: string, _options, command: Command) => {
    const password = await readPasswordFrom(process.stdin);
    await withDatabase(command, async (orm) => {
      const user = await resetUserPassword(orm, email, password);
      process.stderr.write(`Changed the password of user ${user.email}\n`);
    });
  });

const hosts = program.command('hosts').description('read the hosts that uploaded, straight from the database (works with the server down)');

hosts
  .command('list')
  .description(
    'list hosts, most recently seen first unless --sort says otherwise: id, host name, hostid, OS, hardening index, warnings, reports, last seen, groups, tags',
  )
  .option('--hostname <text>', 'only hosts whose host name contains this text (case-insensitive)')
  .option('--group <name>', 'only hosts whose latest report lists this group (system-groups=; case-insensitive)')
  .option('--tag <name>', 'only hosts whose latest report lists this tag (tags=; case-insensitive)')
  .option('--os <name>', 'only hosts with this operating system, as the OS column shows it (case-insensitive)')
  .option('--key <id>', 'only hosts that upload with this license key (its id, the ID column of keys list)')
  .option('--compliance <state>', 'only hosts with this compliance: compliant, noncompliant, waived or unknown (waivers applied)')
  .option('--failing-policy <id>', 'only hosts failing (or erring on) a rule of this policy that no waiver covers (its id)')
  .option('--failing-rule <rule-id>', 'only hosts failing this rule (of --failing-policy when given) that no waiver covers')
  .option('--sort <column>', 'order by lastSeen (default), hostname, hardeningIndex, warnings or compliance')
  .option('--order <order>', 'desc (default) or asc; hosts without a value come last either way')
  .option('--limit <n>', 'most hosts to show, 1 to 500 (default 50)')
  .option('--offset <n>', 'hosts to skip, for the next page')
  .option('--json', 'print the page as the admin API answers it (listHosts)')
  .action(async (options: HostListFlags & { json?: boolean }, command: Command) => {
    const query = hostListQuery(options);
    await withDatabase(command, async (orm) => {
      const page = await hostPage(orm, UNSCOPED, query);
      if (options.json) return void process.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
      if (page.items.length > 0) printTable(HOST_LIST_HEADER, hostListRows(page.items));
      process.stdout.write(hostPageLine(page));
    });
  });

hosts
  .command('show')
  .description('show a host and the hardening index of its newest reports')
  .argument('<id>', 'the host id shown by hosts list')
  .option('--history <n>', 'how many of the newest reports the hardening history covers (default 10)', '10')
  .option('--json', 'print the host as the admin API answers it (getHost)')
  .action(async (id: string, options: { history: string; json?: boolean }, command: Command) => {
    const history = historyLimit(options.history);
    await withDatabase(command, async (orm) => {
      const host = await hostDetail(orm, UNSCOPED, checkHostId(id), history);
      if (!host) throw notFound('host', id);
      process.stdout.write(options.json ? `${JSON.stringify(host, null, 2)}\n` : describeHost(host));
    });
  });

const policies = program.command('policies').description("manage compliance policies (CEL rules evaluated on each host's latest report)");

policies
  .command('enable-baseline')
  .description(
    'create the shipped Baseline policy: hardening index >= 50, no vulnerable packages, firewall active, no warnings besides PKGS-7392 and LOGG-2138, audited within 7 days',
  )
  .action(async (_options, command: Command) => {
    await withDatabase(command, async (orm) => {
      const policy = await createPolicy(orm, BASELINE_POLICY);
      process.stderr.write(`Created policy ${policy.name} (${policy.id}); running servers evaluate every host within a minute\n`);
    });
  });

policies
  .command('preview-baseline')
  .description(
    `show how many hosts each rule of the shipped Baseline would pass and fail, before enabling it (the ${PREVIEW_MAX_HOSTS} most recently seen hosts at most)`,
  )
  .action(async (_options, command: Command) => {
    await withDatabase(command, async (orm) => {
      const preview = await previewPolicy(orm, UNSCOPED, BASELINE_POLICY);
      const share = (count: number, of: number) => (of === 0 ? '-' : `${Math.round((100 * count) / of)}%`);
      printTable(
        ['RULE', 'EVALUATED', 'PASS', 'FAIL', 'ERROR', 'PASSING'],
        preview.rules.map((rule) => [rule.ruleId, rule.evaluated, rule.passing, rule.failing, rule.errors, share(rule.passing, rule.evaluated)].map(String)),
      );
      process.stdout.write(`hosts evaluated: ${preview.evaluatedHosts} of ${preview.hostsWithReports} with a report\n`);
      process.stdout.write(`hosts failing or erring on a rule: ${preview.failingHosts} of ${preview.evaluatedHosts}\n`);
    });
  });

policies
  .command('list')
  .description('list policies: id, name, enabled, scope, rules')
  .action(async (_options, command: Command) => {
    await withDatabase(command, async (orm) => {
      const rows = (await listPolicies(orm)).map((policy) => [
        policy.id,
        policy.name,
        policy.enabled ? 'yes' : 'no',
        Object.entries(policy.scope)
          .filter(([, value]) => value !== null)
          .map(([name, value]) => `${name}=${value}`)
          .join(' ') || 'every host',
        policy.rules.map((rule) => rule.id).join(', '),
        policy.quarantine ? `${policy.quarantine.at.toISOString()} ${policy.quarantine.reason}` : '-',
      ]);
      printTable(['ID', 'NAME', 'ENABLED', 'SCOPE', 'RULES', 'QUARANTINED'], rows);
    });
  });

// Straight against the database, so that they work with every server down (a policy that stops servers).
for (const [name, enabled] of [
  ['disable', false],
  ['enable', true],
] as const) {
  policies
    .command(`${name} <id>`)
    .description(
      enabled ? 'enable a policy (clears its quarantine); works with the server down' : 'disable a policy (kept, not evaluated); works with the server down',
    )
    .action(async (id: string, _options, command: Command) => {
      await withDatabase(command, async (orm) => {
        const policy = await setPolicyEnabled(orm, id, enabled);
        process.stderr.write(`${enabled ? 'Enabled' : 'Disabled'} policy ${policy.name} (${policy.id})\n`);
      });
    });
}

policies
  .command('delete <id>')
  .description('delete a policy with its results and waivers; works with the server down')
  .action(async (id: string, _options, command: Command) => {
    await withDatabase(command, async (orm) => {
      await deletePolicy(orm, id);
      process.stderr.write(`Deleted policy ${id}\n`);
    });
  });

const controls = program.command('controls').description('manage the control mapping of frameworks (CIS, ISO27001, or any name); works with the server down');

controls
  .command('import')
  .description('import a control mapping file (CSV: framework,control_id,title,test_ids,rule_ids), replacing the frameworks it names')
  .argument('<file>', 'the mapping file; - for stdin')
  .action(async (file: string, _options, command: Command) => {
    const mapping = file === '-' ? await text(process.stdin) : await readFile(file, 'utf8');
    await withDatabase(command, async (orm) => {
      const imported = await importControlFile(orm, mapping);
      process.stderr.write(`Imported ${imported.controls} control${imported.controls === 1 ? '' : 's'} of ${imported.frameworks.join(', ')}\n`);
    });
  });

controls
  .command('list')
  .description('list the frameworks with their number of controls; with --framework, its controls with their hosts passing, failing and unknown')
  .option('--framework <name>', 'the framework whose controls to list (any case)')
  .action(async (options: { framework?: string }, command: Command) => {
    await withDatabase(command, async (orm) => {
      const report = await controlReport(orm, UNSCOPED, options.framework);
      if (options.framework === undefined) {
        printTable(
          ['FRAMEWORK', 'CONTROLS'],
          report.frameworks.map((framework) => [framework.name, String(framework.controls)]),
        );
        return;
      }
      if (report.framework === null) throw new Error(`no framework named ${JSON.stringify(options.framework)}`);
      const rows = report.controls.map((control) => [
        control.controlId,
        String(control.hosts.passing),
        String(control.hosts.failing),
        String(control.hosts.unknown),
        control.testIds.join(' ') || '-',
        control.ruleIds.join(' ') || '-',
        control.title ?? '-',
      ]);
      printTable(['CONTROL', 'PASSING', 'FAILING', 'UNKNOWN', 'TESTS', 'RULES', 'TITLE'], rows);
    });
  });

program
  .command('prune')
  .description("delete the reports no retention rule keeps (never a host's newest) and print how many")
  .addOption(new Option('--keep-last <n>', "keep each host's newest n reports (default: the retentionKeepLast setting)").env('RETENTION_KEEP_LAST'))
  .addOption(new Option('--max-age-days <days>', 'keep reports younger than this (default: the retentionMaxAgeDays setting)').env('RETENTION_MAX_AGE_DAYS'))
  .option('--dry-run', 'only count what would be deleted')
  .action(async (options: { keepLast?: string; maxAgeDays?: string; dryRun?: boolean }, command: Command) => {
    const config = await loadConfig(command, { retentionKeepLast: options.keepLast, retentionMaxAgeDays: options.maxAgeDays });
    const rules = { keepLast: config.retentionKeepLast, maxAgeDays: config.retentionMaxAgeDays };
    if (!hasRetentionRule(rules)) throw new Error('no retention rule: give --keep-last and/or --max-age-days');
    await withDatabase(command, async (orm) => {
      const count = await pruneReports(orm, rules, { dryRun: options.dryRun });
      process.stdout.write(`${options.dryRun ? 'Would delete' : 'Deleted'} ${count} report${count === 1 ? '' : 's'}\n`);
    });
  });

const audit = program.command('audit').description('check the audit trail (works with the server down)');

audit
  .command('verify')
  .description("walk the audit trail's hash chain from its oldest entry; exit non-zero naming the first entry altered or whose predecessor was removed")
  .action(async (_options: unknown, command: Command) => {
    await withDatabase(command, async (orm) => {
      const verdict = await verifyAuditChain(orm);
      process.stdout.write(`Checked ${verdict.checked} audit entr${verdict.checked === 1 ? 'y' : 'ies'}\n`);
      if (!verdict.intact) throw new Error(`the audit trail is broken at entry ${verdict.sequence}: ${verdict.problem}`);
      process.stdout.write('The audit trail is intact\n');
    });
  });

program
  .command('seed-demo')
  .description('fill an empty database with a demo fleet (hosts, weeks of reports, refused uploads, a key labelled demo) to try the dashboard')
  .option('--hosts <n>', `hosts of the fleet, 1 to ${DEMO_MAX_HOSTS} (default: ${DEMO_DEFAULT_HOSTS})`)
  .option('--seed <n>', `the same seed makes the same fleet (default: ${DEMO_DEFAULT_SEED})`)
  .option('--force', 'seed even a database that already holds reports (the fleet is added beside them; nothing is deleted)')
  .action(async (options: { hosts?: string; seed?: string; force?: boolean }, command: Command) => {
    const config = await loadConfig(command);
    await withDatabase(command, async (orm) => {
      const seeded = await seedDemo(orm, { hosts: numberOption(options.hosts), seed: numberOption(options.seed), force: options.force });
      process.stdout.write(seededDemoText(seeded, { dataDir: config.dataDir, postgresql: config.databaseUrl !== undefined, port: config.port }));
    });
  });

/** A number flag's value, undefined when absent (the command checks its range). */
const numberOption = (value: string | undefined) => (value === undefined ? undefined : Number(value));

async function withDatabase(command: Command, work: (orm: Database) => Promise<void>): Promise<void> {
  const config = await loadConfig(command);
  if (!config.databaseUrl) await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const orm = await openDatabase(config);
  try {
    await work(orm);
  } finally {
    await orm.close();
  }
}

/**
 * Settings from flags and environment over the config file (if one is given) over defaults, validated.
 * `overrides`: settings a command takes under flags of other names.
 */
async function loadConfig(command: Command, overrides: Record<string, unknown> = {}): Promise<ServerConfig> {
  const options = command.optsWithGlobals<{ config?: string; webhookAllowPrivate?: boolean }>();
  const file = options.config ? await readConfigFile(options.config) : undefined;
  // A boolean flag's environment twin is read here: commander would take any value of it, `false` too, as "on".
  const webhookAllowPrivate = options.webhookAllowPrivate ?? process.env.WEBHOOK_ALLOW_PRIVATE;
  return parseServerConfig({ ...options, webhookAllowPrivate, ...overrides }, file);
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows]) {
    process.stdout.write(
      `${row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()}\n`,
    );
  }
}

// The one place a failure ends a command: a domain's `DomainError` (bad input, no such key, token or policy, a
// state that forbids the change) as its message, written for operators, like every other failure; exit status 1.
program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`audit-server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
