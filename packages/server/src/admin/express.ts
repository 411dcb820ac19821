import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type RequestHandler } from 'express';
import type { AdminApi, AdminRequestBody } from './api.js';

/** Largest admin request body: the contract's bodies are a few small fields. */
const MAX_BODY_BYTES = 16 * 1024;
/** Largest CSV body: a control mapping file (`importControls`, the contract's `maxLength`). */
const MAX_CSV_BODY_BYTES = 1024 * 1024;
/** The one text body the contract takes. */
const CSV = 'text/csv';

/**
 * Express middleware answering every request under the path it is mounted at (`app.use('/api/admin', …)`)
 * with the admin API, JSON and CSV bodies read here.
 */
export function adminMiddleware(api: AdminApi): RequestHandler {
  const readJson = express.json({ limit: MAX_BODY_BYTES });
  const readCsv = express.text({ type: CSV, limit: MAX_CSV_BODY_BYTES });
  return (req, res, next) => {
    const read = req.is(CSV) ? readCsv : readJson;
    read(req, res, (error?: unknown) => {
      const body = requestBody(req, error);
      api
        .handle({
          method: req.method,
          path: req.baseUrl + req.path,
          query: queryParameters(req.query),
          headers: req.headers,
          body,
          remoteAddress: req.ip,
          // As the client addressed this server (behind a trusted proxy: as the proxy says), for the CSRF check.
          origin: `${req.protocol}://${req.host}`,
        })
        .then((response) => {
          res.status(response.status).set(response.headers);
          if (response.body instanceof Readable) pipeline(response.body, res).catch(() => res.destroy());
          else res.end(response.body);
        }, next);
    });
  };
}

/**
 * The query's parameters as text, as Express 5's default (`simple`) parser reads them: each a string, or strings
 * when repeated. Nothing else can arrive through that parser; the filter keeps the type honest without a cast.
 */
function queryParameters(query: express.Request['query']): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string | string[]] => {
      const value = entry[1];
      return typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
    }),
  );
}

/** What the body parser made of the request: a JSON value, CSV text, nothing, or why it could not be read. */
function requestBody(req: express.Request, error: unknown): AdminRequestBody {
  const csv = Boolean(req.is(CSV));
  if (error) {
    const type = (error as { type?: string }).type;
    const limit = csv ? MAX_CSV_BODY_BYTES : MAX_BODY_BYTES;
    if (type === 'entity.too.large') return { kind: 'unreadable', status: 413, detail: `Request body too large (limit ${limit} bytes)` };
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      return { kind: 'unreadable', status: 415, detail: `Send the body as UTF-8 ${csv ? 'CSV' : 'JSON'}` };
    }
    return { kind: 'unreadable', status: 400, detail: 'The body is not valid JSON' };
  }
  if (csv && typeof req.body === 'string') return { kind: 'text', mediaType: CSV, value: req.body };
  if (req.body !== undefined) return { kind: 'json', value: req.body };
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  return hasBody ? { kind: 'unreadable', status: 415, detail: 'Send the body as application/json' } : { kind: 'none' };
}
