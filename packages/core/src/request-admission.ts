import type { IncomingHttpHeaders } from 'node:http';
import type { BodyAdmission, BodyTicket } from './body-admission.js';
import type { AuditRateLimiter } from './rate-limit.js';
import { rejectRequest, type RejectionContext, type RequestInfo } from './reject-request.js';
import { BUSY_RETRY_AFTER_SECONDS, type FormLimitsByOperation } from './request-body.js';
import { payloadTooLarge, serverBusy, tooManyRequests, type AuditResponse } from './responses.js';
import { callDependency } from './unavailable.js';

/** What the client's rate limit needs. */
export type ClientLimitContext = RejectionContext & { rateLimiter?: AuditRateLimiter };

/** What admitting a body needs: the operations' body limits and the body admission. */
export type BodyAdmissionContext = RejectionContext & { bodies: BodyAdmission; formLimits: FormLimitsByOperation };

/** Refuses a request over the client's rate limits, before its body is read; resolves `undefined` to go on. */
export async function admitRequest(context: ClientLimitContext, info: RequestInfo): Promise<AuditResponse | undefined> {
  const { rateLimiter } = context;
  if (!rateLimiter || !info.remoteAddress) return undefined;
  const decision = await callDependency('rate limiter', () => rateLimiter.consumeRequest(info.remoteAddress!));
  return decision.allowed ? undefined : rejectRequest(context, info, 'rate-limited', {}, tooManyRequests(decision.retryAfterSeconds));
}

/**
 * Admits a body to be read: refused when its declared length is over the operation's limit, when the memory
 * budget cannot take it, or when its address already sends too many. The ticket must be released after the answer.
 */
export function admitBody(context: BodyAdmissionContext, info: RequestInfo, headers: IncomingHttpHeaders): { ticket: BodyTicket } | { refusal: AuditResponse } {
  const declared = Number(headers['content-length']);
  const { maxBodyBytes } = context.formLimits[info.operation];
  if (declared > maxBodyBytes) return { refusal: rejectRequest(context, info, 'too-large', {}, payloadTooLarge(maxBodyBytes)) };
  const admitted = context.bodies.admit(info.remoteAddress, declared);
  if (admitted === 'budget') return { refusal: rejectRequest(context, info, 'busy', {}, serverBusy(BUSY_RETRY_AFTER_SECONDS)) };
  if (admitted === 'address') return { refusal: rejectRequest(context, info, 'rate-limited', {}, tooManyRequests(BUSY_RETRY_AFTER_SECONDS)) };
  return { ticket: admitted };
}
