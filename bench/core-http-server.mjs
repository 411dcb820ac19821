// Core's handlers on its node:http adapter, with keys in memory: what the license check costs in core itself,
// without Express, request logging or a database. Only for license checks (reports would pile up in memory).
//
// Usage: node bench/core-http-server.mjs   with PORT and BENCH_LICENSE_KEY in the environment.
import { createServer } from 'node:http';
import { createAuditApi, InMemoryKeyStore, InMemoryReportStore } from '@org/audit-server-core';
import { createAuditListener } from '@org/audit-server-core/node';

const keyStore = new InMemoryKeyStore();
keyStore.add(process.env.BENCH_LICENSE_KEY ?? '');
const api = await createAuditApi({ keyStore, reportStore: new InMemoryReportStore() });
const server = createServer(createAuditListener(api));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
