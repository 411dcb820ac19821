import { checkLicense, checkLicenseLegacy, uploadReport, uploadReportLegacy } from './generated/sdk.gen.js';
import type { CheckLicenseErrors, CheckLicenseResponses, ReportUploadForm } from './generated/types.gen.js';
import { InvalidKeyError, type AuditClientError } from './errors.js';
import { commonErrorFor, createTransport, exchange, firstLine, type Answer, type TransportOptions } from './transport.js';

/** The contract's two license texts, typed from openapi.yaml so a changed text breaks the build. */
const LICENSE_VALID: CheckLicenseResponses[200] = 'Response 100';
const LICENSE_INVALID: CheckLicenseErrors[401] = 'Response 500';
/** Characters allowed in the tool segment, as the reference server allows them. */
const TOOL_SEGMENT_PATTERN = /^[A-Za-z0-9._~-]+$/;
/** The end of every path in the contract, whose tool segment is `audit`. */
const CONTRACT_PATH_END = /\/api\/(v1\/)?audit\/(license|upload)\/$/;

/** Where the server is, how to trust it, and the paths its audit operations are under. */
export interface AuditClientOptions extends TransportOptions {
  /** The path segment in `/api/<segment>/upload/` (default `audit`, as in the contract). */
  toolSegment?: string;
  /** Send to the legacy `/api/v1/<segment>/` paths instead of `/api/<segment>/`. */
  legacyPaths?: boolean;
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
  const { toolSegment = 'audit', legacyPaths = false } = options;
  if (!TOOL_SEGMENT_PATTERN.test(toolSegment)) throw new TypeError(`Invalid tool segment: ${JSON.stringify(toolSegment)}`);
  const transport = createTransport(options);
  if (toolSegment !== 'audit') transport.client.interceptors.request.use((request) => withToolSegment(request, toolSegment));

  return {
    async checkLicense(licenseKey, { collectorVersion } = {}) {
      const body = { licensekey: licenseKey, ...(collectorVersion === undefined ? {} : { collector_version: collectorVersion }) };
      const send = legacyPaths ? checkLicenseLegacy : checkLicense;
      const answer = await exchange(() => send({ ...transport.call(), body }), licenseKey);
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
      const answer = await exchange(() => send({ ...transport.call(), body }), licenseKey);
      const stored = answer.status === 200 ? /^OK (\S+)$/.exec(answer.text) : null;
      if (stored) return { id: stored[1]! };
      throw errorFor(answer, true);
    },

    close: () => transport.close(),
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

/** Maps an answer that is not a success to the typed error a caller branches on. */
function errorFor(answer: Answer, isUpload: boolean): AuditClientError {
  if (isUpload && answer.status === 401) return new InvalidKeyError(answer.status);
  return commonErrorFor(answer, firstLine(answer.text));
}
