// The Prism mock that collector developers run (`npm run mock`), checked against the contract's exact texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckLicenseErrors, CheckLicenseResponses } from '@org/audit-server-core';
import { startPrism, type PrismProcess } from './support/prism.js';
import { expectAnswer, requestMatrix, send } from './support/request-matrix.js';

// The answers, typed by the types generated from openapi.yaml: a changed text breaks the build of this test.
const VALID: CheckLicenseResponses[200] = 'Response 100';
const INVALID: CheckLicenseErrors[401] = 'Response 500';
const anyKeys = { valid: 'deadbeef-0000-0000-0000-000000000001', revoked: 'deadbeef-0000-0000-0000-00000000dead' };

let mock: PrismProcess;
beforeAll(async () => {
  mock = await startPrism('mock');
});
afterAll(() => mock?.stop());

describe.each(['/api/audit', '/api/v1/audit'])('mock license check at %s/license/', (base) => {
  const check = (headers?: Record<string, string>) =>
    fetch(`${mock.url}${base}/license/`, { method: 'POST', body: new URLSearchParams({ licensekey: anyKeys.valid }), headers });

  it('answers exactly the 12 bytes "Response 100" as text/plain by default', async () => {
    const response = await check();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(VALID));
  });

  it('answers exactly "Response 500" with 401 for Prefer: code=401', async () => {
    const response = await check({ prefer: 'code=401' });
    expect(response.status).toBe(401);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(INVALID));
  });
});

describe('mock answers to the request matrix, where a mock can know them', () => {
  it.each(requestMatrix.filter((c) => c.mock))('$name', async (matrixCase) => {
    const answer = await send(mock.url, matrixCase, anyKeys);
    expectAnswer(answer, matrixCase.mock!);
    if (answer.status >= 400 && answer.status !== 401) {
      // Refused by Prism's own request validation, which names the violation.
      expect(answer.headers.get('sl-violations') ?? answer.body).toMatch(/licensekey|hostid|data|content types/);
    }
  });
});
