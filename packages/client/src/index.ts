export { createAuditClient, DEFAULT_TIMEOUT_MS, parseRetryAfter } from './audit-client.js';
export type { AuditClient, AuditClientOptions, ReportUpload } from './audit-client.js';
export {
  AuditClientError,
  InvalidKeyError,
  NetworkError,
  RateLimitedError,
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
export { readReportHostIds } from './lynis-report.js';
export type { ReportHostIds } from './lynis-report.js';
export { retryRateLimited, uploadBatch } from './upload-batch.js';
export type { BatchOptions, RetryOptions, UploadOutcome } from './upload-batch.js';
