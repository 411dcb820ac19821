import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { requestPath } from '@org/audit-server-core/node';
import type { InFlightCount } from '../ops/metrics.js';

/** What is kept of every request on a listener. */
export interface RequestLogOptions {
  /** Counts requests being served (for metrics, and to see a drain progress). */
  inFlight?: InFlightCount;
}

/**
 * Wraps a listener so that each request, once answered (or its connection closed), makes one `request completed`
 * line with its method, path, the socket's peer address, status and time in milliseconds, and is counted in flight
 * meanwhile. Only what identifies a request: no headers (so never an Authorization header with its admin token), no
 * body, no query string (clients may put a key or token there), so no secret can reach the log this way. Every
 * answer, a deliberate 503 too, is one plain `info` line: an unexpected error is logged where it is caught.
 * One listener and one object per request: pino-http, used before, cost a child logger and serializers per request.
 */
export function withRequestLog(logger: Logger, listener: RequestListener, options: RequestLogOptions = {}): RequestListener {
  const { inFlight } = options;
  // The line's fields are built here and hold no secret by name (a path is not redacted by name either), so the
  // parent's redaction, a fifth of a license check's cost, is skipped for them.
  const requestLines = logger.child({}, { redact: { paths: [] } });
  return (req, res) => {
    const started = Date.now();
    // Taken now: Express rewrites `req.url` inside a mounted router, and the socket may be gone at the end.
    const line = { method: req.method, path: requestPath(req.url ?? '/'), remoteAddress: req.socket.remoteAddress };
    inFlight?.inc();
    res.once('close', () => {
      inFlight?.dec();
      requestLines.info({ req: line, res: { statusCode: res.statusCode }, responseTime: Date.now() - started }, 'request completed');
    });
    listener(req, res);
  };
}
