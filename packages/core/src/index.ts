// The package's root entry. The adapters are entries of their own (`/express`, `/node`, `/fetch`), so that importing
// the API pulls in no framework and its types.
export {
  createAuditApi,
  DEFAULT_BODY_GRACE_MS,
  DEFAULT_MAX_BODIES_PER_ADDRESS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_BODY_BYTES_IN_FLIGHT,
  DEFAULT_MAX_FIELDS,
  DEFAULT_MAX_LICENSE_BODY_BYTES,
  DEFAULT_MIN_BODY_BYTES_PER_SECOND,
  TOOL_SEGMENT_PATTERN,
} from './audit-api.js';
export { ALLOWED, type AuditRateLimiter, type RateLimitDecision } from './rate-limit.js';
export { describeFailure } from './failure.js';
export type { AuditApi, AuditApiOptions, AuditRequest } from './audit-api.js';
export type { AuditLogger } from './logger.js';
export type { AuditResponse } from './responses.js';
export type { AuditHooks, AuditOperation, ReportStoredEvent, RequestCompletedEvent, RequestRejectedEvent } from './hooks.js';
export type { RejectionReason } from './rejection-reason.js';
export type { KeyLookup, KeyStore, ReportEncoding, ReportStore, ReportToStore } from './stores.js';
export { ReportRefusedError } from './stores.js';
export { incompleteReportReason } from './report-minimum.js';
/** The report an upload hands to its store, from the decoded bytes: for a server that stores reports made elsewhere as uploads would (a demo fleet). */
export { reportToStore } from './upload-report.js';
export { InMemoryKeyStore, InMemoryReportStore } from './memory-stores.js';
export { LICENSE_KEY_PATTERN, generateLicenseKey, hashLicenseKey } from './license-key.js';
export {
  MAX_HOST_LABELS,
  MAX_LABEL_LENGTH,
  parseLynisReport,
  readReportBytes,
  summarizeReportBytes,
  type HostLabels,
  type ParsedLynisReport,
  type ReportReading,
} from './lynis-report.js';
export { diffLynisReports } from './lynis-diff.js';
export { REDACTED_MARKER, decodeReportData, redactLicenseKeys } from './report-data.js';
/** The contract (openapi.yaml) as a document object, for hosts that route the operations core leaves to them (the admin API). */
export { openApiDocument } from './generated/openapi.gen.js';
/**
 * The contract's types of the collector side: the two forms, the problem every refusal is, the report summary and
 * diff core computes. The admin API's types are the server's and the client's own (each generates them).
 */
export type {
  CheckLicenseErrors,
  CheckLicenseResponses,
  Finding,
  LicenseCheckForm,
  PackageVersion,
  Problem,
  ReportChanges,
  ReportSummary,
  ReportUploadForm,
  ReportValue,
} from './generated/types.gen.js';
