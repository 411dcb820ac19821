import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import type { DomainError, DomainErrorCode } from '../errors/domain-error.js';
import type { ForbiddenProblem, Problem } from '../generated/types.gen.js';
import type { AdminRole } from '../people/roles.js';

/** An answer of the admin API, independent of the HTTP framework that sends it. */
export interface AdminResponse {
  status: number;
  /** Several values only for `set-cookie`, which cannot be joined into one. */
  headers: Record<string, string | string[]>;
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

/** An error as RFC 9457 describes it (`application/problem+json`), with `errors` when given; `detail` must never carry a secret. */
export function problemResponse(
  status: number,
  detail: string,
  headers: Record<string, string> = {},
  members: Pick<Partial<DomainError>, 'errors'> = {},
): AdminResponse {
  const problem: Problem = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail };
  return { status, headers: { 'content-type': 'application/problem+json', ...headers }, body: JSON.stringify({ ...problem, ...members }) };
}

/** The refusal of a token or person whose role is below the one the operation requires (`ForbiddenProblem` in the contract). */
export function forbiddenProblem(role: AdminRole, requiredRole: AdminRole, who: 'token' | 'user' = 'token'): AdminResponse {
  const detail = `This operation requires the ${requiredRole} role; ${who === 'token' ? 'this token has' : 'your account has'} the ${role} role`;
  const problem: ForbiddenProblem = { type: 'about:blank', title: 'Forbidden', status: 403, code: 'forbidden', detail, requiredRole, role };
  return { status: 403, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify(problem) };
}

/** The HTTP status of each {@link DomainErrorCode}: the one place a domain's failure becomes an admin API status. */
const STATUS_OF: Record<DomainErrorCode, number> = { invalid: 400, not_found: 404, conflict: 409, forbidden: 403 };

/** A domain's failure as the admin API answers it: its status, its detail, and the parts of the input that are wrong. */
export function domainProblem(error: DomainError): AdminResponse {
  return problemResponse(STATUS_OF[error.code], error.detail, {}, error.errors.length > 0 ? { errors: error.errors } : {});
}

/** The refusal of a change a session cookie authorises from a page that is not the server's own (cross-site request forgery). */
export function crossSiteProblem(): AdminResponse {
  const detail =
    "This request changes something and carries a session cookie but no Origin of this server (CSRF protection): send it from the dashboard's own pages, or with an admin token";
  return {
    status: 403,
    headers: { 'content-type': 'application/problem+json' },
    body: JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403, code: 'forbidden', detail }),
  };
}
