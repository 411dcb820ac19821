import { pino, type Logger } from 'pino';

/**
 * JSON logs on stdout. Redaction is a safety net only: no code path logs a request body, a header, a key or an
 * admin token. Lines are written asynchronously, and pino writes what is left when the process exits: a
 * synchronous write per line was a third of a license check's cost, while now the lines logged during one write
 * go out together in the next.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['licensekey', '*.licensekey', 'licenseKey', '*.licenseKey', 'key', '*.key', 'token', '*.token', 'authorization', '*.authorization', '*.headers.authorization'],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
