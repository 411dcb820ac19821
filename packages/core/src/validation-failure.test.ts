import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationContext, RouteMatch } from './contract-routes.js';
import type { FormRead } from './form.js';
import type { RequestRejectedEvent } from './hooks.js';
import { silentLogger } from './logger.js';
import { InMemoryKeyStore } from './memory-stores.js';
import type { AuditRateLimiter } from './rate-limit.js';
import type { RequestInfo } from './reject-request.js';
import { createRequestRouter, type RequestRouter } from './request-routing.js';
import { answerValidationFailure, type ValidationFailureContext } from './validation-failure.js';

const VALID_KEY = 'deadbeef-0000-0000-0000-000000000001';
const ADDRESS = '192.0.2.7';
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };

let route: RequestRouter;
beforeAll(async () => {
  route = await createRequestRouter('audit');
});

/** The request as validation leaves it: the contract's own validators run on `fields`. */
function validated(path: string, fields: Record<string, string | string[]>): OperationContext {
  const { match } = route('POST', path)!;
  const operation = match as Extract<RouteMatch, { kind: 'operation' }>;
  const validation = operation.validate(fields, FORM_HEADERS);
  expect(validation.valid).toBe(false);
  return { request: { requestBody: fields }, operation: operation.operation, validation };
}

function setUp() {
  const keyStore = new InMemoryKeyStore();
  keyStore.add(VALID_KEY, 'valid-key');
  const lookups: string[] = [];
  const failures: string[] = [];
  const rejected: RequestRejectedEvent[] = [];
  const rateLimiter: AuditRateLimiter = {
    consumeRequest: async () => ({ allowed: true }),
    consumeKey: async () => ({ allowed: true }),
    recordFailure: async (address) => void failures.push(address),
  };
  const context: ValidationFailureContext = {
    keyStore: { lookup: (key) => (lookups.push(key), keyStore.lookup(key)) },
    rateLimiter,
    logger: silentLogger,
    hooks: { onRequestRejected: (event) => void rejected.push(event) },
  };
  return { context, lookups, failures, rejected };
}

const upload = (form?: FormRead): RequestInfo => ({ operation: 'uploadReport', remoteAddress: ADDRESS, form });
const licenseCheck = (form?: FormRead): RequestInfo => ({ operation: 'checkLicense', remoteAddress: ADDRESS, form });

describe('answerValidationFailure', () => {
  it('tells a bad key before any other field: nothing about them without a valid key', async () => {
    const { context, failures, rejected } = setUp();
    const request = validated('/api/audit/upload/', { licensekey: 'deadbeef-0000-0000-0000-000000000002', hostid: ['a', 'b'] });
    const response = await answerValidationFailure(context, request, upload());
    expect(response).toMatchObject({ status: 401, body: 'Invalid license key' });
    expect(rejected).toEqual([expect.objectContaining({ reason: 'invalid-key', status: 401, keyId: 'unknown' })]);
    expect(failures).toEqual([ADDRESS]);
  });

  it('names the invalid fields once the key is valid', async () => {
    const { context, failures, rejected } = setUp();
    const request = validated('/api/audit/upload/', { licensekey: VALID_KEY, hostid: ['a', 'b'] });
    const response = await answerValidationFailure(context, request, upload());
    expect(response.status).toBe(400);
    expect(response.body).toMatch(/^Invalid request: /);
    expect(response.body).toContain('hostid given more than once');
    expect(response.body).toContain("must have required property 'data'");
    expect(rejected).toEqual([expect.objectContaining({ reason: 'invalid-request', keyId: 'valid-key' })]);
    expect(failures).toEqual([]);
  });

  it('does not look up a key that itself fails validation, and counts it as a failure', async () => {
    const { context, lookups, failures } = setUp();
    const request = validated('/api/audit/upload/', { licensekey: [VALID_KEY, VALID_KEY], hostid: 'h', data: 'x' });
    await expect(answerValidationFailure(context, request, upload())).resolves.toMatchObject({ status: 401 });
    expect(lookups).toEqual([]);
    expect(failures).toEqual([ADDRESS]);
  });

  it('refuses a malformed upload before any key is looked at, without counting a failure', async () => {
    const { context, lookups, failures, rejected } = setUp();
    const request = validated('/api/audit/upload/', {});
    const response = await answerValidationFailure(context, request, upload({ kind: 'malformed', reason: 'bad boundary', bytesReceived: 10 }));
    expect(response).toMatchObject({ status: 400, body: 'Invalid form data: bad boundary' });
    expect(rejected).toEqual([expect.objectContaining({ reason: 'malformed' })]);
    expect([lookups, failures]).toEqual([[], []]);
  });

  it('answers a license check only ever with "Response 500", and counts a malformed one as a failure', async () => {
    const { context, failures } = setUp();
    const request = validated('/api/audit/license/', {});
    for (const form of [undefined, { kind: 'unsupported-type', bytesReceived: 0 } as const]) {
      await expect(answerValidationFailure(context, request, licenseCheck(form))).resolves.toMatchObject({ status: 401, body: 'Response 500' });
    }
    expect(failures).toEqual([ADDRESS, ADDRESS]);
  });
});
