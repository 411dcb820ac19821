export { startServer, type RunningServer } from './server.js';
export { parseServerConfig, readConfigFile, ServerConfigSchema, type ServerConfig } from './config.js';
export { createAdminApp, createApp, type AppOptions } from './http/app.js';
export { createMetrics, type ServerMetrics } from './ops/metrics.js';
export { createOpsServer, readinessProblem, type OpsTarget } from './ops/endpoints.js';
export { createLogger } from './ops/logger.js';
export { openDatabase } from './database/open.js';
export { databaseFile } from './database/sqlite.js';
export { DIALECT_NAMES, dialectOf, sqlDialectOf, type Dialect } from './database/dialects.js';
export type { Database, DatabaseLocation } from './database/dialect.js';
export { OrmReportStore, reportRowsOf, type OrmReportStoreOptions } from './reports/report-store.js';
export { reportBytesOf, DamagedReportError } from './reports/report-content.js';
export { OrmKeyStore, type KeySnapshotOptions } from './secrets/license-key-store.js';
export { createRateLimiter, type ClosableRateLimiter, type RateLimitSettings } from './http/rate-limiter-store.js';
export { parseDuration, parseExpiry } from './duration.js';
export {
  createKey,
  findKey,
  importKey,
  importKeys,
  listKeys,
  parseKeyList,
  revokeKey,
  revokeKeyOrFail,
  rotateKey,
  type KeySummary,
  type NewKeyOptions,
} from './secrets/license-keys.js';
export { SecretError, type SecretErrorCode } from './secrets/secret-records.js';
/** The former names of {@link SecretError} and its codes, kept for existing importers. */
export { SecretError as KeyAdminError, type SecretErrorCode as KeyAdminErrorCode } from './secrets/secret-records.js';
export { loadTlsIdentity, type TlsIdentity } from './http/tls.js';
export { AdminTokenRecord, HostFindingRecord, HostLabelRecord, HostRecord, LicenseKeyRecord, RejectionRecord, ReportRecord } from './database/entities.js';
export { hostRecordId } from './hosts/host-records.js';
export { DERIVED_VERSION } from './hosts/host-derivation.js';
export { createPolicy } from './policies/policy-records.js';
export { BASELINE_POLICY } from './policies/baseline.js';
export { deriveStoredHosts, startHostBackfill, type DeriveOptions, type HostBackfill } from './hosts/host-backfill.js';
export { pruneReports, schedulePruning, type PruneSchedule, type RetentionRules } from './reports/retention.js';
export { RejectionLog, type RejectionLogOptions } from './refusals/rejection-log.js';
export { createAdminApi, type AdminApi, type AdminApiOptions, type AdminRequest, type AdminRequestBody } from './admin/api.js';
export { AdminTokenAuthenticator } from './admin/auth.js';
export { adminMiddleware } from './admin/express.js';
export type { AdminResponse } from './admin/responses.js';
export {
  ADMIN_TOKEN_PATTERN,
  AdminTokenVerifier,
  createAdminToken,
  hashAdminToken,
  listAdminTokens,
  revokeAdminToken,
  revokeAdminTokenOrFail,
  type AdminTokenSummary,
} from './secrets/admin-tokens.js';
