// The admin client against a tiny local server that answers whatever a test tells it to, and records what it got.
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStubServer, unusedPort, type StubServer } from '@org/test-support/stub-server';
import { createAdminClient, type AdminClientOptions } from './admin-client.js';
import { ConflictError, InvalidAdminTokenError, NetworkError, NotFoundError, RateLimitedError, RequestRejectedError, ServerError } from './errors.js';
import type { HostPage, LicenseKeyInfo, NewLicenseKey } from './generated/types.gen.js';

interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
}
interface Reply {
  status: number;
  body: string;
  type?: string;
  headers?: Record<string, string>;
}

const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const KEY_INFO: LicenseKeyInfo = {
  id: ID,
  label: 'web servers',
  prefix: '3f9a2c1e',
  state: 'valid',
  createdAt: '2026-11-01T08:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
  lastUploadAt: null,
  newHostsPerDay: null,
  maxHosts: null,
};
const EMPTY_PAGE: HostPage = { items: [], total: 0, limit: 50, offset: 0 };

let stub: StubServer;
let reply: Reply;

const json = (status: number, value: unknown): Reply => ({ status, body: JSON.stringify(value), type: 'application/json' });
const problem = (status: number, title: string, detail?: string): Reply => ({
  status,
  body: JSON.stringify({ type: 'about:blank', title, status, ...(detail === undefined ? {} : { detail }) }),
  type: 'application/problem+json',
});

/** What the stub got, its URL split into path and query. */
const received = (): Received[] =>
  stub.requests.map((request) => {
    const url = new URL(request.url, 'http://stub');
    return { method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: request.headers, body: request.body.toString() };
  });

beforeAll(async () => {
  stub = await startStubServer(() => ({ status: reply.status, body: reply.body, headers: { 'content-type': reply.type ?? 'text/plain', ...reply.headers } }));
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.requests.length = 0;
  reply = json(200, EMPTY_PAGE);
});

const client = (options: Partial<AdminClientOptions> = {}) => createAdminClient({ baseUrl: stub.url, token: TOKEN, ...options });

describe('requests', () => {
  it('listHosts sends the bearer token and the filters as query parameters, and resolves with the page', async () => {
    const page: HostPage = { ...EMPTY_PAGE, limit: 10, offset: 20 };
    reply = json(200, page);
    await expect(client().listHosts({ hostname: 'web', keyId: ID, hostId: 'abc', limit: 10, offset: 20 })).resolves.toEqual(page);
    expect(received()).toEqual([
      expect.objectContaining({ method: 'GET', path: '/api/admin/hosts', query: { hostname: 'web', keyId: ID, hostId: 'abc', limit: '10', offset: '20' } }),
    ]);
    expect(received()[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('listHosts sends the group, tag, OS, finding and last-seen filters and the sort order', async () => {
    const query = {
      group: 'web servers',
      tag: 'production',
      os: 'Debian GNU/Linux 12 (bookworm)',
      finding: 'PKGS-7392',
      findingKind: 'warning',
      seenBefore: '2026-11-15T00:00:00.000Z',
      sort: 'hardeningIndex',
      order: 'asc',
    } as const;
    await client().listHosts(query);
    expect(received()).toEqual([expect.objectContaining({ method: 'GET', path: '/api/admin/hosts', query })]);
  });

  it('getOverview sends staleDays; listFindings sends kind, testId and paging', async () => {
    reply = json(200, { staleDays: 14 });
    await expect(client().getOverview({ staleDays: 14 })).resolves.toEqual({ staleDays: 14 });
    reply = json(200, EMPTY_PAGE);
    await expect(client().listFindings({ kind: 'suggestion', testId: 'SSH-7408', limit: 5, offset: 10 })).resolves.toEqual(EMPTY_PAGE);
    await client().getOverview();
    expect(received().map(({ method, path, query }) => ({ method, path, query }))).toEqual([
      { method: 'GET', path: '/api/admin/overview', query: { staleDays: '14' } },
      { method: 'GET', path: '/api/admin/findings', query: { kind: 'suggestion', testId: 'SSH-7408', limit: '5', offset: '10' } },
      { method: 'GET', path: '/api/admin/overview', query: {} },
    ]);
    expect(received().every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('leaves out query parameters that are not given, and keeps the path a server is mounted under', async () => {
    await client({ baseUrl: `${stub.url}/collector/` }).listReports({ hostRecordId: ID });
    await client().listHosts();
    expect(received().map(({ path, query }) => ({ path, query }))).toEqual([
      { path: '/collector/api/admin/reports', query: { hostRecordId: ID } },
      { path: '/api/admin/hosts', query: {} },
    ]);
  });

  it.each([
    ['getHost', (c: ReturnType<typeof client>) => c.getHost(ID, { historyLimit: 5 }), `/api/admin/hosts/${ID}`, { historyLimit: '5' }],
    ['getReport', (c: ReturnType<typeof client>) => c.getReport(ID), `/api/admin/reports/${ID}`, {}],
    ['listLicenseKeys', (c: ReturnType<typeof client>) => c.listLicenseKeys(), '/api/admin/keys', {}],
  ] as const)('%s sends GET %s', async (_name, call, path, query) => {
    reply = json(200, { items: [] });
    await expect(call(client())).resolves.toEqual({ items: [] });
    expect(received()).toEqual([expect.objectContaining({ method: 'GET', path, query, body: '' })]);
    expect(received()[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("changes a host's life: decommission, reactivate, merge, bulk state change and delete, each as the contract says", async () => {
    const OTHER = '1f8fad5b-d9cb-469f-a165-70867728950e';
    reply = json(200, { id: ID, state: 'decommissioned' });
    await expect(client().decommissionHost(ID)).resolves.toEqual({ id: ID, state: 'decommissioned' });
    await client().reactivateHost(ID);
    await client().mergeHosts(ID, OTHER);
    reply = json(200, { changed: 1, hosts: 2 });
    await expect(client().changeHostStates({ action: 'reactivate', hosts: { filters: { group: 'web', state: 'decommissioned' } } })).resolves.toEqual({
      changed: 1,
      hosts: 2,
    });
    reply = { status: 204, body: '' };
    await expect(client().deleteHost(ID)).resolves.toBeUndefined();
    expect(received().map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: `/api/admin/hosts/${ID}/decommission`, body: '' },
      { method: 'POST', path: `/api/admin/hosts/${ID}/reactivate`, body: '' },
      { method: 'POST', path: `/api/admin/hosts/${ID}/merge`, body: JSON.stringify({ hostRecordId: OTHER }) },
      {
        method: 'POST',
        path: '/api/admin/hosts/bulk-state',
        body: JSON.stringify({ action: 'reactivate', hosts: { filters: { group: 'web', state: 'decommissioned' } } }),
      },
      { method: 'DELETE', path: `/api/admin/hosts/${ID}`, body: '' },
    ]);
    // A delete the server refuses is not taken for done.
    reply = problem(403, 'Forbidden', 'requires the admin role');
    await expect(client().deleteHost(ID)).rejects.toThrow(/requires the admin role/);
  });

  it('puts an id into the path encoded, so it cannot reach another route', async () => {
    reply = problem(404, 'Not Found');
    await client()
      .getReport('../keys')
      .catch(() => {});
    expect(received()[0]!.path).toBe('/api/admin/reports/..%2Fkeys');
  });

  it('getRawReport resolves with the text as sent', async () => {
    const text = '# Lynis Report\nlicense_key=[redacted]\nhardening_index=56\n';
    reply = { status: 200, body: text, type: 'text/plain; charset=utf-8' };
    await expect(client().getRawReport(ID)).resolves.toBe(text);
    expect(received()[0]).toMatchObject({ method: 'GET', path: `/api/admin/reports/${ID}/raw` });
  });

  it('createLicenseKey POSTs the request as JSON and resolves with the 201 answer', async () => {
    const created: NewLicenseKey = { key: KEY_INFO, licenseKey: '3f9a2c1e-5b7d4e8f-0a1b2c3d-4e5f6a7b-8c9d0e1f-2a3b4c5d' };
    reply = json(201, created);
    await expect(client().createLicenseKey({ label: 'web servers', expiresAt: '2027-11-01T00:00:00.000Z' })).resolves.toEqual(created);
    expect(received()[0]).toMatchObject({ method: 'POST', path: '/api/admin/keys' });
    expect(received()[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received()[0]!.body)).toEqual({ label: 'web servers', expiresAt: '2027-11-01T00:00:00.000Z' });
  });

  it('revokeLicenseKey POSTs without a body; rotateLicenseKey POSTs the grace period', async () => {
    reply = json(200, { ...KEY_INFO, state: 'revoked' });
    await expect(client().revokeLicenseKey(ID)).resolves.toMatchObject({ state: 'revoked' });
    reply = json(201, { key: KEY_INFO, licenseKey: 'k', previous: KEY_INFO });
    await expect(client().rotateLicenseKey(ID, { graceSeconds: 3600 })).resolves.toMatchObject({ licenseKey: 'k' });
    expect(received().map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: `/api/admin/keys/${ID}/revoke`, body: '' },
      { method: 'POST', path: `/api/admin/keys/${ID}/rotate`, body: '{"graceSeconds":3600}' },
    ]);
  });

  it('getPolicy GETs, updatePolicy PUTs the input (enabling clears a quarantine), deletePolicy DELETEs and resolves on 204', async () => {
    const policy = {
      id: ID,
      name: 'slow',
      description: null,
      enabled: false,
      scope: {},
      rules: [{ id: 'r', expression: 'true', results: { pass: 0, fail: 0, error: 0, waived: 0 } }],
      createdAt: '2026-11-01T08:00:00.000Z',
      updatedAt: '2026-11-01T08:00:00.000Z',
      hosts: { pass: 0, fail: 0, error: 0, waived: 0 },
      quarantine: { at: '2026-11-01T09:00:00.000Z', reason: 'rule r: the rule exceeded its time budget of 200 ms (3 overruns)' },
    };
    reply = json(200, policy);
    await expect(client().getPolicy(ID)).resolves.toMatchObject({ quarantine: { reason: expect.stringContaining('time budget') } });
    reply = json(200, { ...policy, enabled: true, quarantine: null });
    await expect(client().updatePolicy(ID, { name: 'slow', enabled: true, rules: [{ id: 'r', expression: 'true' }] })).resolves.toMatchObject({
      quarantine: null,
    });
    reply = { status: 204, body: '' };
    await expect(client().deletePolicy(ID)).resolves.toBeUndefined();
    expect(received().map(({ method, path }) => `${method} ${path}`)).toEqual([
      `GET /api/admin/policies/${ID}`,
      `PUT /api/admin/policies/${ID}`,
      `DELETE /api/admin/policies/${ID}`,
    ]);
    expect(JSON.parse(received()[1]!.body)).toEqual({ name: 'slow', enabled: true, rules: [{ id: 'r', expression: 'true' }] });
  });

  it('getWebhook GETs, updateWebhook PUTs the input, deleteWebhook and deleteWaiver DELETE and resolve on 204', async () => {
    const webhook = { id: ID, url: 'https://hooks.example.org/a', description: null, events: ['host.stale'], format: 'standard', enabled: true };
    reply = json(200, { ...webhook, staleDays: 7, regressionThreshold: 5, maxDeliveriesPerMinute: 60, createdAt: '2026-11-01T08:00:00.000Z' });
    await expect(client().getWebhook(ID)).resolves.toMatchObject({ url: webhook.url });
    await expect(client().updateWebhook(ID, { url: webhook.url, events: ['host.stale'], enabled: false })).resolves.toMatchObject({ id: ID });
    reply = { status: 204, body: '' };
    await expect(client().deleteWebhook(ID)).resolves.toBeUndefined();
    await expect(client().deleteWaiver(ID)).resolves.toBeUndefined();
    expect(received().map(({ method, path }) => `${method} ${path}`)).toEqual([
      `GET /api/admin/webhooks/${ID}`,
      `PUT /api/admin/webhooks/${ID}`,
      `DELETE /api/admin/webhooks/${ID}`,
      `DELETE /api/admin/waivers/${ID}`,
    ]);
    expect(JSON.parse(received()[1]!.body)).toEqual({ url: webhook.url, events: ['host.stale'], enabled: false });
  });

  it('refuses a token that cannot be a bearer token, without quoting it and before sending anything', () => {
    for (const token of ['', 'two words', 'line\nbreak', 'ünïcode']) {
      const attempt = () => client({ token });
      expect(attempt).toThrow(TypeError);
      if (token) expect(attempt).not.toThrow(token);
    }
    expect(received()).toHaveLength(0);
  });
});

describe('errors', () => {
  it.each([
    [problem(401, 'Unauthorized', 'Send a valid admin token'), InvalidAdminTokenError, { code: 'invalid-token', status: 401 }],
    [
      problem(404, 'Not Found', `No host with id ${ID}`),
      NotFoundError,
      { code: 'not-found', status: 404, reason: `No host with id ${ID}`, message: `Not found (404): No host with id ${ID}` },
    ],
    [problem(409, 'Conflict', 'The key is already revoked'), ConflictError, { code: 'conflict', status: 409, reason: 'The key is already revoked' }],
    [problem(400, 'Bad Request', 'limit: must be >= 1'), RequestRejectedError, { code: 'rejected', status: 400, reason: 'limit: must be >= 1' }],
    [problem(422, 'Unprocessable Entity'), RequestRejectedError, { code: 'rejected', status: 422, reason: 'Unprocessable Entity' }],
    [{ ...problem(429, 'Too Many Requests'), headers: { 'retry-after': '3' } }, RateLimitedError, { code: 'rate-limited', retryAfterSeconds: 3 }],
    [
      problem(500, 'Internal Server Error', 'database locked'),
      ServerError,
      { code: 'server', status: 500, message: 'Unexpected answer from the server (500): database locked' },
    ],
    [
      { status: 502, body: 'Bad gateway\n<html>' },
      ServerError,
      { code: 'server', status: 502, message: 'Unexpected answer from the server (502): Bad gateway', problem: undefined },
    ],
  ] as const)('maps %j to a typed error with status and problem details', async (answer, type, fields) => {
    reply = answer;
    const error = await client()
      .getHost(ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject(fields);
    if ('type' in answer && answer.type === 'application/problem+json') expect((error as ServerError).problem).toEqual(JSON.parse(answer.body));
  });

  it("says where the admin API is when a 404 has no problem details: the collectors' port, or something else", async () => {
    reply = { status: 404, body: 'Not found' };
    const error = await client()
      .getHost(ID)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: 'server', status: 404, problem: undefined });
    expect((error as Error).message).toBe(
      `Unexpected answer from the server (404): ${stub.url} answers Lynis uploads, not the admin API ` +
        "(an audit server's collectors' or operations port: a plain-text 404 for /api/admin/). " +
        "The admin API listens on the address of the server's --admin-listen (ADMIN_LISTEN) unless that is off, else on its --port; " +
        'the server logs it as adminUrl when it starts. Give that URL to --url or AUDIT_URL; see docs/client.md',
    );
    reply = { status: 404, body: '<html>nginx</html>', type: 'text/html' };
    await expect(client().listHosts()).rejects.toThrow(
      `${stub.url} has no admin API under /api/admin/ (a 404 without the API's problem details: <html>nginx</html>)`,
    );
  });

  it('treats a success status the operation does not have, or a body that is not JSON, as a server error', async () => {
    reply = json(200, KEY_INFO);
    await expect(client().createLicenseKey()).rejects.toMatchObject({ code: 'server', status: 200 });
    reply = { status: 200, body: '<html>login</html>', type: 'text/html' };
    await expect(client().listHosts()).rejects.toThrow('Unexpected answer from the server (200): expected a JSON object, got text/html: <html>login</html>');
    reply = { status: 200, body: 'null', type: 'application/json' };
    await expect(client().listHosts()).rejects.toBeInstanceOf(ServerError);
  });

  it('never puts the token into an error, even when the server echoes it', async () => {
    reply = problem(400, 'Bad Request', `token ${TOKEN} is odd`);
    const error = (await client()
      .listHosts()
      .catch((e: unknown) => e)) as RequestRejectedError;
    expect(error.message).toBe('The server rejected the request (400): token [redacted] is odd');
    expect(JSON.stringify(error.problem)).not.toContain(TOKEN);
    reply = { status: 500, body: `Authorization: Bearer ${TOKEN}` };
    const plain = (await client()
      .listHosts()
      .catch((e: unknown) => e)) as Error;
    expect(plain.message).not.toContain(TOKEN);
  });

  it('is a NetworkError when nothing listens, naming the URL but not the token', async () => {
    const port = await unusedPort();
    const error = await client({ baseUrl: `http://127.0.0.1:${port}` })
      .listLicenseKeys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(`No answer from http://127.0.0.1:${port}/api/admin/keys: connect ECONNREFUSED 127.0.0.1:${port}`);
  });
});
