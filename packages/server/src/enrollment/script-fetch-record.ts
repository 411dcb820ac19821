import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { describeFailure } from '@org/audit-server-core';
import { appendAuditEvent } from '../audit/audit-append.js';
import { anonymousActor } from '../audit/audit-entry.js';
import type { Database } from '../database/dialect.js';
import type { ScriptFetch } from './enroll-script-route.js';

/**
 * Records each fetch of the enroll script in the audit trail (operation `getEnrollScript`, an anonymous actor, the
 * enrollment as target) and the log: the outcome and the address, never the secret. A trail that cannot be written
 * is logged, and the fetch answered all the same, as admin requests are.
 */
export function recordScriptFetch(database: Database, logger: Logger, webhookDispatcher?: { wake(): void }): (fetch: ScriptFetch) => Promise<void> {
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
    try {
      await appendAuditEvent(database, {
        actor: anonymousActor(),
        operation: 'getEnrollScript',
        target: fetch.enrollmentId ? { type: 'enrollment', id: fetch.enrollmentId } : null,
        changes: fetch.refusal ? { refusal: fetch.refusal } : null,
        outcome: fetch.outcome,
        status: fetch.status,
        sourceAddress: fetch.sourceAddress,
        userAgent: fetch.userAgent,
        requestId: randomUUID(),
      });
      webhookDispatcher?.wake();
    } catch (error) {
      logger.error(
        { error: describeFailure(error), operation: 'getEnrollScript' },
        'could not write the audit entry of an enroll script fetch (its answer stands)',
      );
    }
  };
}
