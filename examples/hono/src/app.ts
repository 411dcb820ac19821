import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { createAuditApi, type AuditApiOptions } from '@org/audit-server-core';
import { createAuditFetchHandler } from '@org/audit-server-core/fetch';

/** A Hono app serving the audit API through core's fetch handler, beside its own routes. */
export async function createCollectorApp(options: AuditApiOptions): Promise<Hono> {
  const handleAudit = createAuditFetchHandler(await createAuditApi(options));
  const app = new Hono();
  app.get('/', (c) => c.text('Collector'));
  // The handler answers the audit paths and resolves undefined for anything else under /api.
  app.all('/api/*', async (c) => (await handleAudit(c.req.raw, { remoteAddress: getConnInfo(c).remote.address })) ?? c.notFound());
  return app;
}
