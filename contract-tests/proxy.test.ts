// The reference server behind `prism proxy --errors`: every answer it gives must be one the contract describes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase, revokeKey } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { startPrism, type PrismProcess } from './support/prism.js';
import { storedReports } from './support/reports.js';
import { MATRIX_MAX_BODY_BYTES, expectAnswer, requestMatrix, send, type MatrixKeys } from './support/request-matrix.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const keys: MatrixKeys = { valid: 'deadbeef-0000-0000-0000-000000000001', revoked: 'deadbeef-0000-0000-0000-00000000dead' };

/** Prism's signs of a contract violation: a problem+json error in --errors mode, or the sl-violations header. */
function violations(answer: { status: number; headers: Headers; body: string }): string | null {
  if (answer.headers.get('sl-violations')) return answer.headers.get('sl-violations');
  if (answer.headers.get('content-type')?.includes('application/problem+json')) return answer.body;
  return null;
}

describe('reference server through prism proxy --errors', () => {
  let server: ServerProcess;
  let proxy: PrismProcess;
  let removeDataDir: () => Promise<void>;

  beforeAll(async () => {
    const data = await makeDataDir();
    removeDataDir = data.remove;
    const orm = await openDatabase(data.dataDir);
    await importKey(orm, keys.valid);
    await revokeKey(orm, await importKey(orm, keys.revoked));
    await orm.close();
    server = await startServerProcess(data.dataDir, ['--plain-http', '--max-body-bytes', String(MATRIX_MAX_BODY_BYTES)]);
    // Requests are forwarded unvalidated, so that the server's own answers to bad input are checked too.
    proxy = await startPrism('proxy', [server.url, '--errors', '--validate-request=false']);
  });
  afterAll(async () => {
    await proxy?.stop();
    await server?.stop();
    await removeDataDir?.();
  });

  it.each(requestMatrix)('$name', async (matrixCase) => {
    const before = (await storedReports(server.dataDir)).length;
    const answer = await send(proxy.url, matrixCase, keys);
    expect(violations(answer)).toBeNull();
    expectAnswer(answer, matrixCase.server);
    expect(await storedReports(server.dataDir)).toHaveLength(before + (matrixCase.server.stores ? 1 : 0));
  });
});

describe('admin API of the reference server through prism proxy --errors', () => {
  let server: ServerProcess;
  let proxy: PrismProcess;
  let removeDataDir: () => Promise<void>;
  let token: string;
  let keyId: string;
  let reportId: string;
  const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

  beforeAll(async () => {
    const data = await makeDataDir();
    removeDataDir = data.remove;
    const orm = await openDatabase(data.dataDir);
    keyId = await importKey(orm, lynisCapture.key);
    ({ token } = await createAdminToken(orm));
    await orm.close();
    server = await startServerProcess(data.dataDir, ['--plain-http', '--rejections-flush-ms', '200']);
    const upload = await fetch(`${server.url}/api/audit/upload/`, {
      method: 'POST',
      body: new URLSearchParams({
        licensekey: lynisCapture.key,
        hostid: lynisCapture.hostId,
        hostid2: lynisCapture.hostId2,
        data: lynisCapture.report.toString('latin1'),
      }),
    });
    reportId = /^OK (\S+)$/.exec(await upload.text())![1]!;
    // A refused upload (a valid key, data that is no report), for the list of refusals.
    const refused = await fetch(`${server.url}/api/audit/upload/`, {
      method: 'POST',
      body: new URLSearchParams({ licensekey: lynisCapture.key, hostid: lynisCapture.hostId, data: 'not a report' }),
    });
    expect(refused.status).toBe(400);
    proxy = await startPrism('proxy', [server.url, '--errors', '--validate-request=false']);
  });
  afterAll(async () => {
    await proxy?.stop();
    await server?.stop();
    await removeDataDir?.();
  });

  /** Sends a request through the proxy; fails when Prism found the answer outside the contract. */
  async function viaProxy(method: string, path: string, options: { body?: unknown; token?: string } = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? token}` };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${proxy.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const body = await response.text();
    expect(response.headers.get('sl-violations'), `${method} ${path}`).toBeNull();
    // Prism's own problems (violations) have its error type; the server's have about:blank.
    if (response.headers.get('content-type')?.includes('problem+json')) expect(JSON.parse(body).type, `${method} ${path}: ${body}`).toBe('about:blank');
    return { status: response.status, body };
  }

  it('answers every admin operation as the contract describes, successes and errors', async () => {
    const hosts = await viaProxy('GET', `/api/admin/hosts?keyId=${keyId}`);
    expect(hosts.status).toBe(200);
    const hostId = (JSON.parse(hosts.body) as { items: { id: string }[] }).items[0]!.id;
    const cases: [string, string, { body?: unknown; token?: string }, number][] = [
      ['GET', '/api/admin/hosts?hostname=LOCAL&limit=10&offset=0', {}, 200],
      ['GET', `/api/admin/hosts/${hostId}?historyLimit=5`, {}, 200],
      ['GET', `/api/admin/hosts/${UNKNOWN_ID}`, {}, 404],
      ['GET', '/api/admin/hosts?limit=0', {}, 400],
      ['GET', '/api/admin/hosts', { token: `adm_${'0'.repeat(64)}` }, 401], // without any token Prism answers itself
      ['GET', `/api/admin/reports?hostRecordId=${hostId}`, {}, 200],
      ['GET', `/api/admin/reports/${reportId}`, {}, 200],
      ['GET', `/api/admin/reports/${reportId}/raw`, {}, 200],
      ['GET', `/api/admin/reports/${UNKNOWN_ID}/raw`, {}, 404],
      ['GET', '/api/admin/keys', {}, 200],
      ['POST', '/api/admin/keys', { body: { label: 'through the proxy' } }, 201],
      ['POST', '/api/admin/keys', { body: { label: '' } }, 400],
      ['POST', `/api/admin/keys/${keyId}/rotate`, { body: { graceSeconds: 0 } }, 201],
      ['POST', `/api/admin/keys/${keyId}/rotate`, {}, 409],
      ['POST', `/api/admin/keys/${keyId}/revoke`, {}, 200],
      ['POST', `/api/admin/keys/${UNKNOWN_ID}/revoke`, {}, 404],
      ['GET', '/api/admin/policies/baseline/preview', {}, 200],
    ];
    for (const [method, path, options, status] of cases) expect((await viaProxy(method, path, options)).status, `${method} ${path}`).toBe(status);
  });

  it('lists the refused upload as the contract describes', async () => {
    await expect
      .poll(async () => JSON.parse((await viaProxy('GET', `/api/admin/rejections?hostId=${lynisCapture.hostId}`)).body).items, { timeout: 5000 })
      .toEqual([expect.objectContaining({ operation: 'uploadReport', reason: 'invalid-data', keyId, hostId: lynisCapture.hostId, count: 1, folded: false })]);
    expect((await viaProxy('GET', '/api/admin/rejections?since=2026-13-01')).status).toBe(400);
  });
});

describe('the proxy check catches a server that breaks the contract', () => {
  let upstream: Server;
  let proxy: PrismProcess;
  let answer: { type: string; body: string } = { type: 'text/plain', body: 'Response 100' };

  beforeAll(async () => {
    upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': answer.type }).end(answer.body));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    proxy = await startPrism('proxy', [`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, '--errors']);
  });
  afterAll(async () => {
    await proxy?.stop();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  it.each([
    ['the exact text', 'text/plain', 'Response 100', false],
    ['a trailing newline after Response 100', 'text/plain', 'Response 100\n', true],
    ['a JSON body', 'application/json', '{"response":100}', true],
  ])('%s', async (_name, type, body, violates) => {
    answer = { type, body };
    const sent = await send(proxy.url, requestMatrix[0]!, keys);
    expect(violations(sent) !== null).toBe(violates);
  });
});
