import type { IncomingHttpHeaders } from 'node:http';
import { OpenAPIBackend, type Context, type Document } from 'openapi-backend';
import addFormats from 'ajv-formats';
import { describeFailure, openApiDocument, type AuditLogger, type AuditRateLimiter } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../database/unavailable.js';
import { DomainError } from '../errors/domain-error.js';
import { DEFAULT_WAIVER_MAX_DAYS } from '../policies/waiver-limits.js';
import { DEFAULT_FINDING_ACCEPTANCE, type FindingAcceptanceSettings } from '../findings/finding-settings.js';
import { DamagedReportError } from '../reports/report-content.js';
import { AdminTokenAuthenticator } from './auth.js';
import { isAudited, recordAdminRequest, type AuditRecording, type RequestTrail, type RoutedOperation } from './audit-recording.js';
import { auditRoutes } from './audit-routes.js';
import { enrollmentRoutes } from './enrollment-routes.js';
import { exportRoutes } from './export-routes.js';
import { fleetRoutes } from './fleet-routes.js';
import { hostRoutes } from './host-routes.js';
import { keyRoutes } from './key-routes.js';
import type { AdminActor, AdminContext, AdminHandlers, AdminInput, AdminOperationId, RawReply } from './operation.js';
import { policyRoutes } from './policy-routes.js';
import { rejectionRoutes } from './rejection-routes.js';
import { reportRoutes } from './report-routes.js';
import { crossSiteProblem, domainProblem, forbiddenProblem, jsonResponse, problemResponse, type AdminResponse } from './responses.js';
import { roleAllows, type AdminRole } from '../people/roles.js';
import type { SessionLimits } from '../people/session-limits.js';
import { SessionStore, sessionIdFromCookies } from '../people/sessions.js';
import { createSignInLockout, type SignInLockout } from '../people/sign-in-lockout.js';
import { createRateLimiter } from '../http/rate-limiter-store.js';
import { operationsWithoutARole, requiredRole } from './roles.js';
import { changesSomething, isCrossSite, isSameOrigin } from './same-origin.js';
import { sessionRoutes } from './session-routes.js';
import type { SingleSignOn } from '../sso/single-sign-on.js';
import type { EnrollmentSettings } from '../enrollment/enrollment-settings.js';
import { ssoRoutes } from './sso-routes.js';
import { tokenRoutes } from './token-routes.js';
import { userRoutes } from './user-routes.js';
import { webhookRoutes } from './webhook-routes.js';
import { hostLifecycleRoutes } from './host-lifecycle-routes.js';
import { findingRoutes } from './finding-routes.js';
import { complianceHistoryRoutes } from './compliance-history-routes.js';
import { controlRoutes } from './control-routes.js';
import { digestRoutes } from './digest-routes.js';
import type { DigestServerSettings } from '../digests/digest-issuing.js';
import { digestPath } from '../digests/digest-records.js';
import { DEFAULT_LIFECYCLE, type LifecycleSettings } from '../hosts/lifecycle-settings.js';

/** What the contract's admin operations are tagged with. */
const ADMIN_TAG = 'admin';
/** The handler of every admin operation, each subject's from its `*-routes.ts`: one missing or misspelled does not compile. */
const HANDLERS = {
  ...sessionRoutes,
  ...ssoRoutes,
  ...userRoutes,
  ...tokenRoutes,
  ...auditRoutes,
  ...enrollmentRoutes,
  ...hostRoutes,
  ...hostLifecycleRoutes,
  ...findingRoutes,
  ...complianceHistoryRoutes,
  ...controlRoutes,
  ...digestRoutes,
  ...reportRoutes,
  ...keyRoutes,
  ...rejectionRoutes,
  ...fleetRoutes,
  ...policyRoutes,
  ...webhookRoutes,
  ...exportRoutes,
} satisfies AdminHandlers<AdminOperationId>;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const silentLogger: AuditLogger = { info() {}, warn() {}, error() {} };

/** The token could not be checked: not the client's fault, so never a 401 nor a failed login. */
class TokenCheckFailedError extends Error {
  override name = 'TokenCheckFailedError';
}

/** A valid token or session whose role is below the one the operation requires: answered 403, and not a failed login. */
class RoleRefusal {
  constructor(
    readonly role: AdminRole,
    readonly requiredRole: AdminRole,
    readonly actor: AdminActor,
  ) {}
}

/** A valid session on a request that changes something without proof that it comes from the server's own pages: answered 403. */
class CrossSiteRefusal {
  constructor(readonly actor: AdminActor) {}
}

/** How to build an {@link AdminApi}. */
export interface AdminApiOptions {
  database: Database;
  /** Checks admin tokens; default: against the database's `admin_token` table. */
  authenticator?: AdminTokenAuthenticator;
  /** The collectors' limiter: admin requests count per address, failed admin logins as failed key checks. */
  rateLimiter?: AuditRateLimiter;
  /** Where changes and refused requests are logged (never a token or key). Default: nowhere. */
  logger?: AuditLogger;
  /** Woken when policies change. */
  policyEvaluator?: { wake(): void };
  /** Woken when a webhook delivery is queued again. */
  webhookDispatcher?: { wake(): void };
  /** Whether webhook URLs may name loopback, private and link-local hosts; default: refused. */
  webhookAllowPrivate?: boolean;
  /** The longest a waiver may run, in days (`--waiver-max-days`); default 365. */
  waiverMaxDays?: number;
  /** Who may accept a finding's risk (`--finding-approval`, `--finding-accept-role`); default: another person, any operator. */
  findingAcceptance?: FindingAcceptanceSettings;
  /** How long people's sessions last; default 30 minutes idle, 12 hours in all. */
  sessionLimits?: SessionLimits;
  /** The lockout against guessing passwords; default: counted in this process. */
  signInLockout?: SignInLockout;
  /** The clock of sessions (tests move it); default: the system's. */
  now?: () => Date;
  /** Single sign-on through an OpenID provider; default: not offered. */
  sso?: SingleSignOn;
  /** Where enrolled hosts reach the intake (the one-line command's address and pin); default: enrollments cannot be made. */
  enrollment?: EnrollmentSettings;
  /** When hosts go stale and expire; default: stale after 7 days, no group expiry, auto-purge after 24 hours. */
  lifecycle?: LifecycleSettings;
  /** Whether fleet lists leave out findings about Lynis itself; default: they do. */
  hideLynisFindings?: boolean;
  /** Digests' links, mail and sending; default: links as paths, no mail. */
  digests?: DigestServerSettings;
}

/** The request body as the adapter read it. */
export type AdminRequestBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  /** A text body of the one text media type the contract takes (`text/csv`), as it was sent. */
  | { kind: 'text'; mediaType: string; value: string }
  /** A body that could not be read: answered with this status and detail once the request is authenticated. */
  | { kind: 'unreadable'; status: number; detail: string };

/** A request for a path under `/api/admin`, as the adapters hand it over. */
export interface AdminRequest {
  method: string;
  /** The full path, `/api/admin/…`, without the query string. */
  path: string;
  query: Record<string, string | string[]>;
  headers: IncomingHttpHeaders;
  body: AdminRequestBody;
  /** The client's address, for the rate limits; none applies when unknown. */
  remoteAddress?: string;
  /** The request's own origin (`https://host:port`), against which a cookie-authenticated change's `Origin` is checked. */
  origin?: string;
}

/** The admin API: answers every request under `/api/admin`. */
export interface AdminApi {
  handle(request: AdminRequest): Promise<AdminResponse>;
}

/**
 * Builds the admin API over the contract's `admin` operations: openapi-backend routes, checks the bearer token
 * (security scheme `adminToken`) and validates parameters and bodies; failures become problem+json answers here,
 * in one place, and the operations in the `*-routes.ts` modules do the rest.
 */
export async function createAdminApi(options: AdminApiOptions): Promise<AdminApi> {
  const logger = options.logger ?? silentLogger;
  const backend = new OpenAPIBackend({
    definition: adminDocument(),
    strict: true,
    quick: true, // validators compiled on first use
    coerceTypes: true, // query and path parameters arrive as text
    ajvOpts: { useDefaults: true, allErrors: false },
    // `uri` (webhook URLs) in ajv-formats' fast mode: it refuses only what has no scheme or holds whitespace, where
    // the full mode would also refuse internationalised host names that the server takes.
    customizeAjv: (ajv) => addFormats.default(addFormats.default(ajv, ['uuid', 'date', 'date-time']), { mode: 'fast', formats: ['uri'], keywords: false }),
  });
  const sessions = new SessionStore(options.database, options.sessionLimits, options.now);
  const recording: AuditRecording = { database: options.database, logger, webhookDispatcher: options.webhookDispatcher };
  registerAuthentication(backend, options, sessions, logger);
  registerRefusals(backend, options.rateLimiter, logger);
  registerOperations(backend, {
    database: options.database,
    logger,
    policyEvaluator: options.policyEvaluator,
    webhookDispatcher: options.webhookDispatcher,
    webhookAllowPrivate: options.webhookAllowPrivate ?? false,
    waiverMaxDays: options.waiverMaxDays ?? DEFAULT_WAIVER_MAX_DAYS,
    findingAcceptance: options.findingAcceptance ?? DEFAULT_FINDING_ACCEPTANCE,
    sessions,
    signInLockout:
      options.signInLockout ??
      createSignInLockout(await createRateLimiter({ perAddressPerMinute: 0, perKeyPerMinute: 0, failuresPer10Minutes: 0, redisPrefix: '' })),
    sso: options.sso,
    enrollment: options.enrollment,
    lifecycle: options.lifecycle ?? DEFAULT_LIFECYCLE,
    hideLynisFindings: options.hideLynisFindings ?? true,
    digests: options.digests ?? { link: digestPath, mailEnabled: false },
  });
  // The server builds the admin API on its first request (server.ts), so a start does not wait for this.
  await backend.init();
  checkEveryOperationHandled(backend);
  checkEveryOperationHasARole(backend);
  return {
    handle: async (request) => withAdminHeaders(await answer(backend, request, options.rateLimiter, logger, recording)),
  };
}

/**
 * The `adminToken` and `sessionCookie` security schemes: the bearer token checked against the stored admin tokens,
 * the cookie's session against the stored sessions (its role is its account's, read on each request), then the role
 * against the operation's `x-required-role`. This is the one place roles are enforced: a role too low is refused
 * here, before validation and before any handler runs; and so is a change authorised by a cookie that does not come
 * from the server's own pages (cross-site request forgery; a bearer token is no browser's ambient credential).
 * Operations anyone may call (`x-required-role: none`) have `security: []`, so neither handler runs for them.
 */
function registerAuthentication(backend: OpenAPIBackend, options: AdminApiOptions, sessions: SessionStore, logger: AuditLogger): void {
  const authenticator =
    options.authenticator ??
    new AdminTokenAuthenticator(options.database, (error) => logger.warn({ error: describeFailure(error) }, "could not record an admin token's last use"));
  backend.registerSecurityHandler('adminToken', async (c: Context, request: AdminRequest) => {
    const identity = await authenticator.authenticate(headerValue(request.headers.authorization));
    if (!identity) return false;
    return withRoleChecked(c, { kind: 'token', tokenId: identity.tokenId, role: identity.role, scope: identity.scope });
  });
  backend.registerSecurityHandler('sessionCookie', async (c: Context, request: AdminRequest) => {
    const sessionId = sessionIdFromCookies(headerValue(request.headers.cookie));
    const user = sessionId ? await sessions.resume(sessionId) : undefined;
    if (!user) return false;
    const actor: AdminActor = { kind: 'user', user, role: user.role, scope: user.scope };
    if (changesSomething(request.method) && !isSameOrigin(request.headers, request.origin)) return { error: new CrossSiteRefusal(actor) };
    return withRoleChecked(c, actor);
  });
}

/** The actor when its role may call the operation, else its refusal. */
function withRoleChecked(c: Context, actor: AdminActor): AdminActor | { error: RoleRefusal } {
  const required = requiredRole(c.operation.operationId ?? '');
  // Unreachable, as the API is not built with an operation that has no role, and the open ones run no security handler.
  if (!required || required === NO_ROLE) throw new Error(`admin operation ${c.operation.operationId} has no required role`);
  return roleAllows(actor.role, required) ? actor : { error: new RoleRefusal(actor.role, required, actor) };
}

/** The answers to requests no operation serves: unknown paths, wrong methods, missing or wrong tokens, invalid input. */
function registerRefusals(backend: OpenAPIBackend, rateLimiter: AuditRateLimiter | undefined, logger: AuditLogger): void {
  backend.register({
    notFound: () => problemResponse(404, 'No such admin endpoint'),
    methodNotAllowed: (_c: Context, request: AdminRequest) => {
      const allowed = METHODS.filter((method) => backend.router.matchOperation({ method, path: request.path, headers: {} }));
      return problemResponse(405, `Method ${request.method} not allowed here: use ${allowed.join(' or ')}`, { allow: allowed.join(', ') });
    },
    unauthorizedHandler: async (c: Context, request: TracedRequest) => {
      // openapi-backend turns a security handler that threw into `{ error }` and calls this handler, as for a wrong token.
      const errors = ['adminToken', 'sessionCookie'].map((scheme) => ((c.security[scheme] || undefined) as { error?: unknown } | undefined)?.error);
      const refusal = errors.find((error) => error instanceof RoleRefusal);
      if (refusal) {
        const { role, requiredRole, actor } = refusal;
        request.trail.actor = actor;
        logger.warn({ operation: c.operation.operationId, remoteAddress: request.remoteAddress, role, requiredRole }, 'admin request forbidden');
        return forbiddenProblem(role, requiredRole, actor.kind);
      }
      const crossSite = errors.find((error) => error instanceof CrossSiteRefusal);
      if (crossSite) {
        request.trail.actor = crossSite.actor;
        logger.warn({ operation: c.operation.operationId, remoteAddress: request.remoteAddress }, "admin request forbidden: not from the server's own pages");
        return crossSiteProblem();
      }
      const failed = errors.find((error) => error !== undefined);
      if (failed) throw new TokenCheckFailedError('the admin token or session could not be checked', { cause: failed });
      if (request.headers.authorization === undefined && sessionIdFromCookies(headerValue(request.headers.cookie)) !== undefined) {
        logger.warn({ operation: c.operation.operationId, remoteAddress: request.remoteAddress }, 'admin request unauthorized: session ended');
        return problemResponse(401, 'The session has ended; sign in again');
      }
      const given = request.headers.authorization !== undefined;
      if (rateLimiter && request.remoteAddress) await rateLimiter.recordFailure(request.remoteAddress);
      logger.warn({ operation: c.operation.operationId, remoteAddress: request.remoteAddress, tokenGiven: given }, 'admin request unauthorized');
      return problemResponse(401, given ? 'The admin token is unknown or revoked' : 'An admin token is required: Authorization: Bearer <token>', {
        'www-authenticate': given ? 'Bearer error="invalid_token"' : 'Bearer',
      });
    },
    validationFail: (c: Context) => problemResponse(400, (c.validation.errors ?? []).map(describeError).join('; ')),
  });
}

/** Every operation's handler, its typed input made from the validated request and its reply made an answer. */
function registerOperations(backend: OpenAPIBackend, context: AdminContext, handlers: AdminHandlers<AdminOperationId> = HANDLERS): void {
  const register = <Op extends AdminOperationId>(operationId: Op) =>
    backend.register(operationId, async (c: Context, request: TracedRequest) => {
      if (requiredRole(operationId) === NO_ROLE && changesSomething(request.method) && isCrossSite(request.headers, request.origin)) return crossSiteProblem();
      const input = adminInput<Op>(c, request);
      request.trail.actor = input.actor;
      if (request.body.kind === 'unreadable') return problemResponse(request.body.status, request.body.detail);
      return replyResponse(await handlers[operationId](input, context));
    });
  for (const operationId of Object.keys(handlers)) if (isHandled(operationId)) register(operationId);
}

/** The `x-required-role` of the operations anyone may call. */
const NO_ROLE = 'none';

const isHandled = (operationId: string): operationId is AdminOperationId => Object.hasOwn(HANDLERS, operationId);

/**
 * The typed input of an operation. openapi-backend's `Context` is untyped, but it calls the handler only once the
 * request has been validated against the operation's contract (parameters coerced, defaults filled in), which is
 * what {@link AdminInput} says: this is the one place the request's type is asserted.
 */
function adminInput<Op extends AdminOperationId>({ request, security }: Context<unknown, unknown, unknown>, adminRequest: TracedRequest): AdminInput<Op> {
  // What the security handler that passed resolved; neither ran for an operation anyone may call.
  const actor = [security['adminToken'], security['sessionCookie']].find((resolved) => resolved && !(resolved as { error?: unknown }).error) as
    AdminActor | undefined;
  const cookies = headerValue(adminRequest.headers.cookie);
  const client = { address: adminRequest.remoteAddress, sessionId: sessionIdFromCookies(cookies), origin: adminRequest.origin, cookies };
  // A text body as it was sent: openapi-backend would have read text that happens to be JSON as JSON.
  const body = adminRequest.body.kind === 'text' ? adminRequest.body.value : request.requestBody;
  return { path: request.params, query: request.query, body, actor, client, audit: adminRequest.trail.note } as AdminInput<Op>;
}

/** A handler's reply as an answer: raw ones as they are, others as JSON (or no body when the contract has none). */
function replyResponse(reply: RawReply | { status: number; body?: unknown }): AdminResponse {
  if ('raw' in reply) return reply.raw;
  return 'body' in reply ? jsonResponse(reply.status, reply.body) : { status: reply.status, headers: {}, body: '' };
}

/** A contract with an admin operation no handler serves would answer it with a 500: refused when the API is built. */
function checkEveryOperationHandled(backend: OpenAPIBackend): void {
  const missing = backend.router.getOperations().filter((operation) => !isHandled(operation.operationId ?? ''));
  if (missing.length > 0) throw new Error(`admin operations without a handler: ${missing.map((operation) => operation.operationId).join(', ')}`);
}

/** An admin operation the contract gives no `x-required-role` would have to be allowed or refused to all: refused when the API is built. */
function checkEveryOperationHasARole(backend: OpenAPIBackend): void {
  const missing = operationsWithoutARole(backend.router.getOperations());
  if (missing.length > 0) throw new Error(`admin operations without a required role: ${missing.join(', ')}`);
}

/** A request as the operations' handlers get it: with what it tells its audit entry. */
type TracedRequest = AdminRequest & { trail: RequestTrail };

/**
 * The answer to one request, and its entry in the audit trail when its operation is audited: the one place every
 * admin request ends, whether served, refused or failed, so none escapes the trail.
 */
async function answer(
  backend: OpenAPIBackend,
  request: AdminRequest,
  rateLimiter: AuditRateLimiter | undefined,
  logger: AuditLogger,
  recording: AuditRecording,
): Promise<AdminResponse> {
  const traced: TracedRequest = { ...request, trail: { note: {} } };
  const response = await served(backend, traced, rateLimiter, logger);
  const operation = routedOperation(backend, request);
  if (operation && isAudited(operation.operationId, request.method)) await recordAdminRequest(recording, request, operation, traced.trail, response);
  return response;
}

/** The operation a request names, with its path parameters and query; none for a path no operation serves. */
function routedOperation(backend: OpenAPIBackend, request: AdminRequest): RoutedOperation | undefined {
  if (!isDecodable(request.path)) return undefined;
  const routed = { method: request.method, path: request.path, query: request.query, headers: {} };
  const operation = backend.router.matchOperation(routed);
  if (!operation?.operationId) return undefined;
  const params = backend.router.parseRequest(routed, operation).params as Record<string, unknown>;
  return { operationId: operation.operationId, open: requiredRole(operation.operationId) === NO_ROLE, params, query: request.query };
}

/** The answer to one request: rate-limited, routed, authenticated, validated and served, or the failure's answer. */
async function served(backend: OpenAPIBackend, request: TracedRequest, rateLimiter: AuditRateLimiter | undefined, logger: AuditLogger): Promise<AdminResponse> {
  try {
    if (rateLimiter && request.remoteAddress) {
      const decision = await rateLimiter.consumeRequest(request.remoteAddress);
      if (!decision.allowed) {
        return problemResponse(429, 'Too many requests from this address', { 'retry-after': String(decision.retryAfterSeconds) });
      }
    }
    // The router decodes path parameters and would throw on a malformed escape.
    if (!isDecodable(request.path)) return problemResponse(400, 'The path is not validly percent-encoded UTF-8');
    request.body = acceptedBody(backend, request);
    // No body reads as `{}`, so that validation fills in the contract's defaults for optional bodies too.
    const body = request.body.kind === 'json' || request.body.kind === 'text' ? request.body.value : {};
    return (await backend.handleRequest(
      { method: request.method, path: request.path, query: request.query, headers: presentHeaders(request.headers), body },
      request,
    )) as AdminResponse;
  } catch (error) {
    return failureResponse(error, request, logger);
  }
}

/** What a failure is answered with: the one place every failure of an admin request becomes its problem. */
function failureResponse(error: unknown, request: AdminRequest, logger: AuditLogger): AdminResponse {
  if (error instanceof DomainError) return domainProblem(error);
  if (error instanceof TokenCheckFailedError || isDatabaseUnavailable(error)) {
    const cause = error instanceof TokenCheckFailedError ? error.cause : error;
    logger.error({ error: describeFailure(cause), path: request.path }, 'admin request failed: database unavailable');
    return problemResponse(503, 'The database is unavailable; try again later', { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
  }
  logger.error({ error: describeFailure(error), path: request.path }, 'admin request failed');
  // Said as it is: retrying will not help, and the operator needs to know which report to restore.
  if (error instanceof DamagedReportError) return problemResponse(500, error.message);
  return problemResponse(500, 'Internal server error; see the server log');
}

/**
 * Headers of every admin answer: they carry hostile host text (the raw report is `text/plain`), so no browser may
 * sniff them into HTML, run or frame them, and no cache keeps what a token was needed to read.
 */
const ADMIN_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

function withAdminHeaders(response: AdminResponse): AdminResponse {
  return { ...response, headers: { ...response.headers, ...ADMIN_HEADERS } };
}

/** The contract with only its admin operations: the audit operations are core's. */
function adminDocument(): Document {
  const document = structuredClone(openApiDocument);
  const paths: Document['paths'] = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const operations = Object.entries(item ?? {}).filter(
      ([method, operation]) => METHODS.includes(method.toUpperCase()) && (operation as { tags?: string[] }).tags?.includes(ADMIN_TAG),
    );
    if (operations.length > 0) paths[path] = Object.fromEntries(operations);
  }
  document.paths = paths;
  return document;
}

/**
 * The body as the operation takes it: one of a media type its contract does not list (JSON to an operation that
 * takes CSV, or CSV to one that takes JSON) is unreadable, answered 415 once the request is authenticated.
 */
function acceptedBody(backend: OpenAPIBackend, request: AdminRequest): AdminRequestBody {
  if (request.body.kind !== 'json' && request.body.kind !== 'text') return request.body;
  const operation = backend.router.matchOperation({ method: request.method, path: request.path, headers: {} });
  const requestBody = operation?.requestBody as { content?: Record<string, unknown> } | undefined;
  const accepted = Object.keys(requestBody?.content ?? {});
  const given = request.body.kind === 'json' ? 'application/json' : request.body.mediaType;
  if (accepted.length === 0 || accepted.includes(given)) return request.body;
  return { kind: 'unreadable', status: 415, detail: `Send the body as ${accepted.join(' or ')}` };
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The headers the request has: Node types absent ones as undefined, which openapi-backend's request has no room for. */
function presentHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined));
}

function headerValue(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** One ajv error in the words of the request: `limit: must be <= 500`, `label: must NOT have more than 255 characters`. */
function describeError(error: NonNullable<Context['validation']['errors']>[number]): string {
  const where = error.instancePath.replace(/^\/(query|path|requestBody)\/?/, '').replaceAll('/', '.');
  if (error.keyword === 'required') return `${where ? `${where}.` : ''}${String(error.params['missingProperty'])}: is required`;
  if (error.keyword === 'additionalProperties') return `${where ? `${where}.` : ''}${String(error.params['additionalProperty'])}: is not a known field`;
  return `${where || 'body'}: ${error.message ?? 'is invalid'}`;
}
