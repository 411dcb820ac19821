import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { OpenAPIBackend } from 'openapi-backend';
import { compileRoutes, type OperationContext, type ValidationError } from './contract-routes.js';
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
  UPLOAD_UNAUTHORIZED,
  payloadTooLarge,
  textResponse,
  type AuditResponse,
} from './responses.js';
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
  /** Largest request body in bytes. Default 16 MiB: real Lynis reports pass 100 kB, and Lynis ignores a 413. */
  maxBodyBytes?: number;
  /** Most form fields in one request. Default 32. */
  maxFields?: number;
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
}

/** The audit endpoints, ready to be served by any HTTP framework through an adapter. */
export interface AuditApi {
  /** Answers a request for one of the audit paths, or resolves `undefined` when the path is not one of them. */
  handle(request: AuditRequest): Promise<AuditResponse | undefined>;
}

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_FIELDS = 32;
/** What a tool segment may be: one URL path segment of unreserved characters. */
export const TOOL_SEGMENT_PATTERN = /^[A-Za-z0-9._~-]+$/;
const LICENSE_OPERATIONS = new Set(['checkLicense', 'checkLicenseLegacy']);
const silentLogger: AuditLogger = { info() {}, warn() {}, error() {} };

/** Builds the audit API over openapi.yaml: routing and validation by openapi-backend, behaviour here. */
export async function createAuditApi(options: AuditApiOptions): Promise<AuditApi> {
  const { keyStore, reportStore } = options;
  const toolSegment = options.toolSegment ?? 'audit';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const formLimits = { maxBodyBytes, maxFields: options.maxFields ?? DEFAULT_MAX_FIELDS };
  const logger = options.logger ?? silentLogger;
  if (!TOOL_SEGMENT_PATTERN.test(toolSegment)) throw new Error(`toolSegment must be one URL path segment, not "${toolSegment}"`);

  // The contract names the tool `audit`; requests use the configured segment.
  const prefixes = ['/api/', '/api/v1/'].map((base) => ({ served: `${base}${toolSegment}/`, contract: `${base}audit/` }));
  const toContractPath = (path: string) => {
    const prefix = prefixes.find(({ served }) => path.startsWith(served));
    return prefix && prefix.contract + path.slice(prefix.served.length);
  };

  const rejectUpload = (reason: string, fields: object, response: AuditResponse) => {
    logger.warn({ reason, ...fields }, 'upload rejected');
    return response;
  };

  async function checkLicense(context: OperationContext<LicenseCheckForm>): Promise<AuditResponse> {
    const key = await keyStore.lookup(context.request.requestBody.licensekey);
    return key.state === 'valid' ? LICENSE_VALID : LICENSE_INVALID;
  }

  async function uploadReport(context: OperationContext<ReportUploadForm>): Promise<AuditResponse> {
    const form = context.request.requestBody;
    const host = { hostId: form.hostid, hostId2: form.hostid2 };
    const key = await keyStore.lookup(form.licensekey);
    if (key.state !== 'valid') return rejectUpload('invalid-key', { ...host, keyId: keyIdOf(key) }, UPLOAD_UNAUTHORIZED);
    const decoded = decodeReportData(form.data);
    if (!decoded.ok) {
      return rejectUpload('invalid-data', { ...host, keyId: key.keyId }, textResponse(400, `Invalid data: ${decoded.reason}`));
    }
    const report = reportToStore(key.keyId, host, decoded);
    const { id } = await reportStore.save(report);
    logger.info({ reportId: id, keyId: key.keyId, ...host, bytes: report.size, encoding: report.encoding }, 'report stored');
    return textResponse(200, `OK ${id}`);
  }

  /** Every validation failure is answered here, per the contract: license checks only ever say `Response 500`. */
  async function validationFail(context: OperationContext, formProblem: FormReadResult | undefined): Promise<AuditResponse> {
    if (LICENSE_OPERATIONS.has(context.operation.operationId ?? '')) return LICENSE_INVALID;
    if (formProblem?.kind === 'unsupported-type') return rejectUpload('unsupported-type', {}, UNSUPPORTED_MEDIA_TYPE);
    if (formProblem?.kind === 'malformed') {
      return rejectUpload('malformed', {}, textResponse(400, `Invalid form data: ${formProblem.reason}`));
    }
    // The key is checked before the other fields, so that without a valid key nothing about them is told.
    const errors = context.validation.errors ?? [];
    const keyLookup = errors.some(concernsLicenseKey)
      ? undefined
      : await keyStore.lookup((context.request.requestBody as ReportUploadForm).licensekey);
    if (keyLookup?.state !== 'valid') return rejectUpload('invalid-key', { keyId: keyIdOf(keyLookup) }, UPLOAD_UNAUTHORIZED);
    return rejectUpload('invalid-request', { keyId: keyLookup.keyId }, textResponse(400, `Invalid request: ${errors.map(describeError).join('; ')}`));
  }

  const backend = new OpenAPIBackend({
    definition: openApiDocument,
    ignoreTrailingSlashes: false, // the contract's paths end in `/`, as Lynis sends them
    // allErrors: so that a bad key is found (401) whatever else is wrong. unicode: false makes ajv count
    // lengths with `.length` instead of walking every character of a report: form values are latin1 strings
    // (one character per byte, never a surrogate pair), so both counts are the same.
    ajvOpts: { allErrors: true, unicode: false, logger: ajvLogger },
  });
  await backend.init();
  const route = compileRoutes(backend);
  const operationHandlers: Record<string, (context: OperationContext<never>) => Promise<AuditResponse>> = {
    checkLicense,
    checkLicenseLegacy: checkLicense,
    uploadReport,
    uploadReportLegacy: uploadReport,
  };

  /** Routes and validates a request whose form has been read, and hands it to its operation. */
  async function dispatch(request: AuditRequest, path: string, form: FormReadResult | undefined): Promise<AuditResponse> {
    const match = route(request.method, path);
    if (match.kind === 'not-found') return NOT_FOUND;
    if (match.kind === 'method-not-allowed') return textResponse(405, 'Method not allowed: use POST', { allow: 'POST' });
    const body = form?.kind === 'fields' ? form.fields : undefined;
    const context: OperationContext<never> = { request: { requestBody: body as never }, operation: match.operation, validation: match.validate(body, request.headers) };
    if (!context.validation.valid) return validationFail(context, form);
    const handler = operationHandlers[match.operation.operationId ?? ''];
    if (!handler) throw new Error(`No handler for operation ${match.operation.operationId}`);
    return handler(context);
  }

  return {
    async handle(request) {
      const path = toContractPath(request.path);
      if (path === undefined) return undefined;
      try {
        let form: FormReadResult | undefined;
        if (request.method === 'POST') {
          form = await readForm(request.body, request.headers, formLimits);
          if (form.kind === 'too-large') return rejectUpload('too-large', { path }, payloadTooLarge(maxBodyBytes));
        }
        return await dispatch(request, path, form);
      } catch (error) {
        logger.error({ error: describeFailure(error) }, 'request failed');
        return INTERNAL_ERROR;
      }
    },
  };
}

/** The report to hand to the store. Built apart so that the decoded bytes are not kept alive while it commits. */
function reportToStore(keyId: string, host: { hostId: string; hostId2?: string }, decoded: { encoding: ReportEncoding; bytes: Buffer }): ReportToStore {
  return {
    keyId,
    ...host,
    receivedAt: new Date(),
    encoding: decoded.encoding,
    size: decoded.bytes.length,
    sha256: sha256Hex(decoded.bytes),
    content: redactLicenseKeys(decoded.bytes),
  };
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

/** Name, code and the start of the message: enough to diagnose, too little to carry a stored report into the log. */
function describeFailure(error: unknown): object {
  if (!(error instanceof Error)) return { message: String(error).slice(0, 300) };
  return { type: error.name, code: (error as { code?: unknown }).code, message: error.message.slice(0, 300) };
}
