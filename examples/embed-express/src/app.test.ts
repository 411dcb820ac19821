// Starts the example app and replays the requests captured from Lynis against its /collector prefix.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashLicenseKey } from '@org/audit-server-core';
import { lynisCapture, redactedReport, underBasePath, withKey } from '@org/test-support/lynis-fixtures';
import { exchangeRaw } from '@org/test-support/raw-https';
import { createInventoryApp } from './app.js';
import { FolderReportStore } from './folder-report-store.js';

const REVOKED_KEY = 'deadbeef-0000-0000-0000-00000000dead';
let folder: string;
let reportsDir: string;
let server: Server;
let port: number;
const replay = (request: Buffer) => exchangeRaw(port, underBasePath(request, '/collector'), { tls: false });

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'example-embed-express-'));
  reportsDir = join(folder, 'reports');
  const keysFile = join(folder, 'keys.json');
  await writeFile(
    keysFile,
    JSON.stringify({
      keys: [
        { id: 'fixture-hosts', sha256: hashLicenseKey(lynisCapture.key) },
        { id: 'retired-hosts', sha256: hashLicenseKey(REVOKED_KEY), revoked: true },
      ],
    }),
  );
  const app = await createInventoryApp({ keysFile, reportsDir });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

describe('example: Express app with the handlers under /collector', () => {
  it('answers the captured license check with exactly "Response 100"', async () => {
    const response = await replay(lynisCapture.licenseRequest);
    expect([response.status, response.body.toString()]).toEqual([200, 'Response 100']);
  });

  it('refuses a revoked key from the JSON file', async () => {
    const response = await replay(withKey(lynisCapture.licenseRequest, REVOKED_KEY));
    expect([response.status, response.body.toString()]).toEqual([401, 'Response 500']);
  });

  it('writes the captured upload to the folder: report redacted, metadata beside it, no temporary file left', async () => {
    const response = await replay(lynisCapture.uploadRequest);
    expect(response.status).toBe(200);
    const id = response.body.toString().match(/^OK (\S+)$/)![1]!;
    expect((await readdir(reportsDir)).sort()).toEqual([`${id}.dat`, `${id}.json`]);
    expect(await readFile(join(reportsDir, `${id}.dat`), 'latin1')).toBe(redactedReport);
    expect(JSON.parse(await readFile(join(reportsDir, `${id}.json`), 'utf8'))).toMatchObject({
      id,
      keyId: 'fixture-hosts',
      hostId: lynisCapture.hostId,
      hostId2: lynisCapture.hostId2,
      encoding: 'raw',
      size: lynisCapture.report.length,
      summary: { lynisVersion: '3.0.8', hostname: 'localhost', hardeningIndex: 56 },
    });
    // The app's own routes keep working, and saw the report through the hook.
    const last = await fetch(`http://127.0.0.1:${port}/hosts/${lynisCapture.hostId}/last-report`);
    expect(await last.json()).toMatchObject({ reportId: id, hardeningIndex: 56 });
  });

  it('refuses the captured upload with a revoked key and writes nothing', async () => {
    const before = await readdir(reportsDir);
    const response = await replay(withKey(lynisCapture.uploadRequest, REVOKED_KEY));
    expect([response.status, response.body.toString()]).toEqual([401, 'Invalid license key']);
    expect(await readdir(reportsDir)).toEqual(before);
  });

  it('leaves paths outside /collector to the app', async () => {
    const response = await exchangeRaw(port, lynisCapture.licenseRequest, { tls: false });
    expect(response.status).toBe(404);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('Host inventory');
  });
});

describe('FolderReportStore', () => {
  it('keeps concurrent saves apart, each complete, with no temporary file left', async () => {
    const store = new FolderReportStore(join(folder, 'concurrent'));
    const reports = Array.from({ length: 5 }, (_, i) => ({
      keyId: 'k',
      hostId: `host-${i}`,
      receivedAt: new Date(),
      encoding: 'raw' as const,
      size: 4,
      sha256: 'a'.repeat(64),
      content: Buffer.from(`a=${i}\n`),
      summary: null,
    }));
    const ids = (await Promise.all(reports.map((report) => store.save(report)))).map(({ id }) => id);
    expect(new Set(ids).size).toBe(5);
    expect(await readdir(join(folder, 'concurrent'))).toHaveLength(10);
    for (const [i, id] of ids.entries()) {
      expect(await readFile(join(folder, 'concurrent', `${id}.dat`), 'utf8')).toBe(`a=${i}\n`);
      expect(JSON.parse(await readFile(join(folder, 'concurrent', `${id}.json`), 'utf8'))).toMatchObject({ id, hostId: `host-${i}` });
    }
  });
});
