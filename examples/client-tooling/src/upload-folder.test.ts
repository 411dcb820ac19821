// Runs the example as a user would, against the reference server over HTTPS, and checks what was stored.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger, importKey, openDatabase, parseServerConfig, ReportRecord, startServer, type RunningServer } from '@org/audit-server';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { runNodeScript } from '@org/test-support/node-script';

/** The built example (`npm test` builds first), as `npm start` runs it. */
const EXAMPLE = fileURLToPath(new URL('../dist/upload-folder.js', import.meta.url));
const REPORT = lynisFixturePath('report.dat');
const KEY = 'deadbeef-0000-0000-0000-0000000000e1';
const HOSTS = ['1111111111111111111111111111111111111111', '2222222222222222222222222222222222222222'];

let dataDir: string;
let server: RunningServer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'example-client-tooling-'));
  const orm = await openDatabase(dataDir);
  await importKey(orm, KEY);
  await orm.close();
  server = await startServer(parseServerConfig({ dataDir, host: '127.0.0.1', port: 0, opsPort: 'off', logLevel: 'silent' }), createLogger('silent'));
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('uploads every report of a folder with its own host id and prints the stored ids', async () => {
  const folder = join(dataDir, 'reports');
  await mkdir(folder);
  const fixture = await readFile(REPORT, 'utf8');
  for (const [i, hostId] of HOSTS.entries()) {
    await writeFile(join(folder, `host-${i}.dat`), fixture.replace(/^hostid=.*$/m, `hostid=${hostId}`));
  }
  await writeFile(join(folder, 'notes.txt'), 'not a report');

  const env = { PATH: process.env.PATH!, AUDIT_URL: `${server.url}/api/audit`, AUDIT_LICENSE_KEY: KEY, AUDIT_CA_FILE: join(dataDir, 'tls-cert.pem') };
  const result = await runNodeScript(EXAMPLE, [folder], env);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  const printed = result.stdout
    .trimEnd()
    .split('\n')
    .map((line) => line.split(' '));
  expect(printed.map(([, file]) => file)).toEqual([join(folder, 'host-0.dat'), join(folder, 'host-1.dat')]);

  const orm = await openDatabase(dataDir);
  try {
    const stored = await orm.em.fork().find(ReportRecord, { id: { $in: printed.map(([id]) => id!) } }, { orderBy: { hostId: 'asc' } });
    expect(stored.map((r) => r.hostId)).toEqual(HOSTS);
  } finally {
    await orm.close();
  }
});
