import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { LicenseCheckForm, ReportUploadForm } from '@org/audit-server-core';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';

/** The keys a case may use; the reference server knows the valid and the revoked one. */
export interface MatrixKeys {
  valid: string;
  revoked: string;
}

/** What a target should answer: the status, and the body exactly (string) or by pattern. */
export interface Expected {
  status: number;
  body?: string | RegExp;
}

/** One request of the matrix, with what the reference server and the Prism mock should answer. */
export interface MatrixCase {
  name: string;
  path: string;
  request(keys: MatrixKeys): { body: BodyInit; contentType?: string };
  server: Expected & { stores?: boolean };
  /** What the mock answers, where a mock can know it (it knows no keys and does not parse reports). */
  mock?: Expected;
}

/** Body size limit the reference server is started with for the matrix. */
export const MATRIX_MAX_BODY_BYTES = 64 * 1024;

const report = readFileSync(lynisFixturePath('report.dat'));
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const HOST_ID2 = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const urlencoded = (fields: Partial<Record<keyof LicenseCheckForm | keyof ReportUploadForm, string>>) => ({
  body: new URLSearchParams(fields),
});
const multipart = (fields: Record<string, string | Blob>) => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return { body };
};
const LICENSE_VALID = { status: 200, body: 'Response 100' };
const LICENSE_INVALID = { status: 401, body: 'Response 500' };
const STORED = { status: 200, body: /^OK \S+$/, stores: true };
const MOCK_STORED = { status: 200, body: /^OK \S+$/ };
const UNAUTHORIZED = { status: 401, body: 'Invalid license key' };

function casesFor(base: string): MatrixCase[] {
  const license = `${base}/license/`;
  const upload = `${base}/upload/`;
  return [
    {
      name: 'license: valid key',
      path: license,
      request: (k) => urlencoded({ licensekey: k.valid, collector_version: '105' }),
      server: LICENSE_VALID,
      mock: LICENSE_VALID,
    },
    { name: 'license: unknown key', path: license, request: () => urlencoded({ licensekey: 'deadbeef-0000-0000-0000-00000000beef' }), server: LICENSE_INVALID },
    { name: 'license: revoked key', path: license, request: (k) => urlencoded({ licensekey: k.revoked }), server: LICENSE_INVALID },
    { name: 'license: missing key', path: license, request: () => urlencoded({ collector_version: '105' }), server: LICENSE_INVALID, mock: { status: 422 } },
    { name: 'license: empty key', path: license, request: () => urlencoded({ licensekey: '' }), server: LICENSE_INVALID, mock: { status: 422 } },
    {
      name: 'upload: raw report, urlencoded like Lynis',
      path: upload,
      request: (k) => urlencoded({ data: report.toString(), licensekey: k.valid, hostid: HOST_ID, hostid2: HOST_ID2 }),
      server: STORED,
      mock: MOCK_STORED,
    },
    {
      name: 'upload: base64 report',
      path: upload,
      request: (k) => urlencoded({ licensekey: k.valid, hostid: HOST_ID, data: report.toString('base64') }),
      server: STORED,
      mock: MOCK_STORED,
    },
    {
      name: 'upload: multipart with a file part',
      path: upload,
      request: (k) => multipart({ licensekey: k.valid, hostid: HOST_ID, data: new Blob([report]) }),
      server: STORED,
      mock: MOCK_STORED,
    },
    {
      name: 'upload: unknown key',
      path: upload,
      request: () => urlencoded({ licensekey: 'deadbeef', hostid: HOST_ID, data: report.toString() }),
      server: UNAUTHORIZED,
    },
    {
      name: 'upload: revoked key',
      path: upload,
      request: (k) => urlencoded({ licensekey: k.revoked, hostid: HOST_ID, data: report.toString() }),
      server: UNAUTHORIZED,
    },
    {
      name: 'upload: missing key',
      path: upload,
      request: () => urlencoded({ hostid: HOST_ID, data: report.toString() }),
      server: UNAUTHORIZED,
      mock: { status: 400 },
    },
    {
      name: 'upload: empty key',
      path: upload,
      request: () => urlencoded({ licensekey: '', hostid: HOST_ID, data: report.toString() }),
      server: UNAUTHORIZED,
      mock: { status: 400 },
    },
    {
      name: 'upload: missing hostid',
      path: upload,
      request: (k) => urlencoded({ licensekey: k.valid, data: report.toString() }),
      server: { status: 400, body: /hostid/ },
      mock: { status: 400 },
    },
    {
      name: 'upload: missing data',
      path: upload,
      request: (k) => urlencoded({ licensekey: k.valid, hostid: HOST_ID }),
      server: { status: 400, body: /data/ },
      mock: { status: 400 },
    },
    {
      name: 'upload: data neither report nor base64',
      path: upload,
      request: (k) => urlencoded({ licensekey: k.valid, hostid: HOST_ID, data: 'hello world' }),
      server: { status: 400, body: /^Invalid data: / },
    },
    {
      name: 'upload: JSON body',
      path: upload,
      request: (k) => ({ body: JSON.stringify({ licensekey: k.valid }), contentType: 'application/json' }),
      server: { status: 415 },
      mock: { status: 415 },
    },
    {
      name: 'upload: body over the limit',
      path: upload,
      request: (k) => urlencoded({ licensekey: k.valid, hostid: HOST_ID, data: 'a='.padEnd(MATRIX_MAX_BODY_BYTES, 'x') }),
      server: { status: 413, body: `Request body too large (limit ${MATRIX_MAX_BODY_BYTES} bytes)` },
    },
  ];
}

/** Every case, on the current and on the legacy paths. */
export const requestMatrix: MatrixCase[] = ['/api/audit', '/api/v1/audit'].flatMap((base) => casesFor(base).map((c) => ({ ...c, name: `${base} ${c.name}` })));

/** Sends one matrix case to a base URL. */
export async function send(baseUrl: string, matrixCase: MatrixCase, keys: MatrixKeys, headers: Record<string, string> = {}) {
  const { body, contentType } = matrixCase.request(keys);
  const response = await fetch(`${baseUrl}${matrixCase.path}`, {
    method: 'POST',
    body,
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** Asserts an answer: the status, and the body exactly or by pattern. */
export function expectAnswer(answer: { status: number; body: string }, expected: Expected): void {
  const body = expected.body === undefined ? expect.any(String) : typeof expected.body === 'string' ? expected.body : expect.stringMatching(expected.body);
  expect({ status: answer.status, body: answer.body }).toEqual({ status: expected.status, body });
}
