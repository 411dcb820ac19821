import { serve } from '@hono/node-server';
import { InMemoryKeyStore, InMemoryReportStore } from '@org/audit-server-core';
import { createCollectorApp } from './app.js';

// Demo stores: keys from LICENSE_KEYS (comma-separated), reports kept in memory and lost on exit.
const keyStore = new InMemoryKeyStore();
for (const key of (process.env['LICENSE_KEYS'] ?? '').split(',').filter(Boolean)) keyStore.add(key);
const app = await createCollectorApp({ keyStore, reportStore: new InMemoryReportStore(), logger: console });
serve({ fetch: app.fetch, port: Number(process.env['PORT'] ?? 8080) }, (info) => console.log(`Collector on http://localhost:${info.port}/api/audit/`));
