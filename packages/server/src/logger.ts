import { pino, type Logger } from 'pino';

/**
 * JSON logs on stdout. Redaction is a safety net only: no code path logs a request body, a header, a key or an
 * admin token. Lines are written asynchronously (pino flushes what is left when the process exits): a synchronous
 * write per line was a third of a license check's cost; under load, lines waiting for one write go out together.
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
