import { describeFailure } from './failure.js';
import type { RejectionReason } from './rejection-reason.js';
import type { ReportEncoding } from './stores.js';

/** The two operations of the contract; the legacy `/api/v1/…` paths count as the same operation. */
export type AuditOperation = 'checkLicense' | 'uploadReport';

/** A report was stored durably. Carries what identifies it, never its content or the license key. */
export interface ReportStoredEvent {
  reportId: string;
  /** The key record the upload authenticated with. */
  keyId: string;
  hostId: string;
  hostId2?: string;
  /** Size in bytes of the report as sent. */
  size: number;
  /** SHA-256 (hex) of the report as sent. */
  sha256: string;
  encoding: ReportEncoding;
  /** The report's Lynis hardening index (0–100); null when the report has none or is not a Lynis report. */
  hardeningIndex: number | null;
  /** The client's address, as the adapter determined it. */
  remoteAddress?: string;
}

/** A license check or upload was refused. Never carries the license key. */
export interface RequestRejectedEvent {
  operation: AuditOperation;
  reason: RejectionReason;
  /** The HTTP status answered. */
  status: number;
  /** The key record named by the request, or `unknown` when there is none (or it was not looked up). */
  keyId: string;
  hostId?: string;
  remoteAddress?: string;
}

/** A request under the audit paths was answered (accepted, refused or failed). For metrics. */
export interface RequestCompletedEvent {
  /** `unknown` for paths under the audit prefix that name no operation (answered 404). */
  operation: AuditOperation | 'unknown';
  status: number;
  /** Time from the start of `handle` until the answer was ready, in milliseconds. */
  durationMs: number;
  /** Request body bytes read (a body refused for its size is counted up to where reading stopped). */
  bytesReceived: number;
}

/**
 * What an embedder can plug in. Hooks are called after the fact and never delay or change an answer:
 * one that throws (or returns a promise that rejects) is logged and otherwise ignored.
 */
export interface AuditHooks {
  /** Called once a report is durably stored, before the client is answered (e.g. to queue or index it). */
  onReportStored?(event: ReportStoredEvent): void | Promise<void>;
  /** Called for every refused license check or upload (e.g. to count rejections by reason). */
  onRequestRejected?(event: RequestRejectedEvent): void | Promise<void>;
  /** Called for every answered request under the audit paths (e.g. for request and latency metrics). */
  onRequestCompleted?(event: RequestCompletedEvent): void | Promise<void>;
}

/** Calls one hook so that its failure, sync or async, is logged and never reaches the request. */
export function callHook<E>(
  name: keyof AuditHooks,
  hook: ((event: E) => void | Promise<void>) | undefined,
  event: E,
  logFailure: (fields: object, message: string) => void,
): void {
  if (!hook) return;
  const report = (error: unknown) => logFailure({ hook: name, error: describeFailure(error) }, 'hook failed');
  try {
    const result = hook(event);
    if (result && typeof result.then === 'function') result.then(undefined, report);
  } catch (error) {
    report(error);
  }
}
