import { OpenAPIBackend, type Document } from 'openapi-backend';
import { describe, expect, it } from 'vitest';
import { compileRoutes } from './contract-routes.js';

const formBody = {
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 3 } } },
    },
  },
};

async function routesOf(paths: Record<string, unknown>) {
  const backend = new OpenAPIBackend({
    definition: { openapi: '3.0.3', info: { title: 't', version: '1' }, paths } as Document,
    quick: true,
    ajvOpts: { allErrors: true },
  });
  await backend.init();
  return compileRoutes(backend, 'form');
}

describe('compileRoutes', () => {
  it('finds operations by exact path and method, and tells unknown paths from unknown methods', async () => {
    const route = await routesOf({
      '/things/': { post: { operationId: 'addThing', tags: ['form'], requestBody: formBody, responses: { 200: { description: 'ok' } } } },
    });
    const match = route('POST', '/things/');
    expect(match.kind === 'operation' && match.operation.operationId).toBe('addThing');
    expect(route('post', '/things/').kind).toBe('operation');
    expect(route('GET', '/things/').kind).toBe('method-not-allowed');
    expect(route('POST', '/things').kind).toBe('not-found');
  });

  it("validates with the contract's schema: required fields, lengths, and a missing body", async () => {
    const route = await routesOf({
      '/things/': { post: { operationId: 'addThing', tags: ['form'], requestBody: formBody, responses: { 200: { description: 'ok' } } } },
    });
    const match = route('POST', '/things/');
    if (match.kind !== 'operation') throw new Error('no route');
    expect(match.validate({ name: 'abc' }, {})).toEqual({ valid: true, errors: null });
    expect(match.validate({ name: 'abcd' }, {}).errors?.map((e) => e.instancePath)).toEqual(['/requestBody/name']);
    expect(match.validate({}, {}).errors?.map((e) => e.params)).toEqual([{ missingProperty: 'name' }]);
    expect(match.validate(undefined, {}).errors?.map((e) => e.params)).toEqual([{ missingProperty: 'requestBody' }]);
  });

  it('routes only the operations with its tag: the others are not found', async () => {
    const route = await routesOf({
      '/things/': { post: { operationId: 'addThing', tags: ['form'], requestBody: formBody, responses: { 200: { description: 'ok' } } } },
      '/admin/things/{id}': { get: { operationId: 'getThing', tags: ['admin'], responses: { 200: { description: 'ok' } } } },
    });
    expect(route('POST', '/things/').kind).toBe('operation');
    expect(route('GET', '/admin/things/{id}').kind).toBe('not-found');
  });

  it('refuses a contract with path templates or parameters, which it cannot route', async () => {
    await expect(routesOf({ '/things/{id}': { get: { operationId: 'getThing', tags: ['form'], responses: { 200: { description: 'ok' } } } } })).rejects.toThrow(
      /getThing/,
    );
  });
});
