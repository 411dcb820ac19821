import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AuditApi } from './audit-api.js';
import { normalizeBasePath, stripBasePath } from './base-path.js';
import { INTERNAL_ERROR, NOT_FOUND, type AuditResponse } from './responses.js';

/** How {@link createAuditListener} serves the API. */
export interface AuditListenerOptions {
  /** Path prefix the API is served under, e.g. `/collector` for `/collector/api/audit/…`. Default: none. */
  basePath?: string;
  /** Answers requests outside the audit paths. Default: `404 Not found` as plain text. */
  onUnhandled?(req: IncomingMessage, res: ServerResponse): void;
}

/** A `node:http` (or `node:https`) request listener serving the audit paths of `api`. */
export function createAuditListener(api: AuditApi, options: AuditListenerOptions = {}): RequestListener {
  const basePath = normalizeBasePath(options.basePath);
  const onUnhandled = options.onUnhandled ?? ((_req: IncomingMessage, res: ServerResponse) => send(res, NOT_FOUND));

  return (req, res) => {
    const path = stripBasePath(new URL(req.url ?? '/', 'http://host').pathname, basePath);
    const answer = path === undefined
      ? Promise.resolve(undefined)
      : api.handle({ method: req.method ?? 'GET', path, headers: req.headers, body: req, remoteAddress: req.socket.remoteAddress });
    answer.then(
      (response) => (response ? send(res, response) : onUnhandled(req, res)),
      () => send(res, INTERNAL_ERROR),
    );
  };
}

/** Sends an answer with its length, as Express does, rather than chunked. */
function send(res: ServerResponse, response: AuditResponse): void {
  res.writeHead(response.status, { ...response.headers, 'content-length': Buffer.byteLength(response.body) }).end(response.body);
}
