import type { RequestHandler } from 'express';
import type { AuditApi } from './audit-api.js';

/**
 * Express middleware serving the audit paths of `api`; other requests pass on to `next`.
 * Mount it anywhere (`app.use(auditMiddleware(api))` or `app.use('/collector', …)`), and before any body
 * parser: it reads the body itself, within the API's limits. The client address is `req.ip`, so the app's own
 * `trust proxy` setting decides whether `X-Forwarded-For` counts.
 */
export function auditMiddleware(api: AuditApi): RequestHandler {
  return async (req, res, next) => {
    const response = await api.handle({ method: req.method, path: req.path, headers: req.headers, body: req, remoteAddress: req.ip });
    if (!response) return next();
    res.status(response.status).set(response.headers).end(response.body);
  };
}
