// The reference server behind `prism proxy --errors`: every answer it gives must be one the contract describes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKey, openDatabase, revokeKey } from '@org/audit-server';
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
