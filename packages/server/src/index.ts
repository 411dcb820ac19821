export { startServer, type RunningServer } from './server.js';
export { parseServerConfig, ServerConfigSchema, type ServerConfig } from './config.js';
export { createApp } from './app.js';
export { createLogger } from './logger.js';
export { openDatabase, databaseFile } from './database.js';
export { OrmKeyStore, OrmReportStore, type OrmReportStoreOptions } from './stores.js';
export { createKey, importKey, listKeys, revokeKey, type KeySummary } from './key-admin.js';
export { loadTlsIdentity, type TlsIdentity } from './tls.js';
export { LicenseKeyRecord, ReportRecord } from './entities.js';
