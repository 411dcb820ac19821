import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { OpenAPIBackend, type Context, type ValidationResult } from 'openapi-backend';
import { openApiDocument } from './generated/openapi.gen.js';
import type { LicenseCheckForm, ReportUploadForm } from './generated/types.gen.js';
import { readForm, type FormReadResult } from './form.js';
import { decodeReportData, redactLicenseKeys, sha256Hex } from './report-data.js';
import {
  INTERNAL_ERROR,
  LICENSE_INVALID,
  LICENSE_VALID,
  NOT_FOUND,
  UNSUPPORTED_MEDIA_TYPE,
  serverBusy,
  tooManyRequests,
  UPLOAD_UNAUTHORIZED,
  payloadTooLarge,
  textResponse,
  type AuditResponse,
} from './responses.js';
import { ALLOWED, type AuditRateLimiter } from './rate-limit.js';
import type { KeyLookup, KeyStore, ReportStore } from './stores.js';

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
  /** Largest request body in bytes. Default 16 MiB: real Lynis reports pass 100 kB, and Lynis ignores a 413. */
  maxBodyBytes?: number;
  /** Most form fields in one request. Default 32. */
  maxFields?: number;
  /** Most uploads handled at once; more are answered 503 before their body is read. Default 64. */
  maxUploadsInFlight?: number;
  /** Limits per client address, per key and on failed key checks. Default: none. */
  rateLimiter?: AuditRateLimiter;
  /** Where accepted and rejected uploads are logged. Default: nowhere. */
  logger?: AuditLogger;
}

/** A request as the adapters hand it over: the body is the unread stream. */
export interface AuditRequest {
  method: string;
  /** The request path relative to where the API is mounted, without the query string. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Readable;
  /** The client's IP address as the adapter determined it; per-address limits apply only when it is known. */
  remoteAddress?: string;
}

/** The audit endpoints, ready to be served by any HTTP framework through an adapter. */
export interface AuditApi {
  /** Answers a request for one of the audit paths, or resolves `undefined` when the path is not one of them. */
  handle(request: AuditRequest): Promise<AuditResponse | undefined>;
}

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Default cap on form fields: Lynis sends four, multipart clients a few more. */
export const DEFAULT_MAX_FIELDS = 32;
/** Default cap on uploads in flight: with 16 MiB bodies at most about 1 GiB buffered, yet far above what SQLite stores per second. */
export const DEFAULT_MAX_UPLOADS_IN_FLIGHT = 64;
/** What a busy server asks the client to wait, in seconds: uploads take milliseconds to store, slow senders seconds. */
const BUSY_RETRY_AFTER_SECONDS = 5;
/** What a tool segment may be: one URL path segment of unreserved characters. */
export const TOOL_SEGMENT_PATTERN = /^[A-Za-z0-9._~-]+$/;
const LICENSE_OPERATIONS = new Set(['checkLicense', 'checkLicenseLegacy']);
const silentLogger: AuditLogger = { info() {}, warn() {}, error() {} };

/** What openapi-backend hands every handler besides the context: what was learned before validation. */
interface RequestInfo {
  form?: FormReadResult;
  clientAddress?: string;
}

/** The outcome of checking a request's key, with the failure and per-key limits applied. */
type KeyCheck =
  | { state: 'valid'; keyId: string }
  | { state: 'refused'; keyId: string }
  | { state: 'limited'; keyId: string; retryAfterSeconds: number };

/** Builds the audit API over openapi.yaml: routing and validation by openapi-backend, behaviour here. */
export async function createAuditApi(options: AuditApiOptions): Promise<AuditApi> {
  const { keyStore, reportStore } = options;
  const toolSegment = options.toolSegment ?? 'audit';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const formLimits = { maxBodyBytes, maxFields: options.maxFields ?? DEFAULT_MAX_FIELDS };
  const logger = options.logger ?? silentLogger;
  const { rateLimiter } = options;
  const maxUploadsInFlight = options.maxUploadsInFlight ?? DEFAULT_MAX_UPLOADS_IN_FLIGHT;
  let uploadsInFlight = 0;
  if (!TOOL_SEGMENT_PATTERN.test(toolSegment)) throw new Error(`toolSegment must be one URL path segment, not "${toolSegment}"`);

  // The contract names the tool `audit`; requests use the configured segment.
  const prefixes = ['/api/', '/api/v1/'].map((base) => ({ served: `${base}${toolSegment}/`, contract: `${base}audit/` }));
  const toContractPath = (path: string) => {
    const prefix = prefixes.find(({ served }) => path.startsWith(served));
    return prefix && prefix.contract + path.slice(prefix.served.length);
  };

  const rejectUpload = (reason: string, fields: object, response: AuditResponse) => {
    logger.warn({ reason, keyId: 'unknown', ...fields }, 'upload rejected');
    return response;
  };

  /** Looks a key up (none when missing or malformed), counts a failure against the client, or the request against the key. */
  async function checkKey(licenseKey: string | undefined, info: RequestInfo): Promise<KeyCheck> {
    const lookup = licenseKey ? await keyStore.lookup(licenseKey) : undefined;
    if (lookup?.state !== 'valid') {
      if (rateLimiter && info.clientAddress) await rateLimiter.recordFailure(info.clientAddress);
      return { state: 'refused', keyId: keyIdOf(lookup) };
    }
    const decision = rateLimiter ? await rateLimiter.consumeKey(lookup.keyId) : ALLOWED;
    if (!decision.allowed) return { state: 'limited', keyId: lookup.keyId, retryAfterSeconds: decision.retryAfterSeconds };
    return { state: 'valid', keyId: lookup.keyId };
  }

  const rateLimited = (context: Context, check: { keyId: string; retryAfterSeconds: number }, info: RequestInfo, fields: object = {}) =>
    rejectUpload(
      'rate-limited',
      { ...fields, path: context.request.path, keyId: check.keyId, clientAddress: info.clientAddress, limit: 'key' },
      tooManyRequests(check.retryAfterSeconds),
    );

  async function checkLicense(context: Context<LicenseCheckForm>, info: RequestInfo): Promise<AuditResponse> {
    const key = await checkKey(context.request.requestBody.licensekey, info);
    if (key.state === 'limited') return rateLimited(context, key, info);
    return key.state === 'valid' ? LICENSE_VALID : LICENSE_INVALID;
  }

  async function uploadReport(context: Context<ReportUploadForm>, info: RequestInfo): Promise<AuditResponse> {
    const form = context.request.requestBody;
    const host = { hostId: form.hostid, hostId2: form.hostid2 };
    const key = await checkKey(form.licensekey, info);
    if (key.state === 'limited') return rateLimited(context, key, info, host);
    if (key.state !== 'valid') return rejectUpload('invalid-key', { ...host, keyId: key.keyId }, UPLOAD_UNAUTHORIZED);
    const decoded = decodeReportData(form.data);
    if (!decoded.ok) {
      return rejectUpload('invalid-data', { ...host, keyId: key.keyId }, textResponse(400, `Invalid data: ${decoded.reason}`));
    }
    const { id } = await reportStore.save({
      keyId: key.keyId,
      ...host,
      receivedAt: new Date(),
      encoding: decoded.encoding,
      size: decoded.bytes.length,
      sha256: sha256Hex(decoded.bytes),
      content: redactLicenseKeys(decoded.bytes),
    });
    logger.info({ reportId: id, keyId: key.keyId, ...host, bytes: decoded.bytes.length, encoding: decoded.encoding }, 'report stored');
    return textResponse(200, `OK ${id}`);
  }

  /** Every validation failure is answered here, per the contract: license checks only ever say `Response 500`. */
  async function validationFail(context: Context, info: RequestInfo): Promise<AuditResponse> {
    const formProblem = info.form;
    const errors = context.validation.errors ?? [];
    // A key that came twice or is too long is no key; any other field is looked at only once the key is valid.
    const body = context.request.requestBody as { licensekey?: string; hostid?: unknown } | undefined;
    const licenseKey = errors.some(concernsLicenseKey) ? undefined : body?.licensekey;
    // The host id is logged only when it is one plausible value, never a long or repeated one.
    const host = typeof body?.hostid === 'string' && body.hostid.length <= 255 ? { hostId: body.hostid } : {};
    if (LICENSE_OPERATIONS.has(context.operation.operationId ?? '')) {
      // Whatever else is wrong, a malformed license check is a failed one, counted against the client.
      await checkKey(undefined, info);
      return LICENSE_INVALID;
    }
    if (formProblem?.kind === 'unsupported-type') return rejectUpload('unsupported-type', {}, UNSUPPORTED_MEDIA_TYPE);
    if (formProblem?.kind === 'malformed') {
      return rejectUpload('malformed', {}, textResponse(400, `Invalid form data: ${formProblem.reason}`));
    }
    // The key is checked before the other fields, so that without a valid key nothing about them is told.
    const key = await checkKey(licenseKey, info);
    if (key.state === 'limited') return rateLimited(context, key, info, host);
    if (key.state !== 'valid') return rejectUpload('invalid-key', { ...host, keyId: key.keyId }, UPLOAD_UNAUTHORIZED);
    return rejectUpload('invalid-request', { ...host, keyId: key.keyId }, textResponse(400, `Invalid request: ${errors.map(describeError).join('; ')}`));
  }

  /** Refuses a request before its body is read: over the client's limits, or too many uploads in flight. */
  async function admit(path: string, clientAddress: string | undefined): Promise<AuditResponse | undefined> {
    if (rateLimiter && clientAddress) {
      const decision = await rateLimiter.consumeRequest(clientAddress);
      if (!decision.allowed) {
        return rejectUpload('rate-limited', { path, keyId: 'unknown', clientAddress, limit: 'address' }, tooManyRequests(decision.retryAfterSeconds));
      }
    }
    if (isUploadPath(path) && uploadsInFlight >= maxUploadsInFlight) {
      return rejectUpload('busy', { path, keyId: 'unknown', clientAddress, uploadsInFlight }, serverBusy(BUSY_RETRY_AFTER_SECONDS));
    }
    return undefined;
  }

  const backend = new OpenAPIBackend({
    definition: openApiDocument,
    ignoreTrailingSlashes: false, // the contract's paths end in `/`, as Lynis sends them
    ajvOpts: { allErrors: true }, // so that a bad key is found (401) whatever else is wrong
    handlers: {
      checkLicense,
      checkLicenseLegacy: checkLicense,
      uploadReport,
      uploadReportLegacy: uploadReport,
      validationFail,
      notFound: () => NOT_FOUND,
      methodNotAllowed: () => textResponse(405, 'Method not allowed: use POST', { allow: 'POST' }),
    },
  });
  await backend.init();

  return {
    async handle(request) {
      const path = toContractPath(request.path);
      if (path === undefined) return undefined;
      const info: RequestInfo = { clientAddress: request.remoteAddress };
      let holdsUploadSlot = false;
      try {
        if (request.method === 'POST') {
          const refused = await admit(path, info.clientAddress);
          if (refused) {
            request.body.resume(); // discarded as it arrives, never buffered, so the connection stays usable
            return refused;
          }
          if (isUploadPath(path)) {
            uploadsInFlight++;
            holdsUploadSlot = true;
          }
          info.form = await readForm(request.body, request.headers, formLimits);
          if (info.form.kind === 'too-large') return rejectUpload('too-large', { path }, payloadTooLarge(maxBodyBytes));
        }
        const body = info.form?.kind === 'fields' ? info.form.fields : undefined;
        return (await backend.handleRequest({ method: request.method, path, headers: request.headers as Record<string, string>, body }, info)) as AuditResponse;
      } catch (error) {
        logger.error({ error: describeFailure(error) }, 'request failed');
        return INTERNAL_ERROR;
      } finally {
        if (holdsUploadSlot) uploadsInFlight--;
      }
    },
  };
}

function isUploadPath(contractPath: string): boolean {
  return contractPath.endsWith('/upload/');
}

/** The key record to name in a log line: never the key itself. */
function keyIdOf(lookup: KeyLookup | undefined): string {
  return lookup && lookup.state !== 'unknown' ? lookup.keyId : 'unknown';
}

type ValidationError = NonNullable<ValidationResult['errors']>[number];

function concernsLicenseKey(error: ValidationError): boolean {
  return error.instancePath === '/requestBody/licensekey' || error.params['missingProperty'] === 'licensekey';
}

function describeError(error: ValidationError): string {
  const field = error.instancePath.replace(/^\/requestBody\/?/, '');
  // Form values are always text, so a type error means the field came more than once (the form reader's array).
  if (error.keyword === 'type') return `${field} given more than once`;
  return field ? `${field} ${error.message}` : `${error.message}`;
}

/** Name, code and the start of the message: enough to diagnose, too little to carry a stored report into the log. */
function describeFailure(error: unknown): object {
  if (!(error instanceof Error)) return { message: String(error).slice(0, 300) };
  return { type: error.name, code: (error as { code?: unknown }).code, message: error.message.slice(0, 300) };
}
