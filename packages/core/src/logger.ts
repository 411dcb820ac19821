/** Structured logger; pino's `Logger` fits. Fields never carry a license key. */
export interface AuditLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The logger when none is given: logs nothing. */
export const silentLogger: AuditLogger = { info() {}, warn() {}, error() {} };
