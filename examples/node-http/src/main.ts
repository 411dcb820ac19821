import { InMemoryKeyStore, InMemoryReportStore } from '@org/audit-server-core';
import { createCollectorServer } from './server.js';

// Demo stores: keys from LICENSE_KEYS (comma-separated), reports kept in memory and lost on exit.
// For real use, pass a KeyStore and a ReportStore of your own (see the embed-express example).
const keyStore = new InMemoryKeyStore();
for (const key of (process.env['LICENSE_KEYS'] ?? '').split(',').filter(Boolean)) keyStore.add(key);
const server = await createCollectorServer({
  keyStore,
  reportStore: new InMemoryReportStore(),
  logger: console,
  hooks: { onReportStored: ({ reportId, hostId, size }) => console.info({ reportId, hostId, size }, 'new report') },
});
const port = Number(process.env['PORT'] ?? 8080);
server.listen(port, () => console.log(`Collector on http://localhost:${port}/api/audit/`));
