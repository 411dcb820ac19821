import type { FormRead } from './form.js';
import { callHook, type AuditHooks, type AuditOperation } from './hooks.js';
import type { RejectionReason } from './rejection-reason.js';
import type { AuditLogger } from './logger.js';
import type { AuditResponse } from './responses.js';

/** What one request is about, as the steps of answering it learn it. */
export interface RequestInfo {
  operation: AuditOperation;
  remoteAddress?: string;
  /** The form as read, once it is. */
  form?: FormRead;
}

/** Where refusals are logged and reported. */
export interface RejectionContext {
  logger: AuditLogger;
  hooks: AuditHooks;
}

/** What a refusal names besides its reason; `hostId` is whatever the client sent there. */
export interface RejectionDetails {
  keyId?: string;
  hostId?: unknown;
}

/**
 * The one place every refusal goes through: it is logged (never with the key) and reported to the hook, and
 * `response` is returned. `hostId` is taken only when it is a single string, as a client may send anything there.
 */
export function rejectRequest(
  context: RejectionContext,
  request: RequestInfo,
  reason: RejectionReason,
  details: RejectionDetails,
  response: AuditResponse,
): AuditResponse {
  const { logger, hooks } = context;
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
}
