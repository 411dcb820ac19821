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
  /**
   * The client's address, for the per-address limits. Default: the socket's peer address. A host behind a
   * reverse proxy gives one that believes `X-Forwarded-For` from its proxies only.
   */
  clientAddress?(req: IncomingMessage): string | undefined;
  /** Told of an unexpected failure (a defect, never a refusal) before it is answered `500`. Default: nothing. */
  onFailure?(error: unknown, req: IncomingMessage): void;
}

/** A `node:http` (or `node:https`) request listener serving the audit paths of `api`. */
export function createAuditListener(api: AuditApi, options: AuditListenerOptions = {}): RequestListener {
  const basePath = normalizeBasePath(options.basePath);
  const onUnhandled = options.onUnhandled ?? ((_req: IncomingMessage, res: ServerResponse) => send(res, NOT_FOUND));
  const clientAddress = options.clientAddress ?? ((req: IncomingMessage) => req.socket.remoteAddress);
  const { onFailure } = options;

  return (req, res) => {
    const path = stripBasePath(requestPath(req.url ?? '/'), basePath);
    if (path === undefined) return onUnhandled(req, res);
    api.handle({ method: req.method ?? 'GET', path, headers: req.headers, body: req, remoteAddress: clientAddress(req) }).then(
      (response) => (response ? send(res, response) : onUnhandled(req, res)),
      (error: unknown) => {
        onFailure?.(error, req);
        send(res, INTERNAL_ERROR);
      },
    );
  };
}

/**
 * The path of a request target, without its query string (where clients may put secrets). The usual origin-form
 * (`/api/…?query`) is cut at its query string, as Express' `req.path` is, without building a URL per request;
 * other forms (absolute URLs from proxies, `//…`) are parsed.
 */
export function requestPath(target: string): string {
  if (target.charCodeAt(0) !== 0x2f /* / */ || target.charCodeAt(1) === 0x2f) return new URL(target, 'http://host').pathname;
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/**
 * The headers of each answer sent, with its length: the license check's two answers are the same objects every
 * time, so their headers are built once rather than per request.
 */
const sentHeaders = new WeakMap<AuditResponse, Record<string, string | number>>();

/** Sends an answer with its length, as Express does, rather than chunked. */
function send(res: ServerResponse, response: AuditResponse): void {
  let headers = sentHeaders.get(response);
  if (!headers) sentHeaders.set(response, (headers = { ...response.headers, 'content-length': Buffer.byteLength(response.body) }));
  res.writeHead(response.status, headers).end(response.body);
}
