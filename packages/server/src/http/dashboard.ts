import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { Router } from 'express';
import helmet from 'helmet';

/**
 * Headers of every dashboard answer. Everything the page shows from reports is hostile input, so the page may run
 * only its own bundled script (no inline script, no eval), load nothing from another origin, and never be framed.
 */
const securityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginEmbedderPolicy: false,
});

/** The built dashboard's folder (the `dist` of `@org/audit-dashboard`), or undefined when it was not built. */
export function dashboardDirectory(): string | undefined {
  const packageFile = createRequire(import.meta.url).resolve('@org/audit-dashboard/package.json');
  const directory = join(dirname(packageFile), 'dist');
  return existsSync(join(directory, 'index.html')) ? directory : undefined;
}

/**
 * Serves the dashboard under the path it is mounted at (`/dashboard`): its files, with strict security headers;
 * `/dashboard` itself is sent on to `/dashboard/`. Assets have content-hashed names and are cached for good; the
 * page itself is always revalidated, so a new build is picked up at once.
 */
export function dashboardRouter(directory = dashboardDirectory()): Router {
  const router = Router();
  router.use(securityHeaders);
  if (!directory) {
    router.use((_req, res) => void res.status(503).type('text/plain').send('The dashboard is not built: run npm run build'));
    return router;
  }
  router.use((req, res, next) => (req.originalUrl === req.baseUrl ? res.redirect(301, `${req.baseUrl}/`) : next()));
  // A digest's link (`/dashboard/digests/<id>`, in its email and webhook event) opens its page, which the dashboard
  // addresses by the fragment.
  router.get('/digests/:digestId', (req, res) => res.redirect(302, `${req.baseUrl}/#/digests/${encodeURIComponent(req.params.digestId)}`));
  router.use(
    express.static(directory, {
      index: 'index.html',
      redirect: false,
      setHeaders: (res, file) =>
        res.setHeader('cache-control', file.includes(`${join(directory, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    }),
  );
  return router;
}
