import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { createAuditApi, summarizeReportBytes, type ReportSummary, type ReportToStore } from '@org/audit-server-core';
import type { ReportDetail, ReportDiff } from '../generated/types.gen.js';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { lynisSummary as summary } from '@org/test-support/lynis-summary';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createApp } from '../http/app.js';
import { openDatabase, type Database } from '../database/open.js';
import { AdminTokenRecord } from '../database/entities.js';
import { hostRecordId } from '../hosts/host-records.js';
import { createKey, listKeys, revokeKey } from '../secrets/license-keys.js';
import { createRateLimiter, type ClosableRateLimiter } from '../http/rate-limiter-store.js';
import { OrmReportStore } from '../reports/report-store.js';
import { OrmKeyStore } from '../secrets/license-key-store.js';
import { createAdminApi } from './api.js';
import { AdminTokenAuthenticator } from './auth.js';
import { createAdminToken, revokeAdminToken } from '../secrets/admin-tokens.js';
import { UNSCOPED } from '../people/scope.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(DIALECTS)('admin API on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let server: Server;
  let url: string;
  let token: string;
  let tokenId: string;
  let logs: string[];
  let rateLimiter: ClosableRateLimiter;
  let keyStore: OrmKeyStore;

  /** Serves the whole app (audit and admin API) on a free port, logging into `logs`. */
  async function serve(
    options: { failuresPer10Minutes?: number; authenticator?: AdminTokenAuthenticator; adminDatabase?: Database; webhookAllowPrivate?: boolean } = {},
  ): Promise<void> {
    rateLimiter = await createRateLimiter({
      perAddressPerMinute: 0,
      perKeyPerMinute: 0,
      failuresPer10Minutes: options.failuresPer10Minutes ?? 0,
      redisPrefix: 'test',
    });
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _encoding, done) => void (logs.push(String(chunk)), done()) }));
    keyStore = await OrmKeyStore.open(database);
    const audit = await createAuditApi({ keyStore, reportStore: new OrmReportStore(database), logger });
    const admin = await createAdminApi({
      database: options.adminDatabase ?? database,
      rateLimiter,
      logger,
      authenticator: options.authenticator,
      webhookAllowPrivate: options.webhookAllowPrivate,
    });
    server = createServer(createApp(audit, logger, { admin }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  beforeEach(async () => {
    logs = [];
    database = await openDatabase(location.location);
    ({ id: tokenId, token } = await createAdminToken(database, { label: 'tests' }));
  });
  afterEach(async () => {
    server?.close();
    server?.closeAllConnections();
    await keyStore?.close();
    await rateLimiter?.close();
    await database.close();
  });

  const call = (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const { token: given = token, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (given !== null) headers.set('authorization', `Bearer ${given}`);
    return fetch(`${url}${path}`, { ...rest, headers });
  };
  const postJson = (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  /** Asserts a problem+json answer and returns its `detail`. */
  async function expectProblem(response: Response, status: number): Promise<string> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await response.json()) as { type: string; title: string; status: number; detail: string };
    expect(problem).toMatchObject({ type: 'about:blank', status });
    expect(problem.title.length).toBeGreaterThan(0);
    return problem.detail;
  }

  /** Stores a report as an upload would, `minutesAgo` before now. */
  async function store(keyId: string, hostId: string, minutesAgo: number, reportSummary: ReportSummary | null = summary(), content = `hostname=${hostId}\n`) {
    const report: ReportToStore = {
      keyId,
      hostId,
      hostId2: `${hostId}-2`,
      receivedAt: new Date(Date.now() - minutesAgo * 60_000),
      encoding: 'raw',
      size: content.length,
      sha256: 'a'.repeat(64),
      content: Buffer.from(content),
      summary: reportSummary,
    };
    return (await new OrmReportStore(database).save(report)).id;
  }

  describe('authentication', () => {
    beforeEach(() => serve());

    it('refuses requests without a token, with a malformed, unknown or revoked one: 401 problem with WWW-Authenticate', async () => {
      const missing = await call('/api/admin/keys', { token: null });
      expect(missing.headers.get('www-authenticate')).toBe('Bearer');
      expect(await expectProblem(missing, 401)).toMatch(/admin token is required/);
      for (const wrong of ['not-a-token', `adm_${'0'.repeat(64)}`, token.toUpperCase()]) {
        const refused = await call('/api/admin/keys', { token: wrong });
        expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
        expect(await expectProblem(refused, 401)).toMatch(/unknown or revoked/);
      }
      expect((await call('/api/admin/keys')).status).toBe(200);
      expect(await revokeAdminToken(database, tokenId)).toBe(true);
      await expectProblem(await call('/api/admin/keys'), 401);
    });

    it("refuses a token whose role is below the operation's: 403 forbidden before validation, logged without the token", async () => {
      const viewer = await createAdminToken(database, { label: 'viewer', role: 'viewer' });
      expect((await call('/api/admin/keys', { token: viewer.token })).status).toBe(200);
      const refused = await call('/api/admin/keys', {
        token: viewer.token,
        method: 'POST',
        body: JSON.stringify({ label: 'x', unknownField: true }),
        headers: { 'content-type': 'application/json' },
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await refused.json()).toEqual({
        type: 'about:blank',
        title: 'Forbidden',
        status: 403,
        code: 'forbidden',
        detail: 'This operation requires the admin role; this token has the viewer role',
        requiredRole: 'admin',
        role: 'viewer',
      });
      expect(await listKeys(database)).toEqual([]);
      const line = logs.find((entry) => entry.includes('"admin request forbidden"'));
      expect(JSON.parse(line!)).toMatchObject({ level: 40, operation: 'createLicenseKey', role: 'viewer', requiredRole: 'admin' });
      expect(logs.join('')).not.toContain(viewer.token);
      // An operator may take day-to-day actions: past the role check, this unknown waiver is a 404.
      const operator = await createAdminToken(database, { role: 'operator' });
      await expectProblem(await call(`/api/admin/waivers/${UNKNOWN_ID}`, { token: operator.token, method: 'DELETE' }), 404);
      await expectProblem(await call(`/api/admin/waivers/${UNKNOWN_ID}`, { token: viewer.token, method: 'DELETE' }), 403);
    });

    it('checks the token before the parameters: an unauthenticated bad request learns nothing', async () => {
      await expectProblem(await call('/api/admin/hosts?limit=0', { token: null }), 401);
      await expectProblem(await call(`/api/admin/reports/${UNKNOWN_ID}`, { token: null }), 401);
    });

    it('records when a token was last used, at most once a minute', async () => {
      const lastUsed = async () => (await database.em.fork().findOneOrFail(AdminTokenRecord, { id: tokenId })).lastUsedAt ?? null;
      expect(await lastUsed()).toBeNull();
      const before = Date.now();
      expect((await call('/api/admin/keys')).status).toBe(200);
      const first = await lastUsed();
      expect(first!.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect((await call('/api/admin/keys')).status).toBe(200);
      expect(await lastUsed()).toEqual(first);
    });

    it('never logs a token, not even a refused one', async () => {
      await call('/api/admin/keys');
      await call('/api/admin/keys', { token: `adm_${'1'.repeat(64)}` });
      await call('/api/admin/hosts?limit=0');
      expect(logs.length).toBeGreaterThan(0);
      for (const line of logs) {
        expect(line).not.toContain(token);
        expect(line).not.toContain('1'.repeat(64));
        expect(line.toLowerCase()).not.toContain('authorization');
      }
    });
  });

  it('counts failed admin logins against the failure limit of the address', async () => {
    await serve({ failuresPer10Minutes: 2 });
    for (let i = 0; i < 2; i++) await expectProblem(await call('/api/admin/keys', { token: 'wrong' }), 401);
    const limited = await call('/api/admin/keys');
    expect(await expectProblem(limited, 429)).toMatch(/Too many requests/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  describe('while the database is unavailable', () => {
    /** A database that was open and is closed now: every query fails as it does when the server is down. */
    async function closedDatabase(): Promise<Database> {
      const closed = await openDatabase(location.location);
      await closed.close();
      return closed;
    }

    it('answers 503 with Retry-After when the token cannot be checked, never 401, and counts no failed login', async () => {
      const unreachable = new AdminTokenAuthenticator(await closedDatabase());
      let down = true;
      /** Checks tokens on the closed database until the outage ends, then on the real one. */
      class OutageAuthenticator extends AdminTokenAuthenticator {
        override authenticate(authorization: string | undefined) {
          return down ? unreachable.authenticate(authorization) : super.authenticate(authorization);
        }
      }
      await serve({ failuresPer10Minutes: 1, authenticator: new OutageAuthenticator(database) });
      const requests = 5;
      for (let i = 0; i < requests; i++) {
        const answer = await call('/api/admin/keys');
        expect(answer.headers.get('retry-after')).toBe('10');
        expect(answer.headers.get('www-authenticate')).toBeNull();
        const detail = await expectProblem(answer, 503);
        expect(detail).toBe('The database is unavailable; try again later');
      }
      const logged = logs.filter((line) => line.includes('"admin request failed: database unavailable"'));
      expect(logged).toHaveLength(requests);
      for (const line of logs) {
        expect(line).not.toContain('unauthorized');
        expect(line).not.toMatch(/"stack"|\\n\s+at /);
      }
      down = false; // the database is back: the address was never locked (the limit is one failure)
      expect((await call('/api/admin/keys')).status).toBe(200);
    });

    it("answers 503 with Retry-After when an operation's query fails because the database is unavailable", async () => {
      /** Accepts the test's token without the database, so that only the operation meets the outage. */
      class AcceptingAuthenticator extends AdminTokenAuthenticator {
        override authenticate() {
          return Promise.resolve({ tokenId, role: 'admin' as const, scope: UNSCOPED });
        }
      }
      await serve({ authenticator: new AcceptingAuthenticator(database), adminDatabase: await closedDatabase() });
      for (const answer of [await call('/api/admin/hosts'), await call('/api/admin/keys'), await postJson('/api/admin/keys', { label: 'x' })]) {
        expect(answer.headers.get('retry-after')).toBe('10');
        expect(await expectProblem(answer, 503)).toBe('The database is unavailable; try again later');
      }
      expect(logs.filter((line) => line.includes('"admin request failed: database unavailable"'))).toHaveLength(3);
    });
  });

  describe('routing and validation', () => {
    beforeEach(() => serve());

    it('answers an unknown admin path 404 and a wrong method 405, both problem+json', async () => {
      expect(await expectProblem(await call('/api/admin/nothing'), 404)).toBe('No such admin endpoint');
      await expectProblem(await call('/api/admin'), 404);
      const wrongMethod = await call('/api/admin/hosts', { method: 'DELETE' });
      expect(wrongMethod.headers.get('allow')).toBe('GET');
      expect(await expectProblem(wrongMethod, 405)).toMatch(/use GET/);
      expect((await call('/api/admin/keys', { method: 'PUT' })).headers.get('allow')).toBe('GET, POST');
    });

    it('refuses bad parameters with 400 and a detail naming the parameter', async () => {
      const cases: [string, RegExp][] = [
        ['/api/admin/hosts?limit=0', /^limit: must be >= 1/],
        ['/api/admin/hosts?limit=501', /^limit: must be <= 500/],
        ['/api/admin/hosts?limit=ten', /^limit: must be integer/],
        ['/api/admin/hosts?limit=1&limit=2', /^limit: must be integer/],
        ['/api/admin/hosts?offset=-1', /^offset: must be >= 0/],
        ['/api/admin/hosts?hostname=', /^hostname: must NOT have fewer than 1 characters/],
        ['/api/admin/hosts?keyId=42', /^keyId: must match format "uuid"/],
        ['/api/admin/hosts/not-an-id', /^hostRecordId: must match format "uuid"/],
        [`/api/admin/hosts/${UNKNOWN_ID}?historyLimit=1001`, /^historyLimit: must be <= 1000/],
        ['/api/admin/reports?hostRecordId=x', /^hostRecordId: must match format "uuid"/],
        ['/api/admin/reports/x/raw', /^reportId: must match format "uuid"/],
      ];
      for (const [path, detail] of cases) expect(await expectProblem(await call(path), 400), path).toMatch(detail);
    });

    it('refuses a path whose percent-encoding is malformed with 400, not 500', async () => {
      for (const path of ['/api/admin/keys/%/revoke', '/api/admin/hosts/%zz', '/api/admin/reports/%E0%A4%A/raw', '/api/admin/%ff']) {
        expect(await expectProblem(await call(path, { method: path.endsWith('revoke') ? 'POST' : 'GET' }), 400), path).toBe(
          'The path is not validly percent-encoded UTF-8',
        );
      }
      expect(logs.join('')).not.toContain('admin request failed');
    });

    it('refuses control characters in the host name filter, NUL included, and takes other text', async () => {
      for (const character of ['%00', '%01', '%09', '%0A', '%0D', '%1B', '%1F', '%7F']) {
        const path = `/api/admin/hosts?hostname=web${character}01`;
        expect(await expectProblem(await call(path), 400), path).toMatch(/^hostname: must match pattern/);
      }
      for (const text of ['%C3%A9t%C3%A9', '%E2%80%8B', 'a%27%3B%20drop%20table%20host%3B--', '%5C']) {
        expect((await call(`/api/admin/hosts?hostname=${text}`)).status, text).toBe(200);
      }
    });

    it('refuses huge, negative and fractional numbers with 400 naming the parameter, never clamping them', async () => {
      const cases: [string, RegExp][] = [
        ['/api/admin/hosts?offset=1000000000000000000000', /^offset: must be <= 1000000000$/],
        ['/api/admin/hosts?offset=1e21', /^offset: must be <= 1000000000$/],
        ['/api/admin/hosts?offset=1000000001', /^offset: must be <= 1000000000$/],
        ['/api/admin/reports?offset=99999999999999999999999999', /^offset: must be <= 1000000000$/],
        ['/api/admin/reports?offset=-1', /^offset: must be >= 0$/],
        ['/api/admin/hosts?offset=1.5', /^offset: must be integer$/],
        ['/api/admin/hosts?offset=1e400', /^offset: must be (integer|<= 1000000000)$/],
        ['/api/admin/hosts?offset=NaN', /^offset: must be integer$/],
        ['/api/admin/hosts?limit=99999999999999999999', /^limit: must be <= 500$/],
        ['/api/admin/reports?limit=-5', /^limit: must be >= 1$/],
        ['/api/admin/reports?limit=2.5', /^limit: must be integer$/],
        ['/api/admin/hosts?limit=Infinity', /^limit: must be (integer|<= 500)$/],
        [`/api/admin/hosts/${UNKNOWN_ID}?historyLimit=1000000000000000000000`, /^historyLimit: must be <= 1000$/],
        [`/api/admin/hosts/${UNKNOWN_ID}?historyLimit=-1`, /^historyLimit: must be >= 1$/],
        [`/api/admin/hosts/${UNKNOWN_ID}?historyLimit=0.5`, /^historyLimit: must be integer$/],
      ];
      for (const [path, detail] of cases) expect(await expectProblem(await call(path), 400), path).toMatch(detail);
      expect(await (await call('/api/admin/hosts?offset=1000000000')).json()).toMatchObject({ offset: 1000000000, items: [] });
    });

    it('sends every filter value to the database as a bound parameter, never inside the SQL text', async () => {
      const { id: keyId } = await createKey(database, { label: 'k' });
      await store(keyId, 'h-1', 1, summary({ hostname: "o'brien-01" }));
      const queries: { sql: string; bindings: unknown[] }[] = [];
      database.em.getKnex().on('query', (query: { sql: string; bindings?: unknown[] }) => queries.push({ sql: query.sql, bindings: query.bindings ?? [] }));
      const hosts = await call(`/api/admin/hosts?hostname=${encodeURIComponent("O'BRIEN")}&hostId=h-1&keyId=${keyId}&limit=7&offset=0`);
      expect(await hosts.json()).toMatchObject({ total: 1, items: [{ hostname: "o'brien-01" }] });
      const reports = await call(`/api/admin/reports?hostRecordId=${hostRecordId(keyId, 'h-1')}&keyId=${keyId}&limit=9&offset=3`);
      expect(await reports.json()).toMatchObject({ total: 1, items: [], limit: 9, offset: 3 });
      const history = await call(`/api/admin/hosts/${hostRecordId(keyId, 'h-1')}?historyLimit=11`);
      expect(await history.json()).toMatchObject({ hardeningHistory: [expect.anything()] });

      const filtered = queries.filter((query) => /\b(host|report)\b/.test(query.sql) && !/admin_token/.test(query.sql));
      expect(filtered.length).toBeGreaterThanOrEqual(5);
      for (const { sql } of filtered) {
        for (const value of ['brien', 'h-1', keyId, hostRecordId(keyId, 'h-1')]) expect(sql, sql).not.toContain(value);
      }
      const bound = filtered.flatMap((query) => query.bindings);
      expect(bound).toEqual(expect.arrayContaining(["%O'BRIEN%", 'h-1', keyId, hostRecordId(keyId, 'h-1'), 7, 9, 3, 11]));
    });

    it('refuses bad bodies: unknown fields, wrong types, invalid JSON, too large, not JSON', async () => {
      expect(await expectProblem(await postJson('/api/admin/keys', { name: 'x' }), 400)).toBe('name: is not a known field');
      expect(await expectProblem(await postJson('/api/admin/keys', { expiresAt: 'tomorrow' }), 400)).toMatch(/^expiresAt: must match format "date-time"/);
      expect(await expectProblem(await postJson('/api/admin/keys', { expiresAt: '2001-01-01T00:00:00Z' }), 400)).toMatch(/already past/);
      expect(await expectProblem(await postJson('/api/admin/keys', [1]), 400)).toMatch(/must be object/);
      expect(await expectProblem(await postJson(`/api/admin/keys/${UNKNOWN_ID}/rotate`, { graceSeconds: -1 }), 400)).toMatch(/^graceSeconds: must be >= 0/);
      const malformed = await call('/api/admin/keys', { method: 'POST', body: '{"label":', headers: { 'content-type': 'application/json' } });
      expect(await expectProblem(malformed, 400)).toBe('The body is not valid JSON');
      await expectProblem(await postJson('/api/admin/keys', { label: 'x'.repeat(20_000) }), 413);
      const form = await call('/api/admin/keys', { method: 'POST', body: new URLSearchParams({ label: 'x' }) });
      expect(await expectProblem(form, 415)).toBe('Send the body as application/json');
      expect((await call('/api/admin/keys', { method: 'GET' })).status).toBe(200); // and the server is still fine
    });
  });

  describe('hosts and reports', () => {
    let keyA: string;
    let keyB: string;
    beforeEach(async () => {
      keyA = (await createKey(database, { label: 'a' })).id;
      keyB = (await createKey(database, { label: 'b' })).id;
      await serve();
    });

    it('lists hosts most recently seen first, one page at a time, with the total', async () => {
      await store(keyA, 'host-old', 30, summary({ hostname: 'db-01' }));
      await store(keyA, 'host-new', 10, summary({ hostname: 'web-01' }));
      await store(keyB, 'host-mid', 20, summary({ hostname: 'web-02' }));
      const all = (await (await call('/api/admin/hosts')).json()) as { items: { hostId: string }[]; total: number; limit: number; offset: number };
      expect(all).toMatchObject({ total: 3, limit: 50, offset: 0 });
      expect(all.items.map((host) => host.hostId)).toEqual(['host-new', 'host-mid', 'host-old']);
      const page = (await (await call('/api/admin/hosts?limit=1&offset=1')).json()) as typeof all;
      expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
      expect(page.items.map((host) => host.hostId)).toEqual(['host-mid']);
      const beyond = (await (await call('/api/admin/hosts?offset=10')).json()) as typeof all;
      expect(beyond).toMatchObject({ total: 3, items: [] });
    });

    it('shows a host as its newest report describes it, dates as ISO strings', async () => {
      await store(keyA, 'host-1', 20, summary({ hardeningIndex: 50 }));
      const newest = await store(keyA, 'host-1', 5, summary({ hardeningIndex: 61, lynisVersion: '3.1.0' }));
      const response = await call('/api/admin/hosts');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const { items } = (await response.json()) as { items: Record<string, unknown>[] };
      expect(items).toEqual([
        {
          id: hostRecordId(keyA, 'host-1'),
          keyId: keyA,
          hostId: 'host-1',
          hostId2: 'host-1-2',
          hostname: 'web-01',
          os: 'Debian GNU/Linux 12 (bookworm)',
          lynisVersion: '3.1.0',
          firstSeen: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          lastSeen: expect.stringMatching(/Z$/),
          reportCount: 2,
          latestReportId: newest,
          latestHardeningIndex: 61,
          latestWarningCount: 1,
          latestSuggestionCount: 2,
          groups: [],
          tags: [],
          customerName: null,
          hostnameAlias: null,
          compliance: 'unknown',
          identityChange: null,
          // Active since its first report; no machineid in these reports.
          state: 'active',
          stateSince: items[0]!['firstSeen'],
          stateReason: 'reporting',
          machineId: null,
          autoPurge: false,
        },
      ]);
      expect(Date.parse(items[0]!['lastSeen'] as string) - Date.parse(items[0]!['firstSeen'] as string)).toBeCloseTo(15 * 60_000, -3);
    });

    it('filters hosts by host name (case-insensitive substring, % and _ taken literally), key and hostid', async () => {
      await store(keyA, 'h1', 1, summary({ hostname: 'Web-01.example.org' }));
      await store(keyA, 'h2', 2, summary({ hostname: 'db-01.example.org' }));
      await store(keyB, 'h1', 3, summary({ hostname: 'web_100%' }));
      await store(keyB, 'h4', 4, null);
      const hostIds = async (query: string) =>
        (await (await call(`/api/admin/hosts?${query}`)).json()) as { items: { hostId: string; keyId: string }[]; total: number };
      expect((await hostIds('hostname=WEB')).items.map((h) => h.hostId)).toEqual(['h1', 'h1']);
      expect((await hostIds('hostname=EXAMPLE.org')).total).toBe(2);
      expect((await hostIds(`hostname=${encodeURIComponent('_1')}`)).total).toBe(1);
      expect((await hostIds(`hostname=${encodeURIComponent('0%')}`)).total).toBe(1);
      expect((await hostIds(`hostname=${encodeURIComponent('%')}`)).total).toBe(1);
      expect((await hostIds(`hostname=${encodeURIComponent('_')}`)).total).toBe(1);
      expect((await hostIds(`hostname=${encodeURIComponent('b_0')}`)).total).toBe(0); // "_" would match "b-0" of Web-01 as a wildcard
      expect((await hostIds(`hostname=${encodeURIComponent('\\')}`)).total).toBe(0);
      expect((await hostIds('hostname=nowhere')).total).toBe(0);
      expect((await hostIds(`keyId=${keyB}`)).items.map((h) => h.hostId)).toEqual(['h1', 'h4']);
      expect((await hostIds('hostId=h1')).items.map((h) => h.keyId)).toEqual([keyA, keyB]);
      expect((await hostIds(`hostId=h1&keyId=${keyB}&hostname=web`)).total).toBe(1);
    });

    it('gives a host with the hardening index of its newest reports, newest first', async () => {
      const ids = [];
      for (const [minutesAgo, index] of [
        [30, 40],
        [20, null],
        [10, 55],
      ] as const) {
        ids.push(await store(keyA, 'host-1', minutesAgo, summary({ hardeningIndex: index })));
      }
      const detail = (await (await call(`/api/admin/hosts/${hostRecordId(keyA, 'host-1')}`)).json()) as { hardeningHistory: unknown[]; reportCount: number };
      expect(detail.reportCount).toBe(3);
      expect(detail.hardeningHistory).toEqual([
        { reportId: ids[2], receivedAt: expect.stringMatching(/Z$/), hardeningIndex: 55 },
        { reportId: ids[1], receivedAt: expect.stringMatching(/Z$/), hardeningIndex: null },
        { reportId: ids[0], receivedAt: expect.stringMatching(/Z$/), hardeningIndex: 40 },
      ]);
      const limited = (await (await call(`/api/admin/hosts/${hostRecordId(keyA, 'host-1')}?historyLimit=1`)).json()) as typeof detail;
      expect(limited.hardeningHistory).toHaveLength(1);
      expect(await expectProblem(await call(`/api/admin/hosts/${UNKNOWN_ID}`), 404)).toBe(`No host with id ${UNKNOWN_ID}`);
    });

    it('lists reports newest first, filtered by host and key, without their content', async () => {
      const old = await store(keyA, 'h1', 30);
      const other = await store(keyB, 'h1', 20);
      const recent = await store(keyA, 'h1', 10);
      const list = async (query = '') => (await (await call(`/api/admin/reports${query}`)).json()) as { items: Record<string, unknown>[]; total: number };
      expect((await list()).items.map((r) => r['id'])).toEqual([recent, other, old]);
      expect((await list(`?hostRecordId=${hostRecordId(keyA, 'h1')}`)).items.map((r) => r['id'])).toEqual([recent, old]);
      expect((await list(`?keyId=${keyB}`)).items.map((r) => r['id'])).toEqual([other]);
      const page = await list('?limit=1&offset=2');
      expect(page.total).toBe(3);
      expect(page.items[0]).toEqual({
        id: old,
        hostRecordId: hostRecordId(keyA, 'h1'),
        keyId: keyA,
        hostId: 'h1',
        hostId2: 'h1-2',
        receivedAt: expect.stringMatching(/Z$/),
        encoding: 'raw',
        size: 12,
        sha256: 'a'.repeat(64),
        hostname: 'web-01',
        lynisVersion: '3.0.8',
        hardeningIndex: 56,
        warningCount: 1,
        suggestionCount: 2,
      });
    });

    it('gives a report with the summary read from the stored report, null for a report that is not a Lynis report', async () => {
      const lynis = await store(keyA, 'h1', 2, summarizeReportBytes(lynisCapture.report), lynisCapture.report.toString());
      const other = await store(keyA, 'h1', 1, null, 'arbitrary bytes');
      const detail = (await (await call(`/api/admin/reports/${lynis}`)).json()) as ReportDetail;
      expect(detail).toMatchObject({ id: lynis, hostname: 'localhost', hardeningIndex: 56, warningCount: 2, suggestionCount: 45 });
      expect(detail.summary).toMatchObject({ hostname: 'localhost', lynisVersion: '3.0.8', hardeningIndex: 56, testsPerformed: 235 });
      expect(detail.summary!.warnings.map((warning) => warning.testId)).toEqual(['PKGS-7392', 'LOGG-2138']);
      expect(detail.summary!.suggestions).toHaveLength(45);
      const plain = (await (await call(`/api/admin/reports/${other}`)).json()) as Record<string, unknown>;
      expect(plain).toMatchObject({ summary: null, hostname: null, hardeningIndex: null, warningCount: null, suggestionCount: null });
      expect(await expectProblem(await call(`/api/admin/reports/${UNKNOWN_ID}`), 404)).toBe(`No report with id ${UNKNOWN_ID}`);
    });

    it('tells which token the request is signed in with: its id, label, prefix and role, never the token', async () => {
      const response = await call('/api/admin/session');
      expect(response.status).toBe(200);
      const body = await response.text();
      expect(JSON.parse(body)).toEqual({
        kind: 'token',
        tokenId,
        label: 'tests',
        prefix: token.slice(0, 12),
        role: 'admin',
        scope: { customers: [], groups: [] },
      });
      const operator = await createAdminToken(database, { role: 'operator' });
      expect(await (await call('/api/admin/session', { token: operator.token })).json()).toMatchObject({ tokenId: operator.id, role: 'operator' });
      expect(body).not.toContain(token);
      await expectProblem(await call('/api/admin/session', { token: null }), 401);
    });

    it('gives the raw report as the stored bytes, text/plain', async () => {
      const content = '# Lynis Report\nlicense_key=[redacted]\nhostname=h\u00e9\n';
      const id = await store(keyA, 'h1', 1, summary(), content);
      const raw = await call(`/api/admin/reports/${id}/raw`);
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(Buffer.from(await raw.arrayBuffer())).toEqual(Buffer.from(content));
      await expectProblem(await call(`/api/admin/reports/${UNKNOWN_ID}/raw`), 404);
    });

    it('marks every answer as not to be sniffed, cached or run, and the raw report as a download', async () => {
      const id = await store(keyA, 'h1', 1, summary(), '<script>alert(1)</script>\nhostname=h1\n');
      const answers = {
        json: await call('/api/admin/hosts'),
        raw: await call(`/api/admin/reports/${id}/raw`),
        export: await call('/api/admin/exports/hosts?format=csv'),
        problem: await call(`/api/admin/reports/${UNKNOWN_ID}`),
        unauthorized: await call('/api/admin/hosts', { token: null }),
        unknownPath: await call('/api/admin/nothing'),
      };
      for (const [name, answer] of Object.entries(answers)) {
        await answer.arrayBuffer();
        expect([name, answer.headers.get('x-content-type-options')]).toEqual([name, 'nosniff']);
        expect([name, answer.headers.get('cache-control')]).toEqual([name, 'no-store']);
        expect([name, answer.headers.get('content-security-policy')]).toEqual([name, "default-src 'none'; frame-ancestors 'none'"]);
      }
      expect(answers.raw.headers.get('content-disposition')).toBe(`attachment; filename="report-${id}.txt"`);
    });

    it('refuses to serve a report whose stored bytes were damaged, saying so, and logs it', async () => {
      const id = await store(keyA, 'h1', 1, summary(), `hostname=h1\n${'os=Linux\n'.repeat(50)}`);
      // Another report's compressed bytes in its place: they decode, but to other bytes.
      const other = await store(keyA, 'h2', 1, summary(), `hostname=h2\n${'os=BSD\n'.repeat(50)}`);
      await database.em
        .getKnex()('report')
        .where('id', id)
        .update({ content: database.em.getKnex()('report').select('content').where('id', other) });
      for (const path of [`/api/admin/reports/${id}/raw`, `/api/admin/reports/${id}`, `/api/admin/reports/${id}/diff?against=${id}`]) {
        const response = await call(path);
        const body = await response.text();
        expect(response.status).toBe(500);
        expect(JSON.parse(body).detail).toBe(`Report ${id} is damaged in the database (its bytes do not match their SHA-256); its bytes are not served`);
        expect(body).not.toContain('BSD');
      }
      expect(logs.some((line) => line.includes('admin request failed') && line.includes(`Report ${id} is damaged`))).toBe(true);
    });

    it("tells what changed since the host's previous report, or against another report of the same host", async () => {
      const lynis = (index: number, warnings: string[]) =>
        `lynis_version=3.0.8\nhostname=web-01\nhardening_index=${index}\n${warnings.map((w) => `warning[]=${w}|text of ${w}|-|-|\n`).join('')}`;
      const first = await store(keyA, 'h1', 30, summary(), lynis(64, ['AUTH-9286']));
      const second = await store(keyA, 'h1', 20, summary(), lynis(61, ['AUTH-9286', 'FIRE-4512']));
      const third = await store(keyA, 'h1', 10, summary(), lynis(70, []));
      const other = await store(keyA, 'h2', 5, summary(), lynis(50, []));
      const diff = async (path: string) => {
        const response = await call(path);
        expect(response.status).toBe(200);
        return (await response.json()) as ReportDiff;
      };
      const latest = await diff(`/api/admin/reports/${third}/diff`);
      expect(latest).toMatchObject({ beforeReportId: second, afterReportId: third, changes: { hardeningIndex: { before: 61, after: 70 } } });
      expect(latest.changes!.warnings.resolved.map((w) => w.testId)).toEqual(['AUTH-9286', 'FIRE-4512']);
      // Against an earlier report, in either order: the earlier one is always `before`.
      for (const path of [`/api/admin/reports/${second}/diff?against=${first}`, `/api/admin/reports/${first}/diff?against=${second}`]) {
        const changes = await diff(path);
        expect(changes).toMatchObject({ beforeReportId: first, afterReportId: second, changes: { hardeningIndex: { before: 64, after: 61 } } });
        expect(changes.changes!.warnings.added).toEqual([{ testId: 'FIRE-4512', text: 'text of FIRE-4512', details: null, solution: null }]);
      }
      expect(await diff(`/api/admin/reports/${first}/diff`)).toEqual({ beforeReportId: null, afterReportId: first, changes: null });
      expect(await expectProblem(await call(`/api/admin/reports/${third}/diff?against=${other}`), 400)).toMatch(/another host/);
      await expectProblem(await call(`/api/admin/reports/${third}/diff?against=${UNKNOWN_ID}`), 404);
      await expectProblem(await call(`/api/admin/reports/${UNKNOWN_ID}/diff`), 404);
      await expectProblem(await call(`/api/admin/reports/${third}/diff?against=x`), 400);
    });
  });

  describe('license keys', () => {
    beforeEach(() => serve());

    const check = async (licensekey: string) =>
      (await fetch(`${url}/api/audit/license/`, { method: 'POST', body: new URLSearchParams({ licensekey }) })).text();

    it('creates a key that works at once, shown once, and lists it without the key', async () => {
      const created = await postJson('/api/admin/keys', { label: 'web servers', expiresAt: '2100-01-01T00:00:00Z' });
      expect(created.status).toBe(201);
      const { key, licenseKey } = (await created.json()) as { key: Record<string, unknown>; licenseKey: string };
      expect(key).toMatchObject({
        label: 'web servers',
        state: 'valid',
        prefix: licenseKey.slice(0, 8),
        expiresAt: '2100-01-01T00:00:00.000Z',
        lastUploadAt: null,
      });
      await keyStore.refresh();
      expect(await check(licenseKey)).toBe('Response 100');
      const listed = await (await call('/api/admin/keys')).text();
      expect(JSON.parse(listed)).toEqual({ items: [key] });
      expect(listed).not.toContain(licenseKey);
      expect(logs.join('')).not.toContain(licenseKey);
      const bare = (await (await call('/api/admin/keys', { method: 'POST' })).json()) as { key: { label: unknown; expiresAt: unknown } };
      expect(bare.key).toMatchObject({ label: null, expiresAt: null });
    });

    it('revokes a key (twice changes nothing); an unknown id is 404', async () => {
      const { id, key } = await createKey(database);
      const revoked = await call(`/api/admin/keys/${id}/revoke`, { method: 'POST' });
      expect(revoked.status).toBe(200);
      expect(await revoked.json()).toMatchObject({ id, state: 'revoked' });
      await keyStore.refresh();
      expect(await check(key)).toBe('Response 500');
      expect((await call(`/api/admin/keys/${id}/revoke`, { method: 'POST' })).status).toBe(200);
      expect(await expectProblem(await call(`/api/admin/keys/${UNKNOWN_ID}/revoke`, { method: 'POST' }), 404)).toBe(`No license key with id ${UNKNOWN_ID}`);
    });

    it('rotates a key: new key at once, old one until the grace period ends; 404 unknown, 409 revoked', async () => {
      const { id, key: oldKey } = await createKey(database, { label: 'fleet' });
      const before = Date.now();
      const rotated = await postJson(`/api/admin/keys/${id}/rotate`, { graceSeconds: 3600 });
      expect(rotated.status).toBe(201);
      const body = (await rotated.json()) as {
        key: { id: string; label: string };
        licenseKey: string;
        previous: { id: string; expiresAt: string; state: string };
      };
      expect(body.key.label).toBe('fleet');
      expect(body.previous).toMatchObject({ id, state: 'valid' });
      expect(Date.parse(body.previous.expiresAt) - before).toBeGreaterThanOrEqual(3600_000 - 1000);
      expect(Date.parse(body.previous.expiresAt) - before).toBeLessThanOrEqual(3600_000 + 5000);
      await keyStore.refresh();
      expect([await check(body.licenseKey), await check(oldKey)]).toEqual(['Response 100', 'Response 100']);

      const byDefault = (await (await call(`/api/admin/keys/${body.key.id}/rotate`, { method: 'POST' })).json()) as typeof body;
      expect(Date.parse(byDefault.previous.expiresAt) - Date.now()).toBeGreaterThan(86_400_000 - 10_000);
      await revokeKey(database, byDefault.key.id);
      expect(await expectProblem(await postJson(`/api/admin/keys/${byDefault.key.id}/rotate`, {}), 409)).toMatch(/already revoked or expired/);
      expect(await expectProblem(await postJson(`/api/admin/keys/${UNKNOWN_ID}/rotate`, {}), 404)).toMatch(/no key with id/i);
      expect(logs.join('')).not.toContain(body.licenseKey);
    });

    it("sets, clears and moves a key's expiry, applied by the key checks; 404 unknown, 400 bad date, 409 revoked", async () => {
      const { id, key } = await createKey(database, { newHostsPerDay: 7 });
      const patch = (keyId: string, body: unknown) =>
        call(`/api/admin/keys/${keyId}`, { method: 'PATCH', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const expired = await patch(id, { expiresAt: '2020-01-01T00:00:00Z' });
      expect(expired.status).toBe(200);
      expect(await expired.json()).toMatchObject({ id, state: 'expired', expiresAt: '2020-01-01T00:00:00.000Z', newHostsPerDay: 7 });
      await keyStore.refresh();
      expect(await check(key)).toBe('Response 500');

      expect(await (await patch(id, { expiresAt: null })).json()).toMatchObject({ state: 'valid', expiresAt: null, newHostsPerDay: 7 });
      await keyStore.refresh();
      expect(await check(key)).toBe('Response 100');

      expect(await (await patch(id, { expiresAt: '2020-01-01T00:00:00Z' })).json()).toMatchObject({ state: 'expired' });
      expect(await (await patch(id, { expiresAt: '2100-06-01T12:00:00+02:00' })).json()).toMatchObject({ state: 'valid' });
      await keyStore.refresh();
      expect(await check(key)).toBe('Response 100');
      const listed = (await (await call('/api/admin/keys')).json()) as { items: { id: string; expiresAt: string }[] };
      expect(listed.items.find((k) => k.id === id)?.expiresAt).toBe('2100-06-01T10:00:00.000Z');

      expect(await (await patch(id, { maxHosts: 3 })).json()).toMatchObject({ expiresAt: '2100-06-01T10:00:00.000Z', maxHosts: 3 }); // left out: unchanged
      expect(await expectProblem(await patch(UNKNOWN_ID, { expiresAt: null }), 404)).toBe(`No license key with id ${UNKNOWN_ID}`);
      expect(await expectProblem(await patch(id, { expiresAt: 'next tuesday' }), 400)).toMatch(/expiresAt/);
      await revokeKey(database, id);
      expect(await expectProblem(await patch(id, { expiresAt: null }), 409)).toMatch(/is revoked/);
      expect(await (await patch(id, { maxHosts: 4 })).json()).toMatchObject({ state: 'revoked', maxHosts: 4 }); // quotas still change
    });
  });
  describe('webhook subscriptions', () => {
    const PRIVATE_URLS = [
      'http://127.0.0.1:9/hook',
      'http://10.0.0.5/hook',
      'https://[::1]/hook',
      'http://169.254.169.254/latest',
      'http://localhost:8080/',
      'https://[::ffff:192.168.1.1]/',
    ];

    it('refuses a URL naming a private, loopback or link-local host when created or changed, saying why', async () => {
      await serve();
      for (const url of PRIVATE_URLS) {
        expect(await expectProblem(await postJson('/api/admin/webhooks', { url, events: ['report.stored'] }), 400), url).toMatch(
          /^url: .* (not a public address \(.+\)|loopback name); .*--webhook-allow-private/,
        );
      }
      const created = await postJson('/api/admin/webhooks', { url: 'https://hooks.example.org/audit', events: ['report.stored'] });
      expect(created.status).toBe(201);
      const { webhook } = (await created.json()) as { webhook: { id: string } };
      const changed = await call(`/api/admin/webhooks/${webhook.id}`, {
        method: 'PUT',
        body: JSON.stringify({ url: 'http://192.168.0.10/', events: ['report.stored'] }),
        headers: { 'content-type': 'application/json' },
      });
      expect(await expectProblem(changed, 400)).toMatch(/192\.168\.0\.10 is not a public address \(private\)/);
      expect((await (await call('/api/admin/webhooks')).json()).items.map((item: { url: string }) => item.url)).toEqual(['https://hooks.example.org/audit']);
    });

    it('knows the contract format of webhook URLs: a URL holding a space is refused naming the field, no warning printed', async () => {
      const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      try {
        await serve();
        const refused = await postJson('/api/admin/webhooks', { url: 'https://hooks.example.org/a b', events: ['report.stored'] });
        expect(await expectProblem(refused, 400)).toMatch(/url/);
        const unicode = await postJson('/api/admin/webhooks', { url: 'https://bücher.example.org/hook', events: ['report.stored'] });
        expect(unicode.status).toBe(201);
        expect(warnings.mock.calls.flat().join(' ')).not.toMatch(/unknown format/);
      } finally {
        warnings.mockRestore();
      }
    });

    it('takes those URLs when the server allows private receivers', async () => {
      await serve({ webhookAllowPrivate: true });
      for (const url of PRIVATE_URLS) expect((await postJson('/api/admin/webhooks', { url, events: ['report.stored'] })).status, url).toBe(201);
    });
  });
});
