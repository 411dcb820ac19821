import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { OpenAPIBackend } from 'openapi-backend';
import { compileRoutes, type OperationContext, type RouteMatch, type ValidationError } from './contract-routes.js';
import { openApiDocument } from './generated/openapi.gen.js';
import type { LicenseCheckForm, ReportUploadForm } from './generated/types.gen.js';
import { BodyAdmission, type BodyTicket } from './body-admission.js';
import { formFromParsedFields, readForm, type FormRead, type FormReadResult } from './form.js';
import { describeFailure } from './failure.js';
import { callDependency, DependencyUnavailableError } from './unavailable.js';
import { callHook, type AuditHooks, type AuditOperation, type RejectionReason } from './hooks.js';
import { decodeReportData, redactLicenseKeys, sha256Hex } from './report-data.js';
import { summarizeReportBytes } from './lynis-report.js';
import {
  INTERNAL_ERROR,
  LICENSE_INVALID,
  LICENSE_VALID,
  NOT_FOUND,
  UNSUPPORTED_MEDIA_TYPE,
  UPLOAD_UNAUTHORIZED,
  BODY_TOO_SLOW,
  payloadTooLarge,
  serverBusy,
  serviceUnavailable,
  tooManyRequests,
  textResponse,
  withConnectionClose,
  type AuditResponse,
} from './responses.js';
import { ALLOWED, type AuditRateLimiter } from './rate-limit.js';
import type { KeyLookup, KeyStore, ReportEncoding, ReportStore, ReportToStore } from './stores.js';

/** Structured logger; pino's `Logger` fits. Fields never carry a license key. */
export interface AuditLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

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
/** Default minimum body rate and grace period: those of Apache's `mod_reqtimeout` (`body=20,MinRate=500`). */
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 500;
export const DEFAULT_BODY_GRACE_MS = 20_000;
/** What a busy server asks the client to wait, in seconds: uploads take milliseconds to store, slow senders seconds. */
const BUSY_RETRY_AFTER_SECONDS = 5;
/** What the client is asked to wait when a store fails: long enough for a database to fail over or restart. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 10;
/** What a tool segment may be: one URL path segment of unreserved characters. */
export const TOOL_SEGMENT_PATTERN = /^[A-Za-z0-9._~-]+$/;
/** The operation of each contract operation id, legacy or not. */
const OPERATION_BY_ID: Record<string, AuditOperation> = {
  checkLicense: 'checkLicense',
  checkLicenseLegacy: 'checkLicense',
  uploadReport: 'uploadReport',
  uploadReportLegacy: 'uploadReport',
};
/** The operation a contract path names, for requests with a method the path does not take. */
const operationOfPath = (path: string): AuditOperation | undefined =>
  path.endsWith('/license/') ? 'checkLicense' : path.endsWith('/upload/') ? 'uploadReport' : undefined;
const silentLogger: AuditLogger = { info() {}, warn() {}, error() {} };

/** The outcome of checking a request's key, with the failure and per-key limits applied. */
type KeyCheck =
  | { state: 'valid'; keyId: string }
  | { state: 'refused'; keyId: string }
  | { state: 'limited'; keyId: string; retryAfterSeconds: number };

/** Builds the audit API over openapi.yaml: routing and validation by openapi-backend, behaviour here. */
export async function createAuditApi(options: AuditApiOptions): Promise<AuditApi> {
  const { keyStore, reportStore } = options;
  const toolSegment = options.toolSegment ?? 'audit';
  const maxFields = options.maxFields ?? DEFAULT_MAX_FIELDS;
  const formLimits: Record<AuditOperation, { maxBodyBytes: number; maxFields: number }> = {
    checkLicense: { maxBodyBytes: options.maxLicenseBodyBytes ?? DEFAULT_MAX_LICENSE_BODY_BYTES, maxFields },
    uploadReport: { maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, maxFields },
  };
  const bodies = new BodyAdmission({
    maxBytesInFlight: options.maxBodyBytesInFlight ?? DEFAULT_MAX_BODY_BYTES_IN_FLIGHT,
    maxBodiesPerAddress: options.maxBodiesPerAddress ?? DEFAULT_MAX_BODIES_PER_ADDRESS,
    minBytesPerSecond: options.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND,
    graceMs: options.bodyGraceMs ?? DEFAULT_BODY_GRACE_MS,
  });
  const logger = options.logger ?? silentLogger;
  const hooks = options.hooks ?? {};
  const { rateLimiter } = options;
  if (!TOOL_SEGMENT_PATTERN.test(toolSegment)) throw new Error(`toolSegment must be one URL path segment, not "${toolSegment}"`);

  // The contract names the tool `audit`; requests use the configured segment.
  const prefixes = ['/api/', '/api/v1/'].map((base) => ({ served: `${base}${toolSegment}/`, contract: `${base}audit/` }));
  const toContractPath = (path: string) => {
    const prefix = prefixes.find(({ served }) => path.startsWith(served));
    return prefix && prefix.contract + path.slice(prefix.served.length);
  };

  /** What one request is about, passed from `handle` to the operation handlers. */
  interface RequestInfo {
    operation: AuditOperation;
    remoteAddress?: string;
    form?: FormReadResult;
  }

  /**
   * The one place every refusal goes through: it is logged (never with the key) and reported to the hook.
   * `hostId` is taken only when it is a single string, as a client may send anything there.
   */
  const rejectRequest = (
    request: RequestInfo,
    reason: RejectionReason,
    details: { keyId?: string; hostId?: unknown },
    response: AuditResponse,
  ): AuditResponse => {
    const event = {
      operation: request.operation,
      reason,
      status: response.status,
      keyId: details.keyId ?? 'unknown',
      ...(typeof details.hostId === 'string' ? { hostId: details.hostId } : {}),
      ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
    };
    logger.warn(event, request.operation === 'uploadReport' ? 'upload rejected' : 'license check rejected');
    callHook('onRequestRejected', hooks.onRequestRejected, event, logger.error.bind(logger));
    return response;
  };

  /** Counts a failed key check against the client, for the brute-force limit. */
  async function recordFailure(request: RequestInfo): Promise<void> {
    if (rateLimiter && request.remoteAddress) await callDependency('rate limiter', () => rateLimiter.recordFailure(request.remoteAddress!));
  }

  /** Looks a key up (none when missing or malformed), counts a failure against the client, or the request against the key. */
  async function checkKey(licenseKey: string | undefined, request: RequestInfo): Promise<KeyCheck> {
    const lookup = licenseKey ? await callDependency('key store', () => keyStore.lookup(licenseKey)) : undefined;
    if (lookup?.state !== 'valid') {
      await recordFailure(request);
      return { state: 'refused', keyId: keyIdOf(lookup) };
    }
    const decision = rateLimiter ? await callDependency('rate limiter', () => rateLimiter.consumeKey(lookup.keyId)) : ALLOWED;
    if (!decision.allowed) return { state: 'limited', keyId: lookup.keyId, retryAfterSeconds: decision.retryAfterSeconds };
    return { state: 'valid', keyId: lookup.keyId };
  }

  const keyLimited = (request: RequestInfo, key: { keyId: string; retryAfterSeconds: number }, hostId?: unknown) =>
    rejectRequest(request, 'rate-limited', { keyId: key.keyId, hostId }, tooManyRequests(key.retryAfterSeconds));

  async function checkLicense(context: OperationContext<LicenseCheckForm>, request: RequestInfo): Promise<AuditResponse> {
    const key = await checkKey(context.request.requestBody.licensekey, request);
    if (key.state === 'limited') return keyLimited(request, key);
    return key.state === 'valid' ? LICENSE_VALID : rejectRequest(request, 'invalid-key', { keyId: key.keyId }, LICENSE_INVALID);
  }

  async function uploadReport(context: OperationContext<ReportUploadForm>, request: RequestInfo): Promise<AuditResponse> {
    const form = context.request.requestBody;
    const host = { hostId: form.hostid, hostId2: form.hostid2 };
    const key = await checkKey(form.licensekey, request);
    if (key.state === 'limited') return keyLimited(request, key, form.hostid);
    if (key.state !== 'valid') return rejectRequest(request, 'invalid-key', { ...host, keyId: key.keyId }, UPLOAD_UNAUTHORIZED);
    const decoded = decodeReportData(form.data, request.form?.kind === 'fields' ? request.form.bytes?.get('data') : undefined);
    if (!decoded.ok) {
      return rejectRequest(request, 'invalid-data', { ...host, keyId: key.keyId }, textResponse(400, `Invalid data: ${decoded.reason}`));
    }
    const report = reportToStore(key.keyId, host, decoded);
    const { id } = await callDependency('report store', () => reportStore.save(report));
    logger.info({ reportId: id, keyId: key.keyId, ...host, bytes: report.size, encoding: report.encoding }, 'report stored');
    const hardeningIndex = report.summary?.hardeningIndex ?? null;
    const stored = { reportId: id, keyId: key.keyId, ...host, size: report.size, sha256: report.sha256, encoding: report.encoding, hardeningIndex };
    if (request.remoteAddress) Object.assign(stored, { remoteAddress: request.remoteAddress });
    callHook('onReportStored', hooks.onReportStored, stored, logger.error.bind(logger));
    return textResponse(200, `OK ${id}`);
  }

  /** Every validation failure is answered here, per the contract: license checks only ever say `Response 500`. */
  async function validationFail(context: OperationContext, request: RequestInfo): Promise<AuditResponse> {
    const formProblem = request.form;
    const isLicenseCheck = request.operation === 'checkLicense';
    const refusal = isLicenseCheck ? LICENSE_INVALID : undefined;
    // A malformed license check is a failed one; a malformed upload is refused before any key is looked at.
    if (isLicenseCheck && (formProblem?.kind === 'unsupported-type' || formProblem?.kind === 'malformed')) await recordFailure(request);
    if (formProblem?.kind === 'unsupported-type') return rejectRequest(request, 'unsupported-type', {}, refusal ?? UNSUPPORTED_MEDIA_TYPE);
    if (formProblem?.kind === 'malformed') {
      return rejectRequest(request, 'malformed', {}, refusal ?? textResponse(400, `Invalid form data: ${formProblem.reason}`));
    }
    const body = (context.request.requestBody ?? {}) as Partial<ReportUploadForm>;
    const errors = context.validation.errors ?? [];
    // The key is checked before the other fields, so that without a valid key nothing about them is told.
    const keyUsable = typeof body.licensekey === 'string' && !errors.some(concernsLicenseKey);
    const key = await checkKey(keyUsable ? body.licensekey : undefined, request);
    if (key.state === 'limited') return keyLimited(request, key, body.hostid);
    const details = { keyId: key.keyId, hostId: body.hostid };
    if (key.state !== 'valid') return rejectRequest(request, 'invalid-key', details, refusal ?? UPLOAD_UNAUTHORIZED);
    return rejectRequest(request, 'invalid-request', details, refusal ?? textResponse(400, `Invalid request: ${errors.map(describeError).join('; ')}`));
  }

  /** Refuses a request over the client's rate limits, before its body is read. */
  async function admit(request: RequestInfo): Promise<AuditResponse | undefined> {
    if (!rateLimiter || !request.remoteAddress) return undefined;
    const decision = await callDependency('rate limiter', () => rateLimiter.consumeRequest(request.remoteAddress!));
    return decision.allowed ? undefined : rejectRequest(request, 'rate-limited', {}, tooManyRequests(decision.retryAfterSeconds));
  }

  /**
   * Reads the form within the operation's size limit and the body admission's rules. An upload whose key
   * arrives before the rest of its body (not Lynis: it sends `data` first) and is not valid stops the read at once.
   */
  async function readBody(request: AuditRequest, info: RequestInfo, ticket: BodyTicket): Promise<FormRead> {
    const early = info.operation === 'uploadReport' ? new AbortController() : undefined;
    const onField = early && ((name: string, value: string) => {
      if (name !== 'licensekey') return;
      keyStore.lookup(value).then(
        (lookup) => lookup.state !== 'valid' && early.abort(lookup),
        () => {}, // the full check after the body will tell
      );
    });
    const signal = early ? AbortSignal.any([ticket.signal, early.signal]) : ticket.signal;
    try {
      return await readForm(request.body, request.headers, formLimits[info.operation], { signal, onBytes: ticket.take, onField });
    } finally {
      ticket.received();
    }
  }

  /** Answers a body that could not be read whole: too large, over the budget, too slow, or its key refused early. */
  async function refuseBody(info: RequestInfo, form: FormRead): Promise<AuditResponse | undefined> {
    const operation = info.operation;
    switch (form.kind) {
      case 'too-large':
        return rejectRequest(info, 'too-large', {}, payloadTooLarge(formLimits[operation].maxBodyBytes));
      case 'over-budget':
        return rejectRequest(info, 'busy', {}, serverBusy(BUSY_RETRY_AFTER_SECONDS));
      case 'aborted':
        if (form.reason === 'too-slow') return rejectRequest(info, 'too-slow', {}, BODY_TOO_SLOW);
        // The key arrived before the rest of the body and is not valid: a definite no, counted as one.
        await recordFailure(info);
        return rejectRequest(info, 'invalid-key', { keyId: keyIdOf(form.reason as KeyLookup) }, UPLOAD_UNAUTHORIZED);
      default:
        return undefined;
    }
  }

  const backend = new OpenAPIBackend({
    definition: openApiDocument,
    ignoreTrailingSlashes: false, // the contract's paths end in `/`, as Lynis sends them
    quick: true,
    // allErrors: so that a bad key is found (401) whatever else is wrong. unicode: false makes ajv count
    // lengths with `.length` instead of walking every character of a report: form values are latin1 strings
    // (one character per byte, never a surrogate pair), so both counts are the same.
    ajvOpts: { allErrors: true, unicode: false, logger: ajvLogger },
  });
  await backend.init();
  const route = compileRoutes(backend, 'audit');
  const operationHandlers: Record<string, (context: OperationContext<never>, request: RequestInfo) => Promise<AuditResponse>> = {
    checkLicense,
    checkLicenseLegacy: checkLicense,
    uploadReport,
    uploadReportLegacy: uploadReport,
  };

  /** Validates a request whose form has been read whole, and hands it to its operation. */
  async function dispatch(request: AuditRequest, match: Extract<RouteMatch, { kind: 'operation' }>, info: RequestInfo): Promise<AuditResponse> {
    const body = info.form?.kind === 'fields' ? info.form.fields : undefined;
    const context: OperationContext<never> = { request: { requestBody: body as never }, operation: match.operation, validation: match.validate(body, request.headers) };
    if (!context.validation.valid) return validationFail(context, info);
    const handler = operationHandlers[match.operation.operationId ?? ''];
    if (!handler) throw new Error(`No handler for operation ${match.operation.operationId}`);
    return handler(context, info);
  }

  return {
    bodyBytesInFlight: () => bodies.bytesInFlight,
    async handle(request) {
      const path = toContractPath(request.path);
      if (path === undefined) return undefined;
      const started = performance.now();
      // Routed before anything is read: unknown paths and wrong methods cost no body and no limiter call.
      const match = route(request.method, path);
      const operation = match.kind === 'operation' ? OPERATION_BY_ID[match.operation.operationId!] : operationOfPath(path);
      const info: RequestInfo = { operation: operation ?? 'uploadReport', remoteAddress: request.remoteAddress };
      let form: FormRead | undefined;
      let ticket: BodyTicket | undefined;
      let response: AuditResponse;
      try {
        if (match.kind === 'not-found') response = NOT_FOUND;
        else if (match.kind === 'method-not-allowed') {
          response = rejectRequest(info, 'method-not-allowed', {}, textResponse(405, 'Method not allowed: use POST', { allow: 'POST' }));
        } else {
          response = (await admit(info)) ?? (await answer());
        }
      } catch (error) {
        if (error instanceof DependencyUnavailableError) {
          logger.error({ dependency: error.dependency, error: describeFailure(error.cause) }, 'dependency unavailable');
          response = rejectRequest(info, 'unavailable', {}, serviceUnavailable(UNAVAILABLE_RETRY_AFTER_SECONDS));
        } else {
          logger.error({ error: describeFailure(error) }, 'request failed');
          response = INTERNAL_ERROR;
        }
      } finally {
        ticket?.release();
      }
      const completed = {
        operation: operation ?? 'unknown',
        status: response.status,
        durationMs: performance.now() - started,
        bytesReceived: form?.bytesReceived ?? 0,
      } as const;
      callHook('onRequestCompleted', hooks.onRequestCompleted, completed, logger.error.bind(logger));
      return bodyLeftUnread(request) ? withConnectionClose(response) : response;

      /** Reads the body within the limits, then validates and hands it to its operation. */
      async function answer(): Promise<AuditResponse> {
        if (request.parsedFields) {
          form = formFromParsedFields(request.parsedFields, request.headers, formLimits[info.operation]);
        } else {
          const declared = Number(request.headers['content-length']);
          if (declared > formLimits[info.operation].maxBodyBytes) {
            return rejectRequest(info, 'too-large', {}, payloadTooLarge(formLimits[info.operation].maxBodyBytes));
          }
          const admitted = bodies.admit(request.remoteAddress, declared);
          if (admitted === 'budget') return rejectRequest(info, 'busy', {}, serverBusy(BUSY_RETRY_AFTER_SECONDS));
          if (admitted === 'address') return rejectRequest(info, 'rate-limited', {}, tooManyRequests(BUSY_RETRY_AFTER_SECONDS));
          ticket = admitted;
          form = await readBody(request, info, ticket);
        }
        info.form = form;
        return (await refuseBody(info, form)) ?? (await dispatch(request, match as Extract<RouteMatch, { kind: 'operation' }>, info));
      }
    },
  };
}

/**
 * The report to hand to the store. The decoded bytes are this request's own (a view of the body it read, or a
 * fresh decode), so the key is redacted in them, after their size and SHA-256 are taken.
 */
function reportToStore(keyId: string, host: { hostId: string; hostId2?: string }, decoded: { encoding: ReportEncoding; bytes: Buffer }): ReportToStore {
  const size = decoded.bytes.length;
  const sha256 = sha256Hex(decoded.bytes);
  const content = redactLicenseKeys(decoded.bytes, { inPlace: true });
  return { keyId, ...host, receivedAt: new Date(), encoding: decoded.encoding, size, sha256, content, summary: summarizeReportBytes(content) };
}

/**
 * Whether the request still has body bytes on the way: then the answer closes the connection, so that a
 * refused client must reconnect rather than hold it open, and nothing more of its body is read.
 */
function bodyLeftUnread(request: AuditRequest): boolean {
  if (request.parsedFields || !request.body || request.body.readableEnded) return false;
  return Number(request.headers['content-length']) > 0 || request.headers['transfer-encoding'] !== undefined;
}

/** ajv's console logging, less its notice that `unicode` is deprecated: the option still works and is chosen on purpose. */
const ajvLogger = {
  log: console.log,
  warn: (message: unknown, ...rest: unknown[]) => {
    if (!String(message).startsWith('DEPRECATED: option unicode')) console.warn(message, ...rest);
  },
  error: console.error,
};

/** The key record to name in a log line: never the key itself. */
function keyIdOf(lookup: KeyLookup | undefined): string {
  return lookup && lookup.state !== 'unknown' ? lookup.keyId : 'unknown';
}

function concernsLicenseKey(error: ValidationError): boolean {
  return error.instancePath === '/requestBody/licensekey' || error.params['missingProperty'] === 'licensekey';
}

function describeError(error: ValidationError): string {
  const field = error.instancePath.replace(/^\/requestBody\/?/, '');
  // Form values are always text, so a type error means the field came more than once (the form reader's array).
  if (error.keyword === 'type') return `${field} given more than once`;
  return field ? `${field} ${error.message}` : `${error.message}`;
}
