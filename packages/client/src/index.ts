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
