export { createAuditClient } from './audit-client.js';
export type { AuditClient, AuditClientOptions, ReportUpload } from './audit-client.js';
export { createAdminClient } from './admin-client.js';
export type { AdminClient, AdminClientOptions, FindingQuery, HostDetailQuery, HostQuery, OverviewQuery, RejectionQuery, ReportQuery } from './admin-client.js';
export { DEFAULT_TIMEOUT_MS, parseRetryAfter } from './transport.js';
export type { TransportOptions } from './transport.js';
export {
  AuditClientError,
  ConflictError,
  InvalidAdminTokenError,
  InvalidKeyError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServiceUnavailableError,
  RequestRejectedError,
  ServerError,
  TooLargeError,
} from './errors.js';
export type { AuditClientErrorCode } from './errors.js';
export type { TlsOptions } from './tls-fetch.js';
export type * from './generated/types.gen.js';
export { parseApiUrl, lynisApiUrl } from './api-url.js';
export type { ApiLocation } from './api-url.js';
export { LynisProfileError, lynisKeyAsSent, parseLynisProfiles, parseUploadOptions } from './lynis-profile.js';
export type { LynisUploadSettings, UploadOptionsTls } from './lynis-profile.js';
export { readReportHostIds } from './report-host-ids.js';
export type { ReportHostIds } from './report-host-ids.js';
export { retryRateLimited, uploadBatch } from './upload-batch.js';
export type { BatchOptions, RetryOptions, UploadOutcome } from './upload-batch.js';
