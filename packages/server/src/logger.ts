import { pino, type Logger } from 'pino';

/** JSON logs on stdout. Redaction is a safety net only: no code path logs a request body or a key. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['licensekey', '*.licensekey', 'licenseKey', '*.licenseKey', 'key', '*.key'], censor: '[redacted]' },
  });
}
