import { readFile } from 'node:fs/promises';
import {
  DEFAULT_BODY_GRACE_MS,
  DEFAULT_MAX_BODIES_PER_ADDRESS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_BODY_BYTES_IN_FLIGHT,
  DEFAULT_MAX_FIELDS,
  DEFAULT_MIN_BODY_BYTES_PER_SECOND,
  TOOL_SEGMENT_PATTERN,
} from '@org/audit-server-core';
import { z } from 'zod';
import { DEFAULT_AUDIT_RETENTION_DAYS } from './audit/audit-retention.js';
import { DATABASE_URL_SCHEMES } from './database/dialects.js';
import { DEFAULT_NEW_HOSTS_PER_DAY } from './hosts/host-admission.js';
import { DEFAULT_AUTO_PURGE_AFTER, DEFAULT_STALE_DAYS, parseDays, parseGroupValues } from './hosts/lifecycle-settings.js';
import { parseDuration } from './duration.js';
import { DEFAULT_SESSION_LIMITS } from './people/session-limits.js';
import { ROLES } from './people/roles.js';
import { parseRoleMap } from './sso/role-mapping.js';
import { DEFAULT_WAIVER_MAX_DAYS } from './policies/waiver-limits.js';
import { DEFAULT_FINDING_ACCEPTANCE } from './findings/finding-settings.js';
import { smtpUrlProblem } from './digests/mail-settings.js';

/** `host:port`, an IPv6 host in brackets: `127.0.0.1:8444`, `[::1]:8444`, `mgmt.example.org:8444`. */
const LISTEN_ADDRESS = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/;

const ADMIN_LISTEN_ERROR = 'must be host:port ([::1]:8444 for IPv6) or "off"';

/** A database URL: it starts with a scheme that selects a dialect (`postgres://`, `postgresql://`). */
const DATABASE_URL = new RegExp(`^(${DATABASE_URL_SCHEMES.map((scheme) => scheme.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})`);

/** A listener's address: `host:port` (port 0: any free one). */
const ListenAddress = z
  .string()
  .regex(LISTEN_ADDRESS)
  .transform((value) => {
    const [, ipv6, host, port] = LISTEN_ADDRESS.exec(value)!;
    return { host: ipv6 ?? host!, port: Number(port) };
  })
  .refine((address) => address.port <= 65535, ADMIN_LISTEN_ERROR);

/** A refinement that reports the message `parse` throws on the text. */
const checkedBy = (parse: (text: string) => unknown) => (text: string, context: z.RefinementCtx) => {
  try {
    parse(text);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
  }
};

const ServerSettings = z.object({
  dataDir: z.string().min(1).default('data'),
  host: z.string().min(1).default('0.0.0.0'),
  port: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(8443),
  tlsCert: z.string().min(1).optional(),
  tlsKey: z.string().min(1).optional(),
  plainHttp: z.boolean().default(false),
  // The name hosts reach the server by, for the enroll command and script; unset: the admin request's host name.
  publicHost: z
    .string()
    .regex(/^([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\]|[0-9A-Fa-f:.]{2,45})$/, 'must be a host name or an IP address')
    .transform((host) => host.replace(/^\[(.*)\]$/, '$1'))
    .optional(),
  toolSegment: z
    .string()
    .regex(TOOL_SEGMENT_PATTERN, 'must be one URL path segment, e.g. audit or lynis')
    .refine((segment) => segment !== 'admin', 'cannot be "admin": /api/admin/ is the admin API')
    .default('audit'),
  // Resource limits (docs/operating.md, "Limits and abuse protection", says why each default).
  maxBodyBytes: z.coerce.number().int().min(1024).default(DEFAULT_MAX_BODY_BYTES),
  maxFields: z.coerce.number().int().min(4).default(DEFAULT_MAX_FIELDS),
  maxBodyBytesInFlight: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(DEFAULT_MAX_BODY_BYTES_IN_FLIGHT),
  maxBodiesPerAddress: z.coerce.number().int().min(1).default(DEFAULT_MAX_BODIES_PER_ADDRESS),
  minBodyBytesPerSecond: z.coerce.number().int().min(0).default(DEFAULT_MIN_BODY_BYTES_PER_SECOND),
  bodyGraceMs: z.coerce.number().int().min(100).default(DEFAULT_BODY_GRACE_MS),
  headersTimeoutMs: z.coerce.number().int().min(1000).default(20_000),
  requestTimeoutMs: z.coerce.number().int().min(1000).default(120_000),
  tlsHandshakeTimeoutMs: z.coerce.number().int().min(100).default(5000),
  maxConnectionsPerAddress: z.coerce.number().int().min(1).default(128),
  // Rate limits; 0 turns one off.
  rateLimitAddress: z.coerce.number().int().min(0).default(1200),
  rateLimitKey: z.coerce.number().int().min(0).default(6000),
  rateLimitFailures: z.coerce.number().int().min(0).default(30),
  /** A URL of a dialect that has one (PostgreSQL); unset: SQLite in the data directory. */
  databaseUrl: z
    .string()
    .regex(DATABASE_URL, `must be a ${DATABASE_URL_SCHEMES.join(' or ')} URL`)
    .optional(),
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  redisPrefix: z.string().min(1).default('audit-rate-limit'),
  trustProxy: z
    .string()
    .regex(
      /^(\d+|[0-9a-fA-F:./]+(,\s*[0-9a-fA-F:./]+)*|loopback|linklocal|uniquelocal)$/,
      'must be a hop count, proxy addresses or subnets, or loopback, linklocal or uniquelocal',
    )
    .optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Operations: health, readiness and metrics on their own address, never the collectors' port; shutdown.
  opsHost: z.string().min(1).default('127.0.0.1'),
  opsPort: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)], { error: 'must be a port number or "off"' }).default(9464),
  // The admin API: unset, on the collectors' listener; a listener of its own; or not served.
  adminListen: z.union([z.literal('off'), ListenAddress], { error: ADMIN_LISTEN_ERROR }).optional(),
  shutdownTimeoutSeconds: z.coerce.number().min(0).default(30),
  // Retention: off unless a rule is set; a host's newest report is always kept.
  retentionKeepLast: z.coerce.number().int().min(1).optional(),
  retentionMaxAgeDays: z.coerce.number().positive().optional(),
  pruneIntervalMinutes: z.coerce.number().min(0).default(60),
  // Refused uploads and license checks: written in batches, kept for some days.
  rejectionsKeepDays: z.coerce.number().int().min(1).default(30),
  rejectionsFlushMs: z.coerce.number().int().min(100).max(600_000).default(5000),
  // The audit trail: entries older than this are deleted, the oldest first, so the rest stays one chain.
  auditRetentionDays: z.coerce.number().int().min(1).default(DEFAULT_AUDIT_RETENTION_DAYS),
  // The intake: what a changed hostid2 does, and how many hosts new to a key may enroll per UTC day (a first
  // enrollment of thousands of hosts in a day fits; a flood of made-up host ids stops there).
  hostIdentity: z.enum(['record', 'strict']).default('record'),
  // A report under a new hostid with a known host's hostid2 and machine id joins that host (`off`: it is a new host).
  identityMerge: z.enum(['auto', 'off']).default('auto'),
  keyNewHostsPerDay: z.coerce.number().int().min(0).default(DEFAULT_NEW_HOSTS_PER_DAY),
  // Host lifecycle (docs/hosts.md): stale after days without a report (system groups may have their own), and
  // decommissioned after a group's expiry, or after the auto-purge window for hosts that allow it.
  staleDays: z.coerce.number().int().min(1).max(3650).default(DEFAULT_STALE_DAYS),
  groupStaleDays: z
    .string()
    .default('')
    .superRefine(checkedBy((text) => parseGroupValues(text, parseDays))),
  groupExpireAfter: z
    .string()
    .default('')
    .superRefine(checkedBy((text) => parseGroupValues(text, parseDuration))),
  autoPurgeAfter: z.string().default(DEFAULT_AUTO_PURGE_AFTER).superRefine(checkedBy(parseDuration)),
  // Findings about Lynis itself (test LYNIS: "this release is old") are kept; `hide` leaves them out of fleet lists.
  lynisOwnFindings: z.enum(['hide', 'show']).default('hide'),
  // Webhooks: receivers on loopback, private and link-local addresses only when allowed. The flag gives a boolean,
  // the environment a string (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`).
  webhookAllowPrivate: z.union([z.boolean(), z.stringbool()], { error: 'must be true or false' }).default(false),
  // Compliance: the longest an exception to a rule (a waiver) may run, in days from its creation.
  waiverMaxDays: z.coerce.number().int().min(1).max(3650).default(DEFAULT_WAIVER_MAX_DAYS),
  // Findings: whether an accepted risk's approver must be another person than the one asking, and the role accepting needs.
  findingApproval: z.enum(['distinct', 'any']).default(DEFAULT_FINDING_ACCEPTANCE.approval),
  findingAcceptRole: z.enum(['operator', 'admin']).default(DEFAULT_FINDING_ACCEPTANCE.acceptRole),
  // People's sessions: unused this long they end, and they end this long after sign-in however busy.
  sessionIdleMinutes: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(DEFAULT_SESSION_LIMITS.idleMinutes),
  sessionMaxHours: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24)
    .default(DEFAULT_SESSION_LIMITS.maxHours),
  // Single sign-on (OpenID Connect): off unless an issuer is given (docs/single-sign-on.md). The secret is never logged.
  oidcIssuer: z.url({ protocol: /^https$/, error: 'must be the https:// URL of the OpenID provider' }).optional(),
  oidcClientId: z.string().min(1).optional(),
  oidcClientSecret: z.string().min(1).optional(),
  oidcRedirectUrl: z.url({ protocol: /^https?$/, error: 'must be an https:// URL (http:// for localhost)' }).optional(),
  oidcRoleClaim: z.string().min(1).default('groups'),
  oidcRoleMap: z
    .string()
    .default('')
    .superRefine((text, context) => {
      try {
        parseRoleMap(text);
      } catch (error) {
        context.addIssue({ code: 'custom', message: `must be value=role pairs separated by commas: ${(error as Error).message}` });
      }
    }),
  oidcDefaultRole: z.enum(['none', ...ROLES], { error: `must be none or a role: ${ROLES.join(', ')}` }).default('none'),
  oidcLabel: z.string().trim().min(1).max(64).optional(),
  oidcScopes: z
    .string()
    .default('openid email profile')
    .refine((scopes) => scopes.split(/\s+/).includes('openid'), 'must include openid'),
  // Digests by email (docs/compliance-and-alerts.md): the SMTP server, whose URL may carry credentials (never logged
  // nor repeated in an error), and the sender. Without them digests are still issued, their delivery `skipped`.
  smtpUrl: z
    .string()
    .superRefine((text, context) => {
      const problem = smtpUrlProblem(text);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  mailFrom: z
    .string()
    .trim()
    .max(320)
    .regex(/^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, 'must be an email address, or a name and <address>')
    .optional(),
});

/** What single sign-on cannot work without: given one, the others are needed too. */
const OIDC_REQUIRED = ['oidcIssuer', 'oidcClientId', 'oidcClientSecret'] as const;
/** Settings that mean something only with single sign-on on. */
const OIDC_OPTIONAL = ['oidcRedirectUrl', 'oidcLabel'] as const;

/** Everything the reference server can be told, with its defaults. Parsed once at start. */
export const ServerConfigSchema = ServerSettings.refine((c) => Boolean(c.tlsCert) === Boolean(c.tlsKey), {
  message: 'give both a TLS certificate and its key, or neither',
})
  .refine((c) => !(c.plainHttp && c.tlsCert), { message: 'plain HTTP and a TLS certificate exclude each other' })
  .refine((c) => c.headersTimeoutMs <= c.requestTimeoutMs, { message: 'the headers timeout cannot be longer than the request timeout' })
  .refine((c) => c.maxBodyBytes <= c.maxBodyBytesInFlight, {
    message: 'the body budget cannot be smaller than the largest body: no upload of that size could ever be taken',
    path: ['maxBodyBytesInFlight'],
  })
  .refine((c) => c.opsPort === 'off' || c.opsPort === 0 || c.opsPort !== c.port, {
    message: "the operations port must differ from the collectors' port",
    path: ['opsPort'],
  })
  .refine((c) => typeof c.adminListen !== 'object' || c.adminListen.port === 0 || (c.adminListen.port !== c.port && c.adminListen.port !== c.opsPort), {
    message: "the admin port must differ from the collectors' port and the operations port",
    path: ['adminListen'],
  })
  .superRefine((c, context) => {
    const given = [...OIDC_REQUIRED, ...OIDC_OPTIONAL].filter((name) => c[name] !== undefined);
    const missing = OIDC_REQUIRED.filter((name) => c[name] === undefined);
    if (given.length > 0 && missing.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `single sign-on needs ${OIDC_REQUIRED.join(', ')} together (given: ${given.join(', ')}); missing: ${missing.join(', ')}`,
        path: [missing[0]!],
      });
    }
  })
  .refine((c) => c.smtpUrl === undefined || c.mailFrom !== undefined, {
    message: 'digest emails need a sender: give --mail-from (MAIL_FROM) with --smtp-url',
    path: ['mailFrom'],
  })
  .refine((c) => c.mailFrom === undefined || c.smtpUrl !== undefined, {
    message: 'a sender means something only with an SMTP server: give --smtp-url (SMTP_URL) too',
    path: ['smtpUrl'],
  });

/** Validated server configuration. */
export type ServerConfig = z.infer<typeof ServerConfigSchema>;

/** The configuration when nothing is set: the one place defaults live (the CLI's help shows these). */
export const DEFAULT_SERVER_CONFIG: ServerConfig = ServerConfigSchema.parse({});

/** Names a config file may use: exactly the settings' names. */
const SETTING_NAMES = new Set(Object.keys(ServerSettings.shape));

/**
 * Validates settings into a {@link ServerConfig}, or throws one readable message naming every problem.
 * `raw` holds flags and environment (flags win, as the CLI merges them); `file` holds a config file's settings,
 * which either of those overrides; defaults fill the rest.
 */
export function parseServerConfig(
  raw: Record<string, unknown>,
  file: { path: string; settings: Record<string, unknown> } = { path: '', settings: {} },
): ServerConfig {
  const given = Object.fromEntries(Object.entries(raw).filter(([name, value]) => SETTING_NAMES.has(name) && value !== undefined));
  const result = ServerConfigSchema.safeParse({ ...file.settings, ...given });
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    const where = name && !(name in given) && name in file.settings ? ` (in ${file.path})` : '';
    return `${name || 'config'}${where}: ${issue.message}`;
  });
  throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}

/** Reads a JSON config file whose keys are the settings' names (`port`, `opsPort`, …); unknown keys are refused. */
export async function readConfigFile(path: string): Promise<{ path: string; settings: Record<string, unknown> }> {
  let settings: unknown;
  try {
    settings = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (error as Error).message;
    throw new Error(`Cannot read config file ${path}: ${reason}`, { cause: error });
  }
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    throw new Error(`Config file ${path} must hold one JSON object of settings`);
  }
  const unknown = Object.keys(settings).filter((name) => !SETTING_NAMES.has(name));
  if (unknown.length > 0) {
    throw new Error(`Config file ${path}: unknown setting ${unknown.map((name) => `"${name}"`).join(', ')}; known: ${[...SETTING_NAMES].join(', ')}`);
  }
  return { path, settings: settings as Record<string, unknown> };
}
