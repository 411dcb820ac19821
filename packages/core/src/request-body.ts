import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { BodyTicket } from './body-admission.js';
import { readForm, type FormLimits, type FormRead } from './form.js';
import type { AuditOperation } from './hooks.js';
import { keyIdOf, recordKeyFailure, type KeyCheckContext } from './key-check.js';
import { rejectRequest, type RejectionContext, type RequestInfo } from './reject-request.js';
import { BODY_TOO_SLOW, payloadTooLarge, serverBusy, UPLOAD_UNAUTHORIZED, type AuditResponse } from './responses.js';
import type { KeyLookup } from './stores.js';

/** The size and field limits of each operation's form. */
export type FormLimitsByOperation = Record<AuditOperation, FormLimits>;

/** What a busy server asks the client to wait, in seconds: uploads take milliseconds to store, slow senders seconds. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** What reading a body needs: its limits, and the key store for refusing an upload's key early. */
export interface BodyReadContext {
  keyStore: KeyCheckContext['keyStore'];
  formLimits: FormLimitsByOperation;
}

/** What answering an unread body needs. */
export type UnreadBodyContext = Pick<KeyCheckContext, 'rateLimiter'> & RejectionContext & { formLimits: FormLimitsByOperation };

/**
 * Reads the form within the operation's size limit and the body admission's rules. An upload whose key
 * arrives before the rest of its body (not Lynis: it sends `data` first) and is not valid stops the read at once.
 */
export async function readRequestBody(
  context: BodyReadContext,
  request: { body: Readable; headers: IncomingHttpHeaders },
  info: RequestInfo,
  ticket: BodyTicket,
): Promise<FormRead> {
  const { keyStore } = context;
  let stopRead: (reason: unknown) => void = () => {};
  const onStart = (stop: (reason: unknown) => void) => {
    stopRead = stop;
    ticket.stopReadWith(stop);
  };
  const onField =
    info.operation === 'uploadReport'
      ? (name: string, value: string) => {
          if (name !== 'licensekey') return;
          keyStore.lookup(value).then(
            (lookup) => lookup.state !== 'valid' && stopRead(lookup),
            () => {}, // the full check after the body will tell
          );
        }
      : undefined;
  try {
    return await readForm(request.body, request.headers, context.formLimits[info.operation], { onStart, onBytes: ticket.take, onField });
  } finally {
    ticket.received();
  }
}

/**
 * Answers a body that could not be read whole: too large, over the budget, too slow, or its key refused early.
 * Resolves `undefined` for a body read whole (well-formed or not: validation tells).
 */
export async function refuseUnreadBody(context: UnreadBodyContext, info: RequestInfo, form: FormRead): Promise<AuditResponse | undefined> {
  switch (form.kind) {
    case 'too-large':
      return rejectRequest(context, info, 'too-large', {}, payloadTooLarge(context.formLimits[info.operation].maxBodyBytes));
    case 'over-budget':
      return rejectRequest(context, info, 'busy', {}, serverBusy(BUSY_RETRY_AFTER_SECONDS));
    case 'aborted':
      if (form.reason === 'too-slow') return rejectRequest(context, info, 'too-slow', {}, BODY_TOO_SLOW);
      // The key arrived before the rest of the body and is not valid: a definite no, counted as one.
      await recordKeyFailure(context, info.remoteAddress);
      return rejectRequest(context, info, 'invalid-key', { keyId: keyIdOf(form.reason as KeyLookup) }, UPLOAD_UNAUTHORIZED);
    default:
      return undefined;
  }
}

/**
 * Whether the request still has body bytes on the way: then the answer closes the connection, so that a
 * refused client must reconnect rather than hold it open, and nothing more of its body is read.
 */
export function bodyLeftUnread(request: { body?: Readable; headers: IncomingHttpHeaders; parsedFields?: unknown }): boolean {
  if (request.parsedFields || !request.body || request.body.readableEnded) return false;
  return Number(request.headers['content-length']) > 0 || request.headers['transfer-encoding'] !== undefined;
}
