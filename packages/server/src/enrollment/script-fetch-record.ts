import type { Logger } from 'pino';
import type { ScriptFetch } from './enroll-script-route.js';

/** Records each fetch of the enroll script in the log: the enrollment, the outcome and the address, never the secret. */
export function recordScriptFetch(logger: Logger): (fetch: ScriptFetch) => Promise<void> {
  return async (fetch) => {
    const fields = {
      operation: 'getEnrollScript',
      enrollmentId: fetch.enrollmentId,
      outcome: fetch.outcome,
      status: fetch.status,
      sourceAddress: fetch.sourceAddress,
    };
    if (fetch.outcome === 'success') logger.info(fields, 'enroll script served');
    else logger.warn({ ...fields, refusal: fetch.refusal }, 'enroll script refused');
  };
}
