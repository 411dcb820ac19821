import { pino, type DestinationStream, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { requireCommonJs } from '../database/commonjs.js';

/**
 * Logs on stdout: JSON lines, or lines for people (pino-pretty) when `pretty`, by default when stdout is a
 * terminal. Redaction is a safety net only: no code path logs a request body, a header, a key or an admin token.
 * JSON lines are written asynchronously, and pino writes what is left when the process exits: a synchronous write
 * per line was a third of a license check's cost, while now the lines logged during one write go out together in
 * the next.
 */
export function createLogger(level: string, { pretty = process.stdout.isTTY === true } = {}): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'licensekey',
          '*.licensekey',
          'licenseKey',
          '*.licenseKey',
          'key',
          '*.key',
          'token',
          '*.token',
          'authorization',
          '*.authorization',
          '*.headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    pretty ? prettyStdout() : pino.destination({ dest: 1, sync: false }),
  );
}

/** pino-pretty on stdout, loaded only for a terminal (a server logging JSON never pays for it); colours when it is a terminal. */
function prettyStdout(): DestinationStream {
  const prettyStream = requireCommonJs('pino-pretty') as typeof PinoPretty;
  return prettyStream({ destination: 1, sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:standard', ignore: 'pid,hostname' });
}
