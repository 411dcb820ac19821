import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { BodyAdmission, type BodyTicket } from './body-admission.js';
import { checkLicense } from './check-license.js';
import type { OperationContext, RouteMatch } from './contract-routes.js';
import { answerFailedRequest } from './failed-request.js';
import { formFromParsedFields } from './form.js';
import { callHook, type AuditHooks } from './hooks.js';
import { silentLogger, type AuditLogger } from './logger.js';
import type { AuditRateLimiter } from './rate-limit.js';
import { rejectRequest, type RequestInfo } from './reject-request.js';
import { admitBody, admitRequest } from './request-admission.js';
import { bodyLeftUnread, readRequestBody, refuseUnreadBody, type FormLimitsByOperation } from './request-body.js';
import { createRequestRouter, type RequestRouter } from './request-routing.js';
import { NOT_FOUND, textResponse, withConnectionClose, type AuditResponse } from './responses.js';
import type { KeyStore, ReportStore } from './stores.js';
import { uploadReport } from './upload-report.js';
import { answerValidationFailure } from './validation-failure.js';

/** The logger the options take, named here beside them. */
export type { AuditLogger } from './logger.js';

/** How to build an {@link AuditApi}. */
export interface AuditApiOptions {
  keyStore: KeyStore;
  reportStore: ReportStore;
  /** The path segment naming the audit tool, as in `/api/<toolSegment>/upload/`. Default `audit`. */
  toolSegment?: string;
  /** Largest upload body in bytes. Default 16 MiB: real Lynis reports pass 100 kB, and Lynis ignores a 413. */
  maxBodyBytes?: number;
  /** Largest license check body in bytes. Default 16 KiB: its form is a few hundred bytes. */
  maxLicenseBodyBytes?: number;
  /** Most form fields in one request. Default 32. */
  maxFields?: number;
  /**
   * Most bytes of request bodies held at once, all requests together, from the first byte received until the
   * answer: the memory budget of the intake. A body that does not fit is answered 503. Default 256 MiB.
   */
  maxBodyBytesInFlight?: number;
  /** Most request bodies one client address may be sending at once; more are answered 429. Default 32. */
  maxBodiesPerAddress?: number;
  /**
   * Slowest average rate, in bytes per second, a body may arrive at after {@link bodyGraceMs}; a slower one is
   * cut off with 408. Default 500 (as Apache's `mod_reqtimeout`); 0 turns the rule off.
   */
  minBodyBytesPerSecond?: number;
  /** Time a body has before the minimum rate applies, in milliseconds. Default 20 000. */
  bodyGraceMs?: number;
  /** Limits per client address, per key and on failed key checks. Default: none. */
  rateLimiter?: AuditRateLimiter;
  /** Where accepted and rejected requests (and failing hooks) are logged. Default: nowhere. */
  logger?: AuditLogger;
  /** Called after reports are stored and requests refused or answered; see {@link AuditHooks}. */
  hooks?: AuditHooks;
}

/** A request as the adapters hand it over: the body is the unread stream. */
export interface AuditRequest {
  method: string;
  /** The request path relative to where the API is mounted, without the query string. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The unread request body. */
  body: Readable;
  /**
   * Form fields the host framework already parsed (as UTF-8 strings), used instead of reading `body`:
   * set by the Express adapter when the app's own `express.urlencoded` ran first.
   */
  parsedFields?: Record<string, unknown>;
  /**
   * The client's IP address as the adapter determined it (Express: `req.ip`, honouring `trust proxy`);
   * per-address rate limits apply only when it is known.
   */
  remoteAddress?: string;
}

/** The audit endpoints, ready to be served by any HTTP framework through an adapter. */
export interface AuditApi {
  /** Answers a request for one of the audit paths, or resolves `undefined` when the path is not one of them. */
  handle(request: AuditRequest): Promise<AuditResponse | undefined>;
  /** Bytes of request bodies held now, against `maxBodyBytesInFlight` (for metrics). */
  bodyBytesInFlight(): number;
}

/** Default largest request body: 16 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Default cap on form fields: Lynis sends four, multipart clients a few more. */
export const DEFAULT_MAX_FIELDS = 32;
/** Default largest license check body: its two fields take a few hundred bytes, in any form encoding. */
export const DEFAULT_MAX_LICENSE_BODY_BYTES = 16 * 1024;
/** Default memory budget for request bodies: 16 uploads of the largest size, thousands of real reports. */
export const DEFAULT_MAX_BODY_BYTES_IN_FLIGHT = 256 * 1024 * 1024;
/** Default cap on bodies per client address: far above a site behind one NAT address, far below a flood. */
export const DEFAULT_MAX_BODIES_PER_ADDRESS = 32;
/** Default minimum body rate: that of Apache's `mod_reqtimeout` (`body=20,MinRate=500`), as is the grace period below. */
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 500;
/** Default time a body has before the minimum rate applies: 20 seconds. */
export const DEFAULT_BODY_GRACE_MS = 20_000;
/** What a tool segment may be: one URL path segment of unreserved characters. */
export const TOOL_SEGMENT_PATTERN = /^[A-Za-z0-9._~-]+$/;

/** Everything the steps of answering a request draw on, built once; each step declares the part it takes. */
interface RequestContext {
  keyStore: KeyStore;
  reportStore: ReportStore;
  rateLimiter?: AuditRateLimiter;
  logger: AuditLogger;
  hooks: AuditHooks;
  bodies: BodyAdmission;
  formLimits: FormLimitsByOperation;
}

/** An operation's answer to a request that passed validation. */
type OperationHandler = (context: RequestContext, validated: OperationContext<never>, info: RequestInfo) => Promise<AuditResponse>;

/** The handler of each contract operation id, legacy or not. */
const OPERATION_HANDLERS: Record<string, OperationHandler> = {
  checkLicense,
  checkLicenseLegacy: checkLicense,
  uploadReport,
  uploadReportLegacy: uploadReport,
};

/** A route to one of the contract's operations. */
type OperationMatch = Extract<RouteMatch, { kind: 'operation' }>;

/** Builds the audit API over openapi.yaml: routing and validation by openapi-backend, behaviour in the modules it wires. */
export async function createAuditApi(options: AuditApiOptions): Promise<AuditApi> {
  const toolSegment = options.toolSegment ?? 'audit';
  if (!TOOL_SEGMENT_PATTERN.test(toolSegment)) throw new Error(`toolSegment must be one URL path segment, not "${toolSegment}"`);
  const maxFields = options.maxFields ?? DEFAULT_MAX_FIELDS;
  const context: RequestContext = {
    keyStore: options.keyStore,
    reportStore: options.reportStore,
    rateLimiter: options.rateLimiter,
    logger: options.logger ?? silentLogger,
    hooks: options.hooks ?? {},
    bodies: new BodyAdmission({
      maxBytesInFlight: options.maxBodyBytesInFlight ?? DEFAULT_MAX_BODY_BYTES_IN_FLIGHT,
      maxBodiesPerAddress: options.maxBodiesPerAddress ?? DEFAULT_MAX_BODIES_PER_ADDRESS,
      minBytesPerSecond: options.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND,
      graceMs: options.bodyGraceMs ?? DEFAULT_BODY_GRACE_MS,
    }),
    formLimits: {
      checkLicense: { maxBodyBytes: options.maxLicenseBodyBytes ?? DEFAULT_MAX_LICENSE_BODY_BYTES, maxFields },
      uploadReport: { maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, maxFields },
    },
  };
  const route = await createRequestRouter(toolSegment);
  return {
    bodyBytesInFlight: () => context.bodies.bytesInFlight,
    handle: (request) => handleRequest(context, route, request),
  };
}

/**
 * One request, start to end: routed before anything is read (unknown paths and wrong methods cost no body and
 * no limiter call), admitted, its body read, validated and answered; then the completion hook, and the
 * connection closed when body bytes are left unread.
 */
async function handleRequest(context: RequestContext, route: RequestRouter, request: AuditRequest): Promise<AuditResponse | undefined> {
  const started = performance.now();
  const routed = route(request.method, request.path);
  if (!routed) return undefined;
  const { match, operation } = routed;
  const info: RequestInfo = { operation: operation ?? 'uploadReport', remoteAddress: request.remoteAddress };
  let ticket: BodyTicket | undefined;
  let response: AuditResponse;
  try {
    if (match.kind === 'not-found') response = NOT_FOUND;
    else if (match.kind === 'method-not-allowed') {
      response = rejectRequest(context, info, 'method-not-allowed', {}, textResponse(405, 'Method not allowed: use POST', { allow: 'POST' }));
    } else {
      response = (await admitRequest(context, info)) ?? (await answer(match));
    }
  } catch (error) {
    response = answerFailedRequest(context, info, error);
  } finally {
    ticket?.release();
  }
  const completed = {
    operation: operation ?? 'unknown',
    status: response.status,
    durationMs: performance.now() - started,
    bytesReceived: info.form?.bytesReceived ?? 0,
  } as const;
  callHook('onRequestCompleted', context.hooks.onRequestCompleted, completed, context.logger.error.bind(context.logger));
  return bodyLeftUnread(request) ? withConnectionClose(response) : response;

  /** Reads the body within the limits (its ticket is released above, once answered), then validates and dispatches it. */
  async function answer(match: OperationMatch): Promise<AuditResponse> {
    if (request.parsedFields) {
      info.form = formFromParsedFields(request.parsedFields, request.headers, context.formLimits[info.operation]);
    } else {
      const admitted = admitBody(context, info, request.headers);
      if ('refusal' in admitted) return admitted.refusal;
      ticket = admitted.ticket;
      info.form = await readRequestBody(context, request, info, ticket);
    }
    return (await refuseUnreadBody(context, info, info.form)) ?? (await dispatch(context, request, match, info));
  }
}

/** Validates a request whose form has been read whole, and hands it to its operation. */
async function dispatch(context: RequestContext, request: AuditRequest, match: OperationMatch, info: RequestInfo): Promise<AuditResponse> {
  const body = info.form?.kind === 'fields' ? info.form.fields : undefined;
  const validated: OperationContext<never> = {
    request: { requestBody: body as never },
    operation: match.operation,
    validation: match.validate(body, request.headers),
  };
  if (!validated.validation.valid) return answerValidationFailure(context, validated, info);
  const handler = OPERATION_HANDLERS[match.operation.operationId ?? ''];
  if (!handler) throw new Error(`No handler for operation ${match.operation.operationId}`);
  return handler(context, validated, info);
}
