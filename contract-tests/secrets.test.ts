// No license key anywhere it should not be: the server runs through the whole request matrix, rejected and
// rate-limited requests, and every key command, with all output captured; then logs, CLI output, answers,
// stored reports and the database files are searched for every key involved.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { MATRIX_MAX_BODY_BYTES, requestMatrix, send, type MatrixKeys } from './support/request-matrix.js';
import { storedReports } from './support/reports.js';
import { logLine, makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const UNKNOWN_KEY = 'deadbeef-0000-0000-0000-00000000beef';
const REFUSED_IMPORT = 'Secret-Key-0000-not-lynis-safe';
const IMPORTED = ['0badc0de-1111-2222-3333-444455556666', '0badc0de-7777-8888-9999-aaaabbbbcccc'];
/** Low enough that a short burst crosses them, high enough for the matrix. */
const LIMITS = ['--rate-limit-key', '60', '--rate-limit-failures', '25'];

let dataDir: string;
let removeDataDir: () => Promise<void>;
let server: ServerProcess;
/** Every key that took part, and every text that must not contain one. */
const secrets: string[] = [UNKNOWN_KEY, REFUSED_IMPORT, ...IMPORTED];
const cliOutputs: { command: string; text: string }[] = [];
const answers: string[] = [];

async function cli(args: string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const result = await runCli(args, dataDir, stdin);
  cliOutputs.push({ command: args.join(' '), text: result.stderr });
  return result;
}

let keys: MatrixKeys;
let rotatedOld: string;
let rotatedNew: string;
let expiring: string;

beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  const created = await cli(['keys', 'create', '--label', 'matrix']);
  const valid = created.stdout.trim();
  expect(created.stdout).toMatch(/^[a-f0-9-]{53}\n$/); // the key and nothing else
  expiring = (await cli(['keys', 'create', '--expires', '1h'])).stdout.trim();
  rotatedOld = (await cli(['keys', 'create', '--label', 'to rotate'])).stdout.trim();
  secrets.push(valid, expiring, rotatedOld);

  const imported = await cli(['keys', 'import', '--label', 'moved'], `# from the old collector\n${IMPORTED.join('\n')}\n`);
  expect(imported.code).toBe(0);
  const [, revokedId] = imported.stdout.trim().split('\n');
  const refused = await cli(['keys', 'import'], `${REFUSED_IMPORT}\n`);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/line 1: a license key may use only a-f, 0-9 and "-"/);
  expect((await cli(['keys', 'revoke', revokedId!])).code).toBe(0);

  const list = await cli(['keys', 'list']);
  cliOutputs.push({ command: 'keys list (stdout)', text: list.stdout });
  const rotatedId = list.stdout
    .split('\n')
    .find((line) => line.includes('to rotate'))!
    .split(' ')[0]!;
  const rotated = await cli(['keys', 'rotate', rotatedId, '--grace', '1h']);
  rotatedNew = rotated.stdout.trim();
  secrets.push(rotatedNew);
  cliOutputs.push({ command: 'keys list again (stdout)', text: (await cli(['keys', 'list'])).stdout });

  keys = { valid, revoked: IMPORTED[1]! };
  server = await startServerProcess(dataDir, ['--plain-http', '--max-body-bytes', String(MATRIX_MAX_BODY_BYTES), ...LIMITS]);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await removeDataDir?.();
});

const post = async (path: string, fields: Record<string, string>) => {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', body: new URLSearchParams(fields) });
  const body = await response.text();
  answers.push(body);
  return { status: response.status, body };
};

describe('a server taking every kind of request', () => {
  it('answers the request matrix as the contract says', async () => {
    for (const matrixCase of requestMatrix) {
      const answer = await send(server.url, matrixCase, keys);
      answers.push(answer.body);
      expect(answer.status, matrixCase.name).toBe(matrixCase.server.status);
    }
  });

  it('accepts the rotated key, the old one in its grace period and the key not yet expired; stores a report naming its key', async () => {
    for (const key of [rotatedNew, rotatedOld, expiring, IMPORTED[0]!])
      expect((await post('/api/audit/license/', { licensekey: key })).body).toBe('Response 100');
    const report = (await readFile(lynisFixturePath('report.dat'), 'utf8')).replace(/^license_key=.*$/m, `license_key=${rotatedNew}`);
    expect((await post('/api/audit/upload/', { licensekey: rotatedNew, hostid: HOST_ID, data: report })).status).toBe(200);
  });

  it('rate-limits a key used too often, and an address with too many failed checks', async () => {
    let status = 0;
    for (let i = 0; i < 80 && status !== 429; i++)
      status = (await post('/api/audit/upload/', { licensekey: keys.valid, hostid: HOST_ID, data: 'os=Linux' })).status;
    expect(status).toBe(429);
    status = 0;
    for (let i = 0; i < 40 && status !== 429; i++) status = (await post('/api/audit/license/', { licensekey: UNKNOWN_KEY })).status;
    expect(status).toBe(429);
    const refused = await post('/api/audit/license/', { licensekey: IMPORTED[0]! });
    expect(refused).toEqual({ status: 429, body: 'Too many requests' });
    const logged = JSON.parse(await logLine(server, (line) => line.includes('"reason":"rate-limited"') && line.includes('"keyId":"unknown"')));
    expect(logged).toMatchObject({ msg: 'license check rejected', status: 429, remoteAddress: '127.0.0.1' });
    const metrics = await (await fetch(`${server.opsUrl}/metrics`)).text();
    answers.push(metrics); // searched for keys below, like every answer
    for (const operation of ['uploadReport', 'checkLicense']) {
      expect(metrics).toMatch(new RegExp(`^audit_requests_rejected_total\\{operation="${operation}",reason="rate-limited"\\} [1-9]`, 'm'));
    }
  });
});

describe('no key anywhere it should not be', () => {
  const leaks = (text: string) => secrets.filter((secret) => text.includes(secret));

  it('not in a server log line (stdout or stderr)', async () => {
    await logLine(server, (line) => line.includes('"statusCode":429'));
    expect(server.logs.length).toBeGreaterThan(100);
    expect(server.logs.filter((line) => leaks(line).length > 0)).toEqual([]);
    expect(leaks(server.stderr())).toEqual([]);
  });

  it('not in any key command output except the one key that create and rotate print', () => {
    expect(cliOutputs.length).toBeGreaterThan(8);
    expect(cliOutputs.filter(({ text }) => leaks(text).length > 0)).toEqual([]);
  });

  it('not in any answer body', () => {
    expect(answers.length).toBeGreaterThan(50);
    expect(answers.filter((body) => leaks(body).length > 0)).toEqual([]);
  });

  it('not in a stored report, nor anywhere in the database files', async () => {
    await server.stop(); // flushes the last-use times and checkpoints nothing away: the WAL file stays to be searched
    const reports = await storedReports(dataDir);
    expect(reports.length).toBeGreaterThan(3);
    expect(reports.filter((r) => leaks(JSON.stringify({ ...r, content: r.content.toString('latin1') })).length > 0)).toEqual([]);
    expect(reports.some((r) => r.content.includes('license_key=[redacted]'))).toBe(true);
    for (const file of await readdir(dataDir)) {
      const bytes = await readFile(join(dataDir, file));
      expect(
        secrets.filter((secret) => bytes.includes(secret)),
        file,
      ).toEqual([]);
    }
  });
});
