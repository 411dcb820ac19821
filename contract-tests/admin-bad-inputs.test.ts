// Property-based: at least 10,000 odd admin requests against a running server (admin API on a listener of its
// own). Whatever arrives (unknown paths and ids, any method, control characters, NUL, huge or broken numbers,
// repeated parameters, bodies that are no JSON, no token or a wrong one), the answer is never a 5xx, every error
// is problem+json of the documented shape, and the server stays up.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, createKey, openDatabase } from '@org/audit-server';
import { keepAliveAgent, sendBytes, type HttpAnswer } from './support/http.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const RUNS = 200;
const REQUESTS_PER_RUN = 50;
const PARALLEL = 8;
/** What an admin operation may answer but 429 (rate limits are off) and 503 (the database stays up). */
const STATUSES = [200, 201, 400, 401, 404, 405, 409, 413, 415];

let server: ServerProcess;
let removeDataDir: () => Promise<void>;
let token: string;
let keyId: string;
beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  ({ token } = await createAdminToken(orm, { label: 'fuzz' }));
  ({ id: keyId } = await createKey(orm, { label: 'fuzz' }));
  await orm.close();
  // Rate limits off: every request must reach routing, validation and the operations.
  server = await startServerProcess(data.dataDir, [
    '--plain-http',
    '--admin-listen',
    '127.0.0.1:0',
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

// ---- URL parts: each is already safe to put in a request target
const encode = (text: string) => encodeURIComponent(text).replaceAll("'", '%27');
const RAW_ESCAPES = ['%00', '%01', '%1F', '%7F', '%0A', '%0D%0A', '%09', '%zz', '%', '%e2%82', '%ff%fe', '%C0%AF', '+%2B+', '%25', '%5F', '%5C', '%E2%80%AE'];
const NUMBERS = [
  '0',
  '1',
  '-1',
  '500',
  '501',
  '1000',
  '1001',
  '1000000000',
  '1000000001',
  '1000000000000000000000',
  '99999999999999999999999999999',
  '1e21',
  '1e400',
  '-1e400',
  '1.5',
  '0.0',
  '-0',
  '0x10',
  '1_000',
  'NaN',
  'Infinity',
  '-Infinity',
  ' 5',
  '5 ',
  '',
  '9007199254740993',
];
const text = () =>
  fc.oneof(
    fc.constantFrom(...RAW_ESCAPES),
    fc.constantFrom(...NUMBERS).map(encode),
    fc.string({ maxLength: 30 }).map(encode),
    fc.string({ unit: 'grapheme', maxLength: 30 }).map(encode),
    fc.constantFrom('web', 'WEB-01', '%25_', "o'brien", 'a\u0000b', '\u202e', 'x'.repeat(300), '\\', '*', 'é').map(encode),
    // Values the fleet filters take, so that requests get past validation to the queries.
    fc
      .constantFrom(
        'warning',
        'suggestion',
        'PKGS-7392',
        'asc',
        'desc',
        'lastSeen',
        'hostname',
        'hardeningIndex',
        'warnings',
        '2026-11-15T00:00:00.000Z',
        '7',
        '3650',
      )
      .map(encode),
  );
const id = () =>
  fc.oneof(
    fc.uuid().map(String),
    // Read when generated: the key is made before the first run.
    fc.constant(null).map(() => keyId),
    fc.constant(null).map(() => keyId.toUpperCase()),
    fc.constant('00000000-0000-0000-0000-000000000000'),
    fc.constantFrom('not-a-uuid', '..', '.', 'null', '%00', '%2F', 'x'.repeat(300)),
    fc.constant(null).map(() => `${keyId}%00`),
    text(),
  );
const PARAMETERS = [
  'limit',
  'offset',
  'historyLimit',
  'hostname',
  'keyId',
  'hostId',
  'hostRecordId',
  'group',
  'tag',
  'os',
  'finding',
  'findingKind',
  'seenBefore',
  'sort',
  'order',
  'staleDays',
  'kind',
  'testId',
];
const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...PARAMETERS), fc.constantFrom('__proto__', 'constructor', 'limit[]', 'a[b]'), fc.string({ maxLength: 8 }).map(encode)),
      text(),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([name, value]) => `${name}=${value}`).join('&')}`));
/** A path, with the method its operation takes (GET for unknown paths). */
const route = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom<[string, string]>(
      ['/api/admin/hosts', 'GET'],
      ['/api/admin/reports', 'GET'],
      ['/api/admin/keys', 'GET'],
      ['/api/admin/keys', 'POST'],
      ['/api/admin/overview', 'GET'],
      ['/api/admin/findings', 'GET'],
    ),
  },
  {
    weight: 8,
    arbitrary: id().chain((value) =>
      fc.constantFrom<[string, string]>(
        [`/api/admin/hosts/${value}`, 'GET'],
        [`/api/admin/reports/${value}`, 'GET'],
        [`/api/admin/reports/${value}/raw`, 'GET'],
      ),
    ),
  },
  {
    weight: 4,
    arbitrary: id().chain((value) =>
      fc.constantFrom<[string, string]>([`/api/admin/keys/${value}/revoke`, 'POST'], [`/api/admin/keys/${value}/rotate`, 'POST']),
    ),
  },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          '/api/admin',
          '/api/admin/',
          '/api/admin/hosts/',
          '/api/admin//hosts',
          '/api/admin/nothing',
          '/api/admin/keys/revoke',
          '/api/admin/%2e%2e/keys',
          '/api/admin/../keys',
          '/api/admin/HOSTS',
        ),
        id().map((value) => `/api/admin/keys/${value}`),
        fc.tuple(id(), text()).map(([value, segment]) => `/api/admin/hosts/${value}/${segment}`),
      )
      .map((path): [string, string] => [path, 'GET']),
  },
);
/** Mostly the operation's own method, so that requests get past routing; sometimes any other. */
const routeAndMethod = fc
  .tuple(
    route,
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') },
    ),
  )
  .map(([[path, natural], other]) => ({ path, method: other ?? natural }));
const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant(null).map(() => `Bearer ${token}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      'Bearer',
      'Bearer ',
      `Bearer adm_${'0'.repeat(64)}`,
      'Basic YWRtaW46YWRtaW4=',
      'bearer  x',
      `Bearer ${'a'.repeat(5000)}`,
    ),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[ -~]{0,80}$/) },
);

// ---- bodies, for any method
const jsonBody = fc
  .oneof(
    fc.record(
      {
        label: fc.oneof(fc.string({ maxLength: 300 }), fc.integer(), fc.constant(null)),
        expiresAt: fc.constantFrom('2100-01-01T00:00:00Z', '2001-01-01T00:00:00Z', 'tomorrow', '', '2100-13-45T99:99:99Z', 1e21),
      },
      { requiredKeys: [] },
    ),
    fc.record({ graceSeconds: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(1e21, -1, '3600', null)) }, { requiredKeys: [] }),
    fc.jsonValue({ maxDepth: 3 }),
  )
  .map((value) => Buffer.from(JSON.stringify(value) ?? 'null'));
const body = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: fc.tuple(jsonBody, fc.constant('application/json')) },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.oneof(
        fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
        fc.constantFrom('{"label":', '{"label":"\u0000"}', 'label=x', '', '[]', 'null', '{"__proto__":{"x":1}}').map((value) => Buffer.from(value)),
        fc.constant(Buffer.alloc(17 * 1024, 'a')),
      ),
      fc.constantFrom(
        'application/json',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/problem+json',
        undefined,
      ),
    ),
  },
);
const adminRequest = fc
  .record({ route: routeAndMethod, query, authorization, body })
  .map(({ route: { path, method }, ...rest }) => ({ path, method, ...rest }));

let sent = 0;
const statuses = new Map<number, number>();

function expectWithinContract(requestMethod: string, answer: HttpAnswer): void {
  statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  expect(STATUSES).toContain(answer.status);
  const type = String(answer.headers['content-type']);
  if (answer.status < 400) {
    expect(type).toMatch(/^(application\/json|text\/plain); charset=utf-8$/);
    return;
  }
  expect(type).toBe('application/problem+json');
  if (answer.status === 401) expect(answer.headers['www-authenticate']).toMatch(/^Bearer/);
  if (answer.status === 405) expect(answer.headers['allow']).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
  if (requestMethod === 'HEAD') return;
  const problem = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(problem).sort()).toEqual(['detail', 'status', 'title', 'type']);
  expect(problem).toMatchObject({ type: 'about:blank', status: answer.status, title: expect.stringMatching(/^\S/), detail: expect.stringMatching(/\S/) });
}

it(`answers ${RUNS * REQUESTS_PER_RUN} odd admin requests within the contract: never a 5xx, every error problem+json`, async () => {
  const agent = keepAliveAgent(PARALLEL);
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(fc.array(adminRequest, { minLength: REQUESTS_PER_RUN, maxLength: REQUESTS_PER_RUN }), async (requests) => {
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const request = requests[next++]!;
          const headers: Record<string, string> = {};
          if (request.authorization !== undefined) headers['authorization'] = request.authorization;
          const [bytes, type] = request.body ?? [];
          if (type !== undefined) headers['content-type'] = type;
          const target = `${request.path}${request.query}`;
          const answer = await sendBytes(agent, server.adminUrl, request.method, target, headers, request.method === 'HEAD' ? undefined : bytes).catch(
            (error: Error) => {
              throw new Error(`${request.method} ${target}: ${error.message}; server stderr: ${server.stderr() || '(empty)'}`);
            },
          );
          sent++;
          try {
            expectWithinContract(request.method, answer);
          } catch (error) {
            throw new Error(`${request.method} ${request.path}${request.query} → ${answer.status} ${answer.body.slice(0, 300)}: ${(error as Error).message}`, {
              cause: error,
            });
          }
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
    }),
    { numRuns: RUNS },
  );
  agent.destroy();
  const seconds = (Date.now() - started) / 1000;
  console.log(`admin bad inputs: ${sent} requests in ${seconds.toFixed(1)} s, by status ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  expect(sent).toBeGreaterThanOrEqual(10_000);
  // Every kind of answer was reached, so the requests got past authentication and validation often enough.
  for (const status of [200, 400, 401, 404, 405]) expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(100);
  expect(statuses.get(201) ?? 0).toBeGreaterThan(0);

  // Still up and well, and nothing failed unexpectedly.
  const keys = await fetch(`${server.adminUrl}/api/admin/keys`, { headers: { authorization: `Bearer ${token}` } });
  expect(keys.status).toBe(200);
  expect(server.logs.some((line) => /"(admin )?request failed"/.test(line))).toBe(false);
  expect(server.logs.join('\n')).not.toContain(token);
}, 240_000);
