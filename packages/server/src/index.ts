// What a program embedding the reference server uses: the server whole, or its HTTP apps; the database and core's
// stores on it; license keys, admin tokens and policies; the admin API. Everything else is internal: tests import it
// from its module.
export { startServer, type RunningServer } from './server.js';
export { parseServerConfig, readConfigFile, ServerConfigSchema, type ServerConfig } from './config.js';
export { createAdminApp, createApp, type AppOptions } from './http/app.js';
export { createLogger } from './ops/logger.js';
export { openDatabase } from './database/open.js';
export { sqlDialectOf, type Dialect } from './database/dialects.js';
export type { Database, DatabaseLocation } from './database/dialect.js';
export { OrmReportStore, reportRowsOf, type OrmReportStoreOptions } from './reports/report-store.js';
export { newFinding } from './findings/finding-tracking.js';
export { reportBytesOf, DamagedReportError } from './reports/report-content.js';
export { OrmKeyStore, type KeySnapshotOptions } from './secrets/license-key-store.js';
export { createRateLimiter, type ClosableRateLimiter, type RateLimitSettings } from './http/rate-limiter-store.js';
export { createKey, importKey, listKeys, revokeKey, rotateKey, type KeySummary, type NewKeyOptions } from './secrets/license-keys.js';
export { DomainError, type DomainErrorCode } from './errors/domain-error.js';
/**
 * The former names of {@link DomainError} and its codes (key and token operations threw a `SecretError`), kept for
 * existing importers: `instanceof SecretError` still holds for their failures.
 */
export { DomainError as SecretError, type DomainErrorCode as SecretErrorCode } from './errors/domain-error.js';
export { DomainError as KeyAdminError, type DomainErrorCode as KeyAdminErrorCode } from './errors/domain-error.js';
export { HostRecord, ReportRecord } from './database/entities.js';
export { createPolicy } from './policies/policy-records.js';
export { BASELINE_POLICY } from './policies/baseline.js';
export { RejectionLog, type RejectionLogOptions } from './refusals/rejection-log.js';
export { createAdminApi, type AdminApi, type AdminApiOptions, type AdminRequest, type AdminRequestBody } from './admin/api.js';
export { AdminTokenAuthenticator } from './admin/auth.js';
export { adminMiddleware } from './admin/express.js';
export type { AdminResponse } from './admin/responses.js';
export { createAdminToken, listAdminTokens, revokeAdminToken, type AdminTokenSummary } from './secrets/admin-tokens.js';
