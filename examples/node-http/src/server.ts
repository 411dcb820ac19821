import { createServer, type Server } from 'node:http';
import { createAuditApi, type AuditApiOptions } from '@org/audit-server-core';
import { createAuditListener } from '@org/audit-server-core/node';

/** The audit API on bare `node:http`, with `/healthz` answered beside it. */
export async function createCollectorServer(options: AuditApiOptions): Promise<Server> {
  const api = await createAuditApi(options);
  return createServer(
    createAuditListener(api, {
      onUnhandled: (req, res) => {
        if (req.url === '/healthz') res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        else res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      },
    }),
  );
}
