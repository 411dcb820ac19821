import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { AuditApi } from './audit-api.js';
import { normalizeBasePath, stripBasePath } from './base-path.js';

/** How {@link createAuditFetchHandler} serves the API. */
export interface AuditFetchOptions {
  /** Path prefix the API is served under, e.g. `/collector`. Default: none. */
  basePath?: string;
}

/** What the framework knows about one request beyond the `Request` itself. */
export interface AuditFetchContext {
  /** The client's IP address (e.g. from Hono's `getConnInfo`, Bun's `server.requestIP`, Deno's `info.remoteAddr`). */
  remoteAddress?: string;
}

/** A fetch-style handler: answers a `Request` for an audit path, or resolves `undefined` for any other path. */
export type AuditFetchHandler = (request: Request, context?: AuditFetchContext) => Promise<Response | undefined>;

/** Serves the audit paths of `api` to fetch-based frameworks (Hono, Bun, Deno and similar). */
export function createAuditFetchHandler(api: AuditApi, options: AuditFetchOptions = {}): AuditFetchHandler {
  const basePath = normalizeBasePath(options.basePath);
  return async (request, context = {}) => {
    const path = stripBasePath(new URL(request.url).pathname, basePath);
    if (path === undefined) return undefined;
    // The form reader works on Node streams; the web stream is read through one, as it arrives.
    const body = request.body ? Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>) : Readable.from([]);
    const response = await api.handle({
      method: request.method,
      path,
      headers: Object.fromEntries(request.headers),
      body,
      remoteAddress: context.remoteAddress,
    });
    if (!response) {
      body.resume(); // not ours: let the body drain
      return undefined;
    }
    const headers = { ...response.headers, 'content-length': String(Buffer.byteLength(response.body)) };
    return new Response(response.body, { status: response.status, headers });
  };
}
