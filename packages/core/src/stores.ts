import type { ReportSummary, ReportUploadForm } from './generated/types.gen.js';
import type { RejectionReason } from './rejection-reason.js';
import type { HostLabels } from './lynis-report.js';

/** What a {@link KeyStore} knows about a license key. Expired keys count as `revoked`. */
export type KeyLookup =
  | {
      state: 'valid';
      keyId: string;
      /** Set when the key presented was an enrollment's alias of the key rather than the key itself: that enrollment's id. */
      enrollmentId?: string;
    }
  | { state: 'revoked'; keyId: string }
  | { state: 'unknown' };

/** Looks license keys up. Implementations should store keys hashed (see `hashLicenseKey`). */
export interface KeyStore {
  /** Tells whether `licenseKey` is valid, revoked or unknown, and which key record it belongs to. */
  lookup(licenseKey: string): Promise<KeyLookup>;
}

/** How the `data` field arrived: raw report text (as Lynis sends it) or base64 (as the original spec says). */
export type ReportEncoding = 'raw' | 'base64';

/** The upload form's own fields a store keeps (all but the key and the report), named as stores name them. */
export interface UploadFields {
  hostId: string;
  hostId2?: string;
}

/** Takes {@link UploadFields} from a validated upload form: a new upload field reaches every store through here. */
export function uploadFieldsOf(form: ReportUploadForm): UploadFields {
  return { hostId: form.hostid, hostId2: form.hostid2 };
}

/** A validated report, ready to be stored. The license key (every `license_key=` line's value, the presented key anywhere) is already redacted. */
export interface ReportToStore extends UploadFields {
  /** The key record the upload authenticated with (from {@link KeyLookup}). */
  keyId: string;
  /** The enrollment whose alias of the key the upload presented (from {@link KeyLookup}); absent for the key itself. */
  enrollmentId?: string;
  receivedAt: Date;
  encoding: ReportEncoding;
  /** Size in bytes of the report as the client sent it (after base64 decoding, before redaction). */
  size: number;
  /** SHA-256 (hex) of the report as the client sent it (after base64 decoding, before redaction). */
  sha256: string;
  /** The report bytes to keep, with the license key redacted. */
  content: Buffer;
  /** What the report says about its host (see `parseLynisReport`); null when it is not a Lynis report. */
  summary: ReportSummary | null;
  /**
   * What the report's Lynis profile labels its host with (`system-groups=`, `tags=`, `system-customer-name=`,
   * `hostname_alias=`); null when it is not a Lynis report. Absent from reports made before core read labels: a
   * store may treat absent as null.
   */
  labels?: HostLabels | null;
}

/**
 * A store's refusal of one report, for a reason of the server's policy rather than a failure (a host's identity
 * changed in strict mode, a key's quota of hosts): core answers it with `status` and `message` and reports the
 * refusal with `reason`, instead of the 503 a failing store gets.
 */
export class ReportRefusedError extends Error {
  override name = 'ReportRefusedError';

  constructor(
    /** The refusal reason (see `RejectionReason`), e.g. `host-quota-exceeded`. */
    readonly reason: RejectionReason,
    /** The HTTP status to answer, e.g. 409 or 429. */
    readonly status: number,
    /** The answer's one-line text; it must name no secret. */
    message: string,
    /** Seconds the client is asked to wait (`Retry-After`), when waiting helps. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Keeps uploaded reports. */
export interface ReportStore {
  /**
   * Stores a report durably and returns its id. Resolve only once the report would survive a crash. Reject with
   * {@link ReportRefusedError} to refuse the report; any other rejection is answered as an unavailable store.
   */
  save(report: ReportToStore): Promise<{ id: string }>;
}
