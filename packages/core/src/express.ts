import type { RequestHandler } from 'express';
import type { AuditApi } from './audit-api.js';

/**
 * Express middleware serving the audit paths of `api`; other requests pass on to `next`.
 *
 * Mount it anywhere (`app.use(auditMiddleware(api))` or `app.use('/collector', …)`). Mounted before any body
 * parser, it reads the body itself within the API's `maxBodyBytes`. Mounted after the app's own
 * `express.urlencoded({ limit })`, it uses the fields that parser produced, so the app's limit applies.
 * The client address is `req.ip`, which follows the app's `trust proxy` setting.
 */
export function auditMiddleware(api: AuditApi): RequestHandler {
  return async (req, res, next) => {
    const parsedFields = isParsedObject(req.body) && req.readableEnded ? req.body : undefined;
    if (req.readableEnded && !parsedFields && req.method === 'POST') {
      // Answering would mean guessing at a body some other middleware consumed: a setup error of the app.
      return next(new Error('The request body was read by a middleware before auditMiddleware: mount it first, or after express.urlencoded()'));
    }
    const response = await api.handle({
      method: req.method,
      path: req.path,
      headers: req.headers,
      body: req,
      parsedFields,
      remoteAddress: req.ip,
    });
    if (!response) return next();
    res.status(response.status).set(response.headers).end(response.body);
  };
}

function isParsedObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Buffer.isBuffer(body);
}
