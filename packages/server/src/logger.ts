import { pino, type Logger } from 'pino';

/** JSON logs on stdout. Redaction is a safety net only: no code path logs a request body, a header, a key or an admin token. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['licensekey', '*.licensekey', 'licenseKey', '*.licenseKey', 'key', '*.key', 'token', '*.token', 'authorization', '*.authorization', '*.headers.authorization'],
      censor: '[redacted]',
    },
  });
}
