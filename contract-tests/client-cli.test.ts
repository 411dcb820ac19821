// `audit-client`, the built CLI, as an operator runs it: with a Lynis profile against the reference server over
// HTTPS, and against a tiny local server that rate-limits, for the retries and exit codes.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrism, type PrismProcess } from './support/prism.js';
import { storedReports } from './support/reports.js';
import { LYNIS_FIXTURES, makeDataDir, runNodeScript, seedKeys, startServerProcess, type CommandRun, type ServerProcess } from './support/server-process.js';

/** The committed bin shim, exactly what `npx audit-client` runs. */
const CLIENT_CLI = fileURLToPath(new URL('../packages/client/bin/audit-client.js', import.meta.url));
const VALID_KEY = 'deadbeef-0000-0000-0000-0000000000d1';
const REVOKED_KEY = 'deadbeef-0000-0000-0000-0000000000d2';
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const HOST_ID2 = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const REPORT = join(LYNIS_FIXTURES, 'report.dat');

/** Runs `audit-client <args>` with only the given environment variables (plus PATH) and optional stdin. */
function runClient(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<CommandRun> {
  return runNodeScript(CLIENT_CLI, args, { PATH: process.env.PATH!, ...env }, stdin);
}

describe('audit-client against the reference server', () => {
  let server: ServerProcess;
  let removeDataDir: () => Promise<void>;
  const runs: Run[] = [];
  const run = async (...args: Parameters<typeof runClient>) => {
    const result = await runClient(...args);
    runs.push(result);
    return result;
  };

  /** Writes a Lynis profile like the README's, pointing at the server. */
  async function profile(name: string, key: string, prefix: string, uploadOptions: string): Promise<string> {
    const file = join(server.dataDir, name);
    await writeFile(file, [
      '# Lynis profile written by the test',
      `license-key=${key}`,
      `upload-server=127.0.0.1:${server.port}${prefix}`,
      `upload-options=${uploadOptions}`,
      `hostid=${HOST_ID}`,
      `hostid2=${HOST_ID2}`,
      '',
    ].join('\n'));
    return file;
  }

  beforeAll(async () => {
    const data = await makeDataDir();
    removeDataDir = data.remove;
    await seedKeys(data.dataDir, { valid: [VALID_KEY], revoked: [REVOKED_KEY] });
    server = await startServerProcess(data.dataDir);
  });
  afterAll(async () => {
    await server?.stop();
    await removeDataDir?.();
  });

  it.each([
    ['/api/audit', 'the server certificate by --cacert'],
    ['/api/v1/audit', '--insecure'],
  ])('upload --lynis-profile P report.dat stores the fixture report (prefix %s, %s)', async (prefix, trust) => {
    const uploadOptions = trust === '--insecure' ? '--insecure' : `--cacert ${join(server.dataDir, 'tls-cert.pem')}`;
    const prf = await profile(`custom-${prefix.replaceAll('/', '_')}.prf`, VALID_KEY, prefix, uploadOptions);
    const result = await run(['upload', '--lynis-profile', prf, REPORT]);
    expect(result).toMatchObject({ code: 0, stderr: '1 of 1 reports stored\n' });
    const [id, file] = result.stdout.trimEnd().split('\t');
    expect(file).toBe(REPORT);
    const stored = (await storedReports(server.dataDir)).find((r) => r.id === id);
    expect(stored).toMatchObject({ hostId: HOST_ID, hostId2: HOST_ID2, encoding: 'raw', size: (await readFile(REPORT)).length });
  });

  it('exits 2 with a revoked key and stores nothing', async () => {
    const prf = await profile('revoked.prf', REVOKED_KEY, '/api/audit', '--insecure');
    const before = (await storedReports(server.dataDir)).length;
    const result = await run(['upload', '--lynis-profile', prf, REPORT]);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'The server refused the license key; nothing was uploaded.\n' });
    expect(await storedReports(server.dataDir)).toHaveLength(before);
    expect(await run(['license', '--lynis-profile', prf])).toMatchObject({ code: 2, stdout: 'invalid\n' });
  });

  it('license: takes the key from stdin, a file or the environment, and exits 0', async () => {
    const url = `${server.url}/api/audit`;
    const keyFile = join(server.dataDir, 'key.txt');
    await writeFile(keyFile, `${VALID_KEY}\n`);
    expect(await run(['license', '--url', url, '--insecure', '--key-stdin'], {}, `${VALID_KEY}\n`)).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });
    expect(await run(['license', '--url', url, '--insecure', '--key-file', keyFile])).toMatchObject({ code: 0, stdout: 'valid\n' });
    expect(await run(['license', '--insecure'], { AUDIT_URL: url, AUDIT_LICENSE_KEY: VALID_KEY })).toMatchObject({ code: 0, stdout: 'valid\n' });
  });

  it('exits 1 when the certificate is not trusted, saying why', async () => {
    const result = await run(['license', '--url', `${server.url}/api/audit`], { AUDIT_LICENSE_KEY: VALID_KEY });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^No answer from https:\/\/127\.0\.0\.1:\d+\/api\/audit\/license\/: self-signed certificate\n$/);
  });

  it('uploads a directory: stores the good reports, exits 3 for the one the server rejects', async () => {
    const folder = join(server.dataDir, 'reports');
    await mkdir(folder);
    for (const name of ['a.dat', 'b.dat', 'c.dat']) await copyFile(REPORT, join(folder, name));
    await writeFile(join(folder, 'broken.dat'), `hostid=${HOST_ID}\nthis line is not a pair\n`);
    const result = await run(['upload', '--url', `${server.url}/api/audit`, '--ca', join(server.dataDir, 'tls-cert.pem'), '--concurrency', '2', folder], { AUDIT_LICENSE_KEY: VALID_KEY });
    expect(result.code).toBe(3);
    expect(result.stdout.trimEnd().split('\n').map((line) => line.split('\t')[1]).sort()).toEqual(['a.dat', 'b.dat', 'c.dat'].map((n) => join(folder, n)));
    expect(result.stderr).toContain(`${join(folder, 'broken.dat')}: The server rejected the request (400): Invalid data: line 2`);
    expect(result.stderr).toMatch(/3 of 4 reports stored, 1 failed\n$/);
  });

  it('never printed a key', () => {
    expect(runs.length).toBeGreaterThan(5);
    for (const { stdout, stderr } of runs) {
      for (const key of [VALID_KEY, REVOKED_KEY]) expect(stdout + stderr).not.toContain(key);
    }
  });
});

describe('audit-client against the Prism mock', () => {
  let mock: PrismProcess;
  beforeAll(async () => {
    mock = await startPrism('mock');
  });
  afterAll(() => mock?.stop());

  it.each(['/api/audit', '/api/v1/audit'])('checks the key and uploads, reading the example answers (%s)', async (prefix) => {
    const env = { AUDIT_URL: `${mock.url}${prefix}`, AUDIT_LICENSE_KEY: VALID_KEY };
    expect(await runClient(['license'], env)).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });
    expect(await runClient(['upload', REPORT], env)).toEqual({ code: 0, stdout: `0f8fad5b-d9cb-469f-a165-70867728950e\t${REPORT}\n`, stderr: '1 of 1 reports stored\n' });
  });
});

describe('audit-client against a server that rate-limits', () => {
  let server: Server;
  let url: string;
  let uploads: number;
  let limitedAnswers: number;

  beforeAll(async () => {
    // Answers the license check, then 429 with Retry-After: 1 to the first `limitedAnswers` uploads.
    server = createServer((request, response) => {
      request.resume().on('end', () => {
        if (request.url!.endsWith('/license/')) return response.writeHead(200, { 'content-type': 'text/plain' }).end('Response 100');
        uploads++;
        if (uploads <= limitedAnswers) return response.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' }).end('Too many requests');
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`OK id-${uploads}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/audit`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('retries after Retry-After and succeeds: exit 0', async () => {
    uploads = 0;
    limitedAnswers = 2;
    const result = await runClient(['upload', '--url', url, REPORT], { AUDIT_LICENSE_KEY: VALID_KEY });
    expect(result).toMatchObject({ code: 0, stdout: `id-3\t${REPORT}\n` });
    expect(uploads).toBe(3);
  });

  it('exits 4 when still rate limited after the retries', async () => {
    uploads = 0;
    limitedAnswers = 100;
    const result = await runClient(['upload', '--url', url, '--retries', '1', REPORT], { AUDIT_LICENSE_KEY: VALID_KEY });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('The server is rate limiting requests (429); retry after 1 s');
    expect(uploads).toBe(2);
  });
});
