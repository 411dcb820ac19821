import type { CheckLicenseErrors, CheckLicenseResponses } from './generated/types.gen.js';

/** An answer to an audit request, independent of the HTTP framework that sends it. */
export interface AuditResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A `text/plain` answer: every response of the contract is one. */
export function textResponse(status: number, body: string, headers: Record<string, string> = {}): AuditResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers }, body };
}

// The two license texts are the compatibility contract with Lynis; `satisfies` ties them to openapi.yaml.
/** License check answer for a valid key. */
export const LICENSE_VALID = textResponse(200, 'Response 100' satisfies CheckLicenseResponses[200]);
/** License check answer for an unknown, revoked, missing or empty key. */
export const LICENSE_INVALID = textResponse(401, 'Response 500' satisfies CheckLicenseErrors[401]);

/** Upload answer for an unknown, revoked, missing or empty key. */
export const UPLOAD_UNAUTHORIZED = textResponse(401, 'Invalid license key');

/** Answer to a body over the limit, sent as soon as the limit is passed. */
export function payloadTooLarge(limitBytes: number): AuditResponse {
  return textResponse(413, `Request body too large (limit ${limitBytes} bytes)`);
}

/** Answer to an upload whose body is not form data. */
export const UNSUPPORTED_MEDIA_TYPE = textResponse(415, 'Send the fields as application/x-www-form-urlencoded or multipart/form-data');

/** Answer to a client over a rate limit: `Retry-After` says when to try again. */
export function tooManyRequests(retryAfterSeconds: number): AuditResponse {
  return textResponse(429, 'Too many requests', { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
}

/** Answer to an upload while the server already handles as many as it may; the client is not at fault. */
export function serverBusy(retryAfterSeconds: number): AuditResponse {
  return textResponse(503, 'Server busy, try again later', { 'retry-after': String(retryAfterSeconds) });
}

/** Answer when a store or the rate limiter fails: the server's fault, so never a 401 or a 200. */
export function serviceUnavailable(retryAfterSeconds: number): AuditResponse {
  return textResponse(503, 'Service unavailable, try again later', { 'retry-after': String(retryAfterSeconds) });
}

/** Answer to a body that arrived more slowly than the minimum rate. */
export const BODY_TOO_SLOW = textResponse(408, 'Request body too slow');

/** The same answer, telling the client that the server closes the connection after it. */
export function withConnectionClose(response: AuditResponse): AuditResponse {
  return { ...response, headers: { ...response.headers, connection: 'close' } };
}

/** Answer to a request for a path under the audit prefix that the contract does not define. */
export const NOT_FOUND = textResponse(404, 'Not found');

/** Answer to a failure of the server itself; details go to the log, not to the client. */
export const INTERNAL_ERROR = textResponse(500, 'Internal server error');
