// The generated client's thin layer against the Prism mock, and against the reference server over HTTPS with its
// self-signed certificate: trusted by `ca`, skipped by `insecure`, refused without either; current and legacy paths.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalReport } from '@org/test-support/lynis-report';
import {
  createAuditClient,
  InvalidKeyError,
  NetworkError,
  RateLimitedError,
  RequestRejectedError,
  TooLargeError,
  type AuditClientOptions,
} from '@org/audit-client';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { startPrism, type PrismProcess } from './support/prism.js';
import { storedReports } from './support/reports.js';
import { makeDataDir, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';

const VALID_KEY = 'deadbeef-0000-0000-0000-0000000000c1';
const REVOKED_KEY = 'deadbeef-0000-0000-0000-0000000000c2';
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const HOST_ID2 = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

describe('client against the reference server over HTTPS', () => {
  let server: ServerProcess;
  let removeDataDir: () => Promise<void>;
  let ca: Buffer;
  let report: Buffer;

  beforeAll(async () => {
    const data = await makeDataDir();
    removeDataDir = data.remove;
    await seedKeys(data.dataDir, { valid: [VALID_KEY], revoked: [REVOKED_KEY] });
    server = await startServerProcess(data.dataDir);
    ca = await readFile(join(data.dataDir, 'tls-cert.pem'));
    report = await readFile(lynisFixturePath('report.dat'));
  });
  afterAll(async () => {
    await server?.stop();
    await removeDataDir?.();
  });

  const clientFor = (legacyPaths: boolean, trust: Partial<AuditClientOptions>) => createAuditClient({ baseUrl: server.url, legacyPaths, ...trust });

  describe.each([
    ['current paths', false],
    ['legacy paths', true],
  ])('%s', (_name, legacyPaths) => {
    it('with the server certificate as `ca`: checks keys and stores the fixture report, key redacted', async () => {
      const client = clientFor(legacyPaths, { ca });
      try {
        await expect(client.checkLicense(VALID_KEY, { collectorVersion: '105' })).resolves.toEqual({ valid: true });
        await expect(client.checkLicense(REVOKED_KEY)).resolves.toEqual({ valid: false });
        await expect(client.checkLicense('deadbeef')).resolves.toEqual({ valid: false });
        const { id } = await client.uploadReport({ licenseKey: VALID_KEY, hostId: HOST_ID, hostId2: HOST_ID2, report });
        const stored = (await storedReports(server.dataDir)).find((r) => r.id === id);
        expect(stored).toMatchObject({ hostId: HOST_ID, hostId2: HOST_ID2, encoding: 'raw', size: report.length });
        expect(stored!.content.toString()).toContain('license_key=[redacted]');
      } finally {
        await client.close();
      }
    });

    it('with `insecure`: checks the key and stores a base64 upload', async () => {
      const client = clientFor(legacyPaths, { insecure: true });
      try {
        await expect(client.checkLicense(VALID_KEY)).resolves.toEqual({ valid: true });
        const { id } = await client.uploadReport({ licenseKey: VALID_KEY, hostId: HOST_ID, report, encoding: 'base64' });
        const stored = (await storedReports(server.dataDir)).find((r) => r.id === id);
        expect(stored).toMatchObject({ encoding: 'base64', hostId2: null });
        expect(stored!.content.toString()).toContain('hostname=localhost');
      } finally {
        await client.close();
      }
    });

    it('without `ca` or `insecure`: refuses the self-signed certificate and sends nothing', async () => {
      const before = (await storedReports(server.dataDir)).length;
      const client = clientFor(legacyPaths, {});
      const error = await client.uploadReport({ licenseKey: VALID_KEY, hostId: HOST_ID, report }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).toMatch(/self-signed certificate/);
      expect((error as Error).message).not.toContain(VALID_KEY);
      expect(await storedReports(server.dataDir)).toHaveLength(before);
    });

    it('maps the server refusals to typed errors', async () => {
      const client = clientFor(legacyPaths, { ca });
      try {
        await expect(client.uploadReport({ licenseKey: REVOKED_KEY, hostId: HOST_ID, report })).rejects.toBeInstanceOf(InvalidKeyError);
        const rejected = await client.uploadReport({ licenseKey: VALID_KEY, hostId: HOST_ID, report: 'hello world' }).catch((e: unknown) => e);
        expect(rejected).toBeInstanceOf(RequestRejectedError);
        expect((rejected as RequestRejectedError).reason).toMatch(/^Invalid data: /);
        await expect(client.uploadReport({ licenseKey: VALID_KEY, hostId: 'has space', report })).rejects.toMatchObject({ code: 'rejected', status: 400 });
      } finally {
        await client.close();
      }
    });
  });
});

describe('client against the Prism mock', () => {
  let mock: PrismProcess;
  beforeAll(async () => {
    mock = await startPrism('mock');
  });
  afterAll(() => mock?.stop());

  const mockClient = (legacyPaths: boolean, prefer?: string) =>
    createAuditClient({ baseUrl: mock.url, legacyPaths, ...(prefer ? { headers: { prefer } } : {}) });
  const upload = { licenseKey: VALID_KEY, hostId: HOST_ID, report: minimalReport() };

  describe.each([
    ['current paths', false],
    ['legacy paths', true],
  ])('%s', (_name, legacyPaths) => {
    it('reads the contract examples: valid, invalid on Prefer: code=401, a stored id', async () => {
      await expect(mockClient(legacyPaths).checkLicense(VALID_KEY)).resolves.toEqual({ valid: true });
      await expect(mockClient(legacyPaths, 'code=401').checkLicense(VALID_KEY)).resolves.toEqual({ valid: false });
      await expect(mockClient(legacyPaths).uploadReport(upload)).resolves.toEqual({ id: '0f8fad5b-d9cb-469f-a165-70867728950e' });
    });

    it('maps the example refusals to typed errors, with the Retry-After seconds of a 429', async () => {
      const limited = await mockClient(legacyPaths, 'code=429')
        .uploadReport(upload)
        .catch((e: unknown) => e);
      expect(limited).toBeInstanceOf(RateLimitedError);
      expect((limited as RateLimitedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      await expect(mockClient(legacyPaths, 'code=429').checkLicense(VALID_KEY)).rejects.toBeInstanceOf(RateLimitedError);
      await expect(mockClient(legacyPaths, 'code=413').uploadReport(upload)).rejects.toBeInstanceOf(TooLargeError);
      await expect(mockClient(legacyPaths, 'code=401').uploadReport(upload)).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(mockClient(legacyPaths, 'code=400').uploadReport(upload)).rejects.toBeInstanceOf(RequestRejectedError);
    });

    it('gets a request the contract forbids refused by the mock as a rejected request', async () => {
      await expect(mockClient(legacyPaths).uploadReport({ ...upload, hostId: 'has space' })).rejects.toBeInstanceOf(RequestRejectedError);
    });
  });
});
