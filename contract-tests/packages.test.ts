// The publishable packages as a user gets them: publint's checks, and core's tarball installed into a scratch
// project outside the workspace, where it must type-check and answer a license check.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

describe.each(['packages/core', 'packages/server', 'packages/client'])('%s', (dir) => {
  it('passes publint, strict', async () => {
    const { messages } = await publint({ pkgDir: join(root, dir), strict: true });
    expect(messages).toEqual([]);
  });
});

describe('core installed from its tarball', () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'audit-core-install-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: join(root, 'packages/core') });
    const [{ filename, files }] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
    const entries = ['index', 'express', 'node-http', 'fetch'].flatMap((entry) => [`dist/${entry}.js`, `dist/${entry}.d.ts`]);
    expect(files.map((file) => file.path)).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', ...entries]));
    expect(files.filter((file) => file.path.includes('.test.'))).toEqual([]);
    await writeFile(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    // From the registry (or npm's cache): the tarball's own dependencies, nothing from the workspace.
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(scratch, filename)], { cwd: scratch });
  }, 120_000);
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('answers a license check', async () => {
    await writeFile(
      join(scratch, 'check.mjs'),
      `import { Readable } from 'node:stream';
import { createAuditApi, InMemoryKeyStore, InMemoryReportStore } from '@org/audit-server-core';
const keyStore = new InMemoryKeyStore();
keyStore.add('deadbeef-0000-0000-0000-000000000001');
const api = await createAuditApi({ keyStore, reportStore: new InMemoryReportStore() });
for (const key of ['deadbeef-0000-0000-0000-000000000001', 'deadbeef']) {
  const body = Readable.from(['licensekey=' + key]);
  const response = await api.handle({ method: 'POST', path: '/api/audit/license/', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  console.log(response.status, response.body);
}
`,
    );
    const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: scratch });
    expect(stdout).toBe('200 Response 100\n401 Response 500\n');
  });

  it('serves through its node:http and fetch adapters, imported from their subpaths', async () => {
    await writeFile(
      join(scratch, 'adapters.mjs'),
      `import { createServer } from 'node:http';
import { createAuditApi, InMemoryKeyStore, InMemoryReportStore } from '@org/audit-server-core';
import { createAuditFetchHandler } from '@org/audit-server-core/fetch';
import { createAuditListener } from '@org/audit-server-core/node';
const keyStore = new InMemoryKeyStore();
keyStore.add('deadbeef-0000-0000-0000-000000000001');
const api = await createAuditApi({ keyStore, reportStore: new InMemoryReportStore() });
const init = { method: 'POST', body: 'licensekey=deadbeef-0000-0000-0000-000000000001', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
const fromFetch = await createAuditFetchHandler(api, { basePath: '/collector' })(new Request('http://localhost/collector/api/audit/license/', init));
console.log('fetch', fromFetch.status, await fromFetch.text());
const server = createServer(createAuditListener(api)).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const fromNode = await fetch(\`http://127.0.0.1:\${server.address().port}/api/audit/license/\`, init);
console.log('node', fromNode.status, await fromNode.text());
server.closeAllConnections();
server.close();
`,
    );
    const { stdout } = await run(process.execPath, ['adapters.mjs'], { cwd: scratch });
    expect(stdout).toBe('fetch 200 Response 100\nnode 200 Response 100\n');
  });

  it('gives TypeScript users its types through the exports map', async () => {
    await writeFile(
      join(scratch, 'embed.ts'),
      `import { createAuditApi, type KeyStore, type ReportStore, type ReportStoredEvent } from '@org/audit-server-core';
const keyStore: KeyStore = { lookup: async () => ({ state: 'unknown' }) };
const reportStore: ReportStore = { save: async () => ({ id: 'r1' }) };
const onReportStored = (event: ReportStoredEvent): void => void event.sha256.toUpperCase();
export const api = createAuditApi({ keyStore, reportStore, hooks: { onReportStored } });
// @ts-expect-error a KeyLookup has no state "maybe"
export const wrong: KeyStore = { lookup: async () => ({ state: 'maybe' }) };
`,
    );
    // Each adapter from its subpath, typed; the root no longer carries them.
    await writeFile(
      join(scratch, 'adapters.ts'),
      `import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditApi } from '@org/audit-server-core';
import { auditMiddleware } from '@org/audit-server-core/express';
import { createAuditFetchHandler, type AuditFetchHandler } from '@org/audit-server-core/fetch';
import { createAuditListener, type AuditListenerOptions } from '@org/audit-server-core/node';
// @ts-expect-error the adapters are entries of their own, not on the root
import { createAuditListener as fromRoot } from '@org/audit-server-core';
declare const api: AuditApi;
const options: AuditListenerOptions = { basePath: '/collector', onUnhandled: (_req: IncomingMessage, res: ServerResponse) => void res.end() };
export const listener = createAuditListener(api, options);
export const handler: AuditFetchHandler = createAuditFetchHandler(api, { basePath: '/collector' });
export const middleware = auditMiddleware(api);
export const answered = handler(new Request('http://localhost/'), { remoteAddress: '192.0.2.1' }).then((response) => response?.status);
// @ts-expect-error the options are typed (the fetch handler has no onUnhandled), not any
createAuditFetchHandler(api, { onUnhandled: () => undefined });
export { fromRoot };
`,
    );
    const args = [
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--target',
      'es2023',
      '--skipLibCheck',
      '--types',
      'node',
      '--typeRoots',
      join(root, 'node_modules/@types'),
      'embed.ts',
      'adapters.ts',
    ];
    await expect(run(process.execPath, [tsc, ...args], { cwd: scratch })).resolves.toMatchObject({ stdout: '' });
  });
});
