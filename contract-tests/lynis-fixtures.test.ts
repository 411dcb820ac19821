// Replays the requests captured from Lynis 3.0.8 (fixtures/lynis) byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKey, openDatabase } from '@org/audit-server';
import { lynisCapture, withKey } from '@org/test-support/lynis-fixtures';
import { exchangeRaw } from '@org/test-support/raw-https';
import { storedReports } from './support/reports.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const { key: FIXTURE_KEY, licenseRequest, uploadRequest, report } = lynisCapture;
const OTHER_KEY = 'deadbeef-0000-0000-0000-000000000002'; // same length: Content-Length stays right

let server: ServerProcess;
let removeDataDir: () => Promise<void>;
let keyId: string;

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  keyId = await importKey(orm, FIXTURE_KEY, { label: 'fixture' });
  await orm.close();
  // The capture was made against upload-server=127.0.0.1:8443/api/lynis.
  server = await startServerProcess(data.dataDir, ['--tool-segment', 'lynis']);
});
afterAll(async () => {
  await server?.stop();
  await removeDataDir?.();
});

describe('captured Lynis requests', () => {
  it('license check with the valid key: exactly "Response 100"', async () => {
    const response = await exchangeRaw(server.port, licenseRequest);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toEqual(Buffer.from('Response 100'));
  });

  it('license check with an altered key: 401 and exactly "Response 500"', async () => {
    const response = await exchangeRaw(server.port, withKey(licenseRequest, OTHER_KEY));
    expect(response.status).toBe(401);
    expect(response.body).toEqual(Buffer.from('Response 500'));
  });

  it('upload with the valid key: stored as report.dat, key redacted', async () => {
    const response = await exchangeRaw(server.port, uploadRequest);
    expect(response.status).toBe(200);
    const id = response.body.toString().match(/^OK (\S+)$/)![1];
    const stored = (await storedReports(server.dataDir)).find((r) => r.id === id)!;
    expect(stored.content.toString('latin1')).toBe(report.toString('latin1').replace(`license_key=${FIXTURE_KEY}`, 'license_key=[redacted]'));
    expect(stored).toMatchObject({
      keyId,
      hostId: '0123456789abcdef0123456789abcdef01234567',
      hostId2: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      encoding: 'raw',
      size: report.length,
      // What core's parser read from the report, kept by the server.
      hostname: 'localhost',
      lynisVersion: '3.0.8',
      hardeningIndex: 56,
      warningCount: 2,
      suggestionCount: 45,
    });
  });

  it('the same requests on the legacy prefix /api/v1: "Response 100", and the upload stored', async () => {
    // Only the request line changes: the capture's Content-Length counts the body.
    const legacy = (request: Buffer) => Buffer.from(request.toString('latin1').replace(/^POST \/api\/lynis\//, 'POST /api/v1/lynis/'), 'latin1');
    expect(legacy(licenseRequest).toString('latin1')).toMatch(/^POST \/api\/v1\/lynis\/license\/ HTTP\/1\.1\r\n/);
    const license = await exchangeRaw(server.port, legacy(licenseRequest));
    expect(license.status).toBe(200);
    expect(license.body).toEqual(Buffer.from('Response 100'));
    const upload = await exchangeRaw(server.port, legacy(uploadRequest));
    expect(upload.status).toBe(200);
    const id = upload.body.toString().match(/^OK (\S+)$/)![1];
    expect((await storedReports(server.dataDir)).find((r) => r.id === id)).toMatchObject({ keyId, size: report.length, hostname: 'localhost' });
  });

  it('upload with an altered key: 401 and nothing stored', async () => {
    const before = (await storedReports(server.dataDir)).length;
    const response = await exchangeRaw(server.port, withKey(uploadRequest, OTHER_KEY));
    expect(response.status).toBe(401);
    expect(await storedReports(server.dataDir)).toHaveLength(before);
  });
});
