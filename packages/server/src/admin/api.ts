import type { IncomingHttpHeaders } from 'node:http';
import { OpenAPIBackend, type Context, type Document } from 'openapi-backend';
import addFormats from 'ajv-formats';
import { describeFailure, openApiDocument, type AuditLogger, type AuditRateLimiter } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../database/unavailable.js';
import { AdminTokenAuthenticator } from './auth.js';
import { getOverview, listFindings } from './fleet-routes.js';
import { exportFindings, exportHostHistory, exportHosts } from './export-routes.js';
import { acceptHostIdentity, getHost, listHosts } from './host-routes.js';
import { createLicenseKey, listLicenseKeys, revokeLicenseKey, rotateLicenseKey, updateLicenseKey } from './key-routes.js';
import type { AdminContext, AdminOperation } from './operation.js';
import {
  createPolicy,
  createWaiver,
  deletePolicy,
  deleteWaiver,
  enableBaselinePolicy,
  getHostCompliance,
  getPolicy,
  listPolicies,
  listPolicyResults,
  listWaivers,
  updatePolicy,
} from './policy-routes.js';
import { listRejections } from './rejection-routes.js';
import { createWebhook, deleteWebhook, getWebhook, listWebhookDeliveries, listWebhooks, redeliverWebhookDelivery, updateWebhook } from './webhook-routes.js';
import { DamagedReportError } from '../reports/report-content.js';
import { getRawReport, getReport, getReportDiff, listReports } from './report-routes.js';
import { getAdminSession } from './session-routes.js';
import { problemResponse, type AdminResponse } from './responses.js';

/** What the contract's admin operations are tagged with. */
const ADMIN_TAG = 'admin';
const OPERATIONS: Record<string, AdminOperation> = {
  getAdminSession,
  listHosts,
  getHost,
  acceptHostIdentity,
  listReports,
  getReport,
  getRawReport,
  getReportDiff,
  listLicenseKeys,
  createLicenseKey,
  revokeLicenseKey,
  rotateLicenseKey,
  updateLicenseKey,
  listRejections,
  getOverview,
  listFindings,
  listPolicies,
  createPolicy,
  enableBaselinePolicy,
  getPolicy,
  updatePolicy,
  deletePolicy,
  listPolicyResults,
  getHostCompliance,
  listWaivers,
  createWaiver,
  deleteWaiver,
  listWebhooks,
  createWebhook,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
  exportHosts,
  exportFindings,
  exportHostHistory,
};
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const silentLogger: AuditLogger = { info() {}, warn() {}, error() {} };

/** The token could not be checked: not the client's fault, so never a 401 nor a failed login. */
class TokenCheckFailedError extends Error {
  override name = 'TokenCheckFailedError';
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
}

/** The request body as the adapter read it. */
export type AdminRequestBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
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
  const { rateLimiter } = options;
  const authenticator =
    options.authenticator ??
    new AdminTokenAuthenticator(options.database, (error) => logger.warn({ error: describeFailure(error) }, "could not record an admin token's last use"));
  const context: AdminContext = {
    database: options.database,
    logger,
    policyEvaluator: options.policyEvaluator,
    webhookDispatcher: options.webhookDispatcher,
    webhookAllowPrivate: options.webhookAllowPrivate ?? false,
  };

  const backend = new OpenAPIBackend({
    definition: adminDocument(),
    strict: true,
    quick: true, // validators compiled on first use
    coerceTypes: true, // query and path parameters arrive as text
    ajvOpts: { useDefaults: true, allErrors: false },
    customizeAjv: (ajv) => addFormats.default(ajv, ['uuid', 'date', 'date-time']),
  });

  backend.registerSecurityHandler('adminToken', async (c: Context) => {
    const tokenId = await authenticator.authenticate(headerValue(c.request.headers['authorization']));
    return tokenId ? { tokenId } : false;
  });

  backend.register({
    notFound: () => problemResponse(404, 'No such admin endpoint'),
    methodNotAllowed: (_c: Context, request: AdminRequest) => {
      const allowed = METHODS.filter((method) => backend.router.matchOperation({ method, path: request.path, headers: {} }));
      return problemResponse(405, `Method ${request.method} not allowed here: use ${allowed.join(' or ')}`, { allow: allowed.join(', ') });
    },
    unauthorizedHandler: async (c: Context, request: AdminRequest) => {
      // openapi-backend turns a security handler that threw into `{ error }` and calls this handler, as for a wrong token.
      const checked = c.security['adminToken'] as { error?: unknown } | false | undefined;
      if (checked && checked.error) throw new TokenCheckFailedError('the admin token could not be checked', { cause: checked.error });
      const given = request.headers.authorization !== undefined;
      if (rateLimiter && request.remoteAddress) await rateLimiter.recordFailure(request.remoteAddress);
      logger.warn({ operation: c.operation.operationId, remoteAddress: request.remoteAddress, tokenGiven: given }, 'admin request unauthorized');
      return problemResponse(401, given ? 'The admin token is unknown or revoked' : 'An admin token is required: Authorization: Bearer <token>', {
        'www-authenticate': given ? 'Bearer error="invalid_token"' : 'Bearer',
      });
    },
    validationFail: (c: Context) => problemResponse(400, (c.validation.errors ?? []).map(describeError).join('; ')),
  });
  for (const [operationId, operation] of Object.entries(OPERATIONS)) {
    backend.register(operationId, async (c: Context, request: AdminRequest) => {
      if (request.body.kind === 'unreadable') return problemResponse(request.body.status, request.body.detail);
      const body = c.request.requestBody as Record<string, unknown>;
      const tokenId = (c.security['adminToken'] as { tokenId: string }).tokenId;
      return operation({ params: c.request.params as Record<string, string>, query: c.request.query as Record<string, unknown>, body, tokenId }, context);
    });
  }
  // The server builds the admin API on its first request (server.ts), so a start does not wait for this.
  await backend.init();

  async function answer(request: AdminRequest): Promise<AdminResponse> {
    try {
      if (rateLimiter && request.remoteAddress) {
        const decision = await rateLimiter.consumeRequest(request.remoteAddress);
        if (!decision.allowed) {
          return problemResponse(429, 'Too many requests from this address', { 'retry-after': String(decision.retryAfterSeconds) });
        }
      }
      // The router decodes path parameters and would throw on a malformed escape.
      if (!isDecodable(request.path)) return problemResponse(400, 'The path is not validly percent-encoded UTF-8');
      // No body reads as `{}`, so that validation fills in the contract's defaults for optional bodies too.
      const body = request.body.kind === 'json' ? request.body.value : {};
      return (await backend.handleRequest(
        { method: request.method, path: request.path, query: request.query, headers: request.headers as Record<string, string | string[]>, body },
        request,
      )) as AdminResponse;
    } catch (error) {
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
  }

  return {
    handle: async (request) => withAdminHeaders(await answer(request)),
  };
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

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function headerValue(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** One ajv error in the words of the request: `limit: must be <= 500`, `label: must NOT have more than 255 characters`. */
function describeError(error: { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> }): string {
  const where = error.instancePath.replace(/^\/(query|path|requestBody)\/?/, '').replaceAll('/', '.');
  if (error.keyword === 'required') return `${where ? `${where}.` : ''}${String(error.params['missingProperty'])}: is required`;
  if (error.keyword === 'additionalProperties') return `${where ? `${where}.` : ''}${String(error.params['additionalProperty'])}: is not a known field`;
  return `${where || 'body'}: ${error.message ?? 'is invalid'}`;
}
