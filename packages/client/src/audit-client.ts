import { createClient } from './generated/client/index.js';
import { checkLicense, checkLicenseLegacy, uploadReport, uploadReportLegacy } from './generated/sdk.gen.js';
import type { CheckLicenseErrors, CheckLicenseResponses, ReportUploadForm } from './generated/types.gen.js';
import {
  AuditClientError,
  InvalidKeyError,
  NetworkError,
  RateLimitedError,
  RequestRejectedError,
  ServerError,
  TooLargeError,
} from './errors.js';
import { createTlsFetch, type TlsOptions } from './tls-fetch.js';

/** The contract's two license texts, typed from openapi.yaml so a changed text breaks the build. */
const LICENSE_VALID: CheckLicenseResponses[200] = 'Response 100';
const LICENSE_INVALID: CheckLicenseErrors[401] = 'Response 500';
/** Characters allowed in the tool segment, as the reference server allows them. */
const TOOL_SEGMENT_PATTERN = /^[A-Za-z0-9._~-]+$/;
/** The end of every path in the contract, whose tool segment is `audit`. */
const CONTRACT_PATH_END = /\/api\/(v1\/)?audit\/(license|upload)\/$/;
/** Default time to wait for an answer. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Where the server is and how to trust it. */
export interface AuditClientOptions extends TlsOptions {
  /** The server's origin, plus the path it is mounted under if any, e.g. `https://collector.example.org:8443`. */
  baseUrl: string;
  /** The path segment in `/api/<segment>/upload/` (default `audit`, as in the contract). */
  toolSegment?: string;
  /** Send to the legacy `/api/v1/<segment>/` paths instead of `/api/<segment>/`. */
  legacyPaths?: boolean;
  /** Milliseconds to wait for each answer before failing with a `NetworkError` (default 60 000). */
  timeoutMs?: number;
  /** Extra headers on every request, e.g. `Prefer: code=429` for the Prism mock. */
  headers?: Record<string, string>;
}

/** One report to upload. */
export interface ReportUpload {
  licenseKey: string;
  hostId: string;
  hostId2?: string;
  /** The report file's bytes, or its text. */
  report: Buffer | string;
  /** `raw` sends the report text as Lynis does (default); `base64` sends its bytes base64-encoded, as the spec describes. */
  encoding?: 'raw' | 'base64';
}

/** A client of one audit collection server. */
export interface AuditClient {
  /** Asks whether a key is valid: `{ valid: true }` for `Response 100`, `{ valid: false }` for `Response 500`, else throws. */
  checkLicense(licenseKey: string, options?: { collectorVersion?: string }): Promise<{ valid: boolean }>;
  /** Uploads one report; resolves with the stored report's id once the server has stored it durably. */
  uploadReport(upload: ReportUpload): Promise<{ id: string }>;
  /** Closes the client's connections. */
  close(): Promise<void>;
}

/** Creates a client; TLS certificates are verified unless `ca` or `insecure` says otherwise. */
export function createAuditClient(options: AuditClientOptions): AuditClient {
  const { baseUrl, toolSegment = 'audit', legacyPaths = false, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  if (!TOOL_SEGMENT_PATTERN.test(toolSegment)) throw new TypeError(`Invalid tool segment: ${JSON.stringify(toolSegment)}`);
  const tls = createTlsFetch(options);
  const client = createClient({ baseUrl: baseUrl.replace(/\/+$/, ''), fetch: tls.fetch, headers: options.headers });
  if (toolSegment !== 'audit') client.interceptors.request.use((request) => withToolSegment(request, toolSegment));
  const call = { client, parseAs: 'text', throwOnError: false } as const;

  return {
    async checkLicense(licenseKey, { collectorVersion } = {}) {
      const body = { licensekey: licenseKey, ...(collectorVersion === undefined ? {} : { collector_version: collectorVersion }) };
      const send = legacyPaths ? checkLicenseLegacy : checkLicense;
      const answer = await exchange(() => send({ ...call, body, signal: AbortSignal.timeout(timeoutMs) }), licenseKey);
      if (answer.status === 200 && answer.text === LICENSE_VALID) return { valid: true };
      if (answer.status === 401 && answer.text === LICENSE_INVALID) return { valid: false };
      throw errorFor(answer, false);
    },

    async uploadReport({ licenseKey, hostId, hostId2, report, encoding = 'raw' }) {
      const body: ReportUploadForm = {
        licensekey: licenseKey,
        hostid: hostId,
        ...(hostId2 === undefined ? {} : { hostid2: hostId2 }),
        data: encodeReport(report, encoding),
      };
      const send = legacyPaths ? uploadReportLegacy : uploadReport;
      const answer = await exchange(() => send({ ...call, body, signal: AbortSignal.timeout(timeoutMs) }), licenseKey);
      const stored = answer.status === 200 ? /^OK (\S+)$/.exec(answer.text) : null;
      if (stored) return { id: stored[1]! };
      throw errorFor(answer, true);
    },

    close: () => tls.close(),
  };
}

/** The report as the `data` field: its text (raw), or its bytes in base64. */
function encodeReport(report: Buffer | string, encoding: 'raw' | 'base64'): string {
  if (encoding === 'base64') return Buffer.from(report).toString('base64');
  if (encoding !== 'raw') throw new TypeError(`Unknown report encoding: ${JSON.stringify(encoding)}`);
  if (typeof report === 'string') return report;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(report);
  } catch {
    // A form field is text: bytes that are not UTF-8 would be changed on the way. base64 carries them unchanged.
    throw new TypeError("The report is not valid UTF-8 text; upload it with encoding 'base64'");
  }
}

/** Sends the request to the configured segment instead of the contract's `audit`, with the body unchanged. */
async function withToolSegment(request: Request, toolSegment: string): Promise<Request> {
  const url = new URL(request.url);
  url.pathname = url.pathname.replace(CONTRACT_PATH_END, (_match, v1 = '', operation: string) => `/api/${v1}${toolSegment}/${operation}/`);
  // A buffered body keeps Content-Length; re-wrapping the stream would switch to chunked encoding.
  const body = await request.arrayBuffer();
  return new Request(url, { method: request.method, headers: request.headers, body, signal: request.signal });
}

/** What the server answered: status, `Retry-After` and body text. */
interface Answer {
  status: number;
  retryAfter: string | null;
  text: string;
}

/** Runs one SDK call and returns the server's answer; a missing answer becomes a `NetworkError`. */
async function exchange(
  send: () => Promise<{ response?: Response; data?: unknown; error?: unknown; request: Request }>,
  licenseKey: string,
): Promise<Answer> {
  const result = await send();
  if (!result.response) {
    const cause = result.error as Error & { cause?: Error };
    const detail = cause?.cause?.message ?? cause?.message ?? String(cause);
    throw new NetworkError(`No answer from ${result.request.url}: ${redact(detail, licenseKey)}`, cause);
  }
  const body = result.response.ok ? result.data : result.error;
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  return { status: result.response.status, retryAfter: result.response.headers.get('retry-after'), text: redact(text, licenseKey) };
}

/** Maps an answer that is not a success to the typed error a caller branches on. */
function errorFor({ status, retryAfter, text }: Answer, isUpload: boolean): AuditClientError {
  const reason = firstLine(text);
  if (status === 429) return new RateLimitedError(parseRetryAfter(retryAfter));
  if (status === 413) return new TooLargeError(reason);
  if (isUpload && status === 401) return new InvalidKeyError(status);
  if (status === 400 || status === 415 || status === 422) return new RequestRejectedError(status, reason);
  return new ServerError(status, reason || '(empty body)');
}

/** Seconds from a `Retry-After` header: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const firstLine = (text: string) => text.split(/\r?\n/, 1)[0]!.slice(0, 500);
/** No key in an error message, even if a server echoes it. */
const redact = (text: string, licenseKey: string) => (licenseKey ? text.replaceAll(licenseKey, '[redacted]') : text);
