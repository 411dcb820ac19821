// Property-based: at least 10,000 malformed requests against a running server. Whatever arrives, the answer is one
// the contract describes, never a 5xx, the server stays up, and nothing is stored unless the answer was 200.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importKey, openDatabase } from '@org/audit-server';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { keepAliveAgent, postBytes, type HttpAnswer } from './support/http.js';
import { storedReports } from './support/reports.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const RUNS = 200;
const REQUESTS_PER_RUN = 50;
const PARALLEL = 8;
const MAX_BODY_BYTES = 64 * 1024;
const report = readFileSync(lynisFixturePath('report.dat'));

const PATHS = ['/api/audit/license/', '/api/v1/audit/license/', '/api/audit/upload/', '/api/v1/audit/upload/'];
/** Statuses the contract documents per operation. */
const LICENSE_STATUSES = [200, 401, 413, 429];
const UPLOAD_STATUSES = [200, 400, 401, 413, 415, 429, 503];

let server: ServerProcess;
let removeDataDir: () => Promise<void>;
const validKey = 'deadbeef-0000-0000-0000-00000000f00d';
beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  await importKey(orm, validKey);
  await orm.close();
  // Rate limits off: every request must reach the parsers and handlers.
  server = await startServerProcess(data.dataDir, [
    '--plain-http',
    '--max-body-bytes',
    String(MAX_BODY_BYTES),
    '--rate-limit-address',
    '0',
    '--rate-limit-key',
    '0',
    '--rate-limit-failures',
    '0',
  ]);
});
afterAll(async () => {
  await server?.stop();
  await removeDataDir?.();
});

// ---- what goes into a field value
const base64 = report.toString('base64');
const base64Variants = fc.constantFrom(
  base64,
  base64.replace(/=+$/, ''), // padding missing
  `${base64}=`, // padding too long
  base64.replace(/(.{76})/g, '$1\n'), // MIME line breaks
  ` ${base64} `, // surrounding whitespace
  base64.replaceAll('+', '-').replaceAll('/', '_'), // URL-safe alphabet
  `${base64.slice(0, 101)}`, // cut mid-quantum
  '====',
  'QQ==QQ==',
);
const keys = () => fc.constantFrom(validKey, validKey.toUpperCase(), `${validKey} `, validKey.replaceAll('-', ''), 'deadbeef', '');
const fieldValue = () =>
  fc.oneof(
    keys(),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.constantFrom('%', '%zz', '%e2%82', '%00', '%ff%fe', '%C0%AF', '+%2B+'),
    fc.constant('a\u0000b'),
    fc.constant(report.toString('latin1')),
    base64Variants,
    fc.integer({ min: 200, max: 70 * 1024 }).map((n) => 'x'.repeat(n)), // over the field limits, or over the body limit
    fc.constantFrom('0123456789abcdef0123456789abcdef01234567', 'a'.repeat(256), 'host with spaces', '\u00e9t\u00e9'),
  );
const fieldName = () =>
  fc.oneof(fc.constantFrom('licensekey', 'hostid', 'hostid2', 'data', 'collector_version', '__proto__', 'constructor'), fc.string({ maxLength: 12 }));
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
/** Random fields, or a valid upload with random changes (extra, repeated or altered fields), which some answers store. */
const fields = () =>
  fc.oneof(
    fc.array(fc.tuple(fieldName(), fieldValue()), { maxLength: 40 }),
    fc
      .tuple(fc.oneof(fc.constant(report.toString('latin1')), base64Variants), fc.array(fc.tuple(fieldName(), fieldValue()), { maxLength: 3 }), fc.nat())
      .map(([data, extra, at]) => {
        const pairs: [string, string][] = [
          ['licensekey', validKey],
          ['hostid', HOST_ID],
          ['data', data],
        ];
        pairs.splice(at % (pairs.length + 1), 0, ...extra);
        return pairs;
      }),
  );
const bytes = () => fc.uint8Array({ maxLength: 2048 }).map((array) => Buffer.from(array));

// ---- how a body is built from fields
const urlencodedBody = fields().chain((pairs) =>
  fc.constantFrom('encoded', 'raw').map((style) =>
    Buffer.from(
      style === 'encoded' ? new URLSearchParams(pairs).toString() : pairs.map(([name, value]) => `${name}=${value}`).join('&'), // raw: broken escapes, NUL, non-UTF-8 as sent
      style === 'encoded' ? 'utf8' : 'latin1',
    ),
  ),
);
const BOUNDARY = 'fuzzboundary42';
const multipartBody = fc.tuple(fields(), fc.boolean(), fc.nat(200)).map(([pairs, asFiles, cutAt]) => {
  const parts = pairs.map(([name, value]) =>
    Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name.replaceAll('"', '')}"${asFiles ? '; filename="r.dat"' : ''}\r\n\r\n`,
        'latin1',
      ),
      Buffer.from(value, 'latin1'),
      Buffer.from('\r\n'),
    ]),
  );
  const whole = Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);
  return cutAt % 3 === 0 ? whole.subarray(0, Math.max(0, whole.length - cutAt)) : whole; // sometimes cut off
});
const contentType = fc.oneof(
  fc.constantFrom(
    'application/x-www-form-urlencoded',
    'application/x-www-form-urlencoded; charset=utf-16',
    `multipart/form-data; boundary=${BOUNDARY}`,
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'application/json',
    'text/plain',
    'MULTIPART/FORM-DATA; boundary="fuzzboundary42"',
  ),
  fc.stringMatching(/^[ -~]{0,60}$/),
  fc.constant(undefined),
);
const badRequest = fc.record({
  path: fc.constantFrom(...PATHS),
  contentType,
  body: fc.oneof(urlencodedBody, multipartBody, bytes(), fc.constant(Buffer.alloc(0))),
});

let sent = 0;
const acknowledged = new Set<string>();

function expectWithinContract(path: string, answer: HttpAnswer): void {
  expect(answer.status).toBeLessThan(500);
  expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
  if (path.endsWith('/license/')) {
    expect(LICENSE_STATUSES).toContain(answer.status);
    if (answer.status === 200) expect(answer.body).toBe('Response 100');
    if (answer.status === 401) expect(answer.body).toBe('Response 500');
  } else {
    expect(UPLOAD_STATUSES).toContain(answer.status);
    if (answer.status === 200) acknowledged.add(/^OK (\S+)$/.exec(answer.body)![1]!);
    if (answer.status === 401) expect(answer.body).toBe('Invalid license key');
  }
  if (answer.status === 429) expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

it(`answers ${RUNS * REQUESTS_PER_RUN} malformed requests within the contract, without a crash or a stray report`, async () => {
  const agent = keepAliveAgent(PARALLEL);
  await fc.assert(
    fc.asyncProperty(fc.array(badRequest, { minLength: REQUESTS_PER_RUN, maxLength: REQUESTS_PER_RUN }), async (requests) => {
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const { path, contentType: type, body } = requests[next++]!;
          const answer = await postBytes(agent, `${server.url}${path}`, type === undefined ? {} : { 'content-type': type }, body).catch((error: Error) => {
            throw new Error(`${error.message}; server stderr: ${server.stderr() || '(empty)'}`);
          });
          sent++;
          expectWithinContract(path, answer);
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
    }),
    { numRuns: RUNS },
  );
  agent.destroy();
  console.log(`bad inputs: ${sent} malformed requests answered within the contract (${acknowledged.size} stored with 200)`);
  expect(sent).toBeGreaterThanOrEqual(10_000);

  // Still up and well, and exactly the acknowledged reports were stored.
  const check = await fetch(`${server.url}/api/audit/license/`, { method: 'POST', body: new URLSearchParams({ licensekey: validKey }) });
  expect(await check.text()).toBe('Response 100');
  expect(server.logs.some((line) => line.includes('"request failed"'))).toBe(false);
  await server.stop();
  expect(new Set((await storedReports(server.dataDir)).map((r) => r.id))).toEqual(acknowledged);
}, 180_000);
