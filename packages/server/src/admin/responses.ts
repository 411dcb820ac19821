import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import type { Problem } from '@org/audit-server-core';

/** An answer of the admin API, independent of the HTTP framework that sends it. */
export interface AdminResponse {
  status: number;
  headers: Record<string, string>;
  /** The body whole, or streamed (exports): a stream that fails part way cuts the connection, so no client takes a truncated export for a whole one. */
  body: string | Uint8Array | Readable;
}

/** A JSON answer. `JSON.stringify` writes every `Date` as an ISO 8601 string, as the contract's `date-time` fields want. */
export function jsonResponse(status: number, value: unknown): AdminResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(value) };
}

/** A `text/plain` answer of stored bytes, sent as they are. */
export function textResponse(status: number, body: Uint8Array): AdminResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body };
}

/** An error as RFC 9457 describes it (`application/problem+json`); `detail` must never carry a secret. */
export function problemResponse(status: number, detail: string, headers: Record<string, string> = {}): AdminResponse {
  const problem: Problem = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail };
  return { status, headers: { 'content-type': 'application/problem+json', ...headers }, body: JSON.stringify(problem) };
}
