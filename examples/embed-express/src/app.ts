import express, { type Express } from 'express';
import { createAuditApi, type AuditLogger } from '@org/audit-server-core';
import { auditMiddleware } from '@org/audit-server-core/express';
import { FolderReportStore } from './folder-report-store.js';
import { JsonFileKeyStore } from './json-file-key-store.js';

/** Where the example keeps its data. */
export interface InventoryAppOptions {
  /** JSON file of key hashes, see {@link JsonFileKeyStore}. */
  keysFile: string;
  /** Folder the reports are written to. */
  reportsDir: string;
  logger?: AuditLogger;
}

/**
 * An existing app (a small host inventory) that adds report collection under its own prefix, `/collector`:
 * Lynis is pointed at `upload-server=<host>:<port>/collector/api/lynis`.
 */
export async function createInventoryApp(options: InventoryAppOptions): Promise<Express> {
  const lastReportByHost = new Map<string, { reportId: string; at: string; hardeningIndex: number | null }>();
  const api = await createAuditApi({
    keyStore: await JsonFileKeyStore.load(options.keysFile),
    reportStore: new FolderReportStore(options.reportsDir),
    toolSegment: 'lynis',
    maxBodyBytes: 4 * 1024 * 1024, // this app's own limit: reports here stay far below it
    logger: options.logger,
    hooks: {
      // The app's own use of the event: remember when each host last reported, and its hardening index.
      onReportStored: ({ reportId, hostId, hardeningIndex }) => void lastReportByHost.set(hostId, { reportId, at: new Date().toISOString(), hardeningIndex }),
    },
  });

  const app = express();
  app.disable('x-powered-by');
  app.get('/', (_req, res) => void res.type('text/plain').send('Host inventory'));
  app.get('/hosts/:hostId/last-report', (req, res) => {
    const last = lastReportByHost.get(req.params.hostId);
    if (last) res.json(last);
    else res.status(404).json({ error: 'no report from this host yet' });
  });
  app.use('/collector', auditMiddleware(api));
  return app;
}
