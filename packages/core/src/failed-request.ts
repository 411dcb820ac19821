import { describeFailure } from './failure.js';
import { rejectRequest, type RejectionContext, type RequestInfo } from './reject-request.js';
import { INTERNAL_ERROR, serviceUnavailable, type AuditResponse } from './responses.js';
import { DependencyUnavailableError } from './unavailable.js';

/** What the client is asked to wait when a store fails: long enough for a database to fail over or restart. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 10;

/**
 * Answers a request whose handling threw: a failed store or rate limiter is the server's fault, answered 503
 * and reported as a refusal (`unavailable`); anything else is a 500. Either way the details go to the log only.
 */
export function answerFailedRequest(context: RejectionContext, info: RequestInfo, error: unknown): AuditResponse {
  const { logger } = context;
  if (error instanceof DependencyUnavailableError) {
    logger.error({ dependency: error.dependency, error: describeFailure(error.cause) }, 'dependency unavailable');
    return rejectRequest(context, info, 'unavailable', {}, serviceUnavailable(UNAVAILABLE_RETRY_AFTER_SECONDS));
  }
  logger.error({ error: describeFailure(error) }, 'request failed');
  return INTERNAL_ERROR;
}
