import type { OpenAPIBackend, Operation, ValidationResult } from 'openapi-backend';
import type { IncomingHttpHeaders } from 'node:http';

/** One request validation error, as ajv reports it. */
export type ValidationError = NonNullable<ValidationResult['errors']>[number];

/** What an operation handler is given: the validated form, the operation, and what validation found. */
export interface OperationContext<Body = unknown> {
  request: { requestBody: Body };
  operation: Operation;
  validation: { valid: boolean; errors: ValidationError[] | null };
}

/** Where a request goes in the contract. */
export type RouteMatch =
  | { kind: 'operation'; operation: Operation; validate(body: object | undefined, headers: IncomingHttpHeaders): OperationContext['validation'] }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed' };

/**
 * Routes and validates requests with the operations and ajv validators that an initialised openapi-backend
 * compiled from the contract, looked up once here instead of on every request (openapi-backend's own
 * `handleRequest` rebuilds its operation list and re-parses the request several times per call).
 * Validation is the same: the same compiled validators, given the same input. Use with openapi-backend's
 * `quick` mode, which compiles nothing at start. Only the operations tagged `tag` are routed: the contract's
 * other operations (the admin API) belong to the host, and their paths are `not-found` here.
 */
export function compileRoutes(backend: OpenAPIBackend, tag: string): (method: string, path: string) => RouteMatch {
  const byPath = new Map<string, Map<string, RouteMatch>>();
  for (const operation of backend.router.getOperations()) {
    if (!operation.tags?.includes(tag)) continue;
    // Path templates, parameters and security schemes would need openapi-backend's per-request parsing.
    if (operation.path.includes('{') || (operation.parameters?.length ?? 0) > 0 || (operation.security?.length ?? 0) > 0) {
      throw new Error(`Operation ${operation.operationId} uses path templates, parameters or security, which the router does not support`);
    }
    // Compiled on first use (each takes two ajv instances, ~50 ms): a server answers sooner after a start.
    let validators: ReturnType<typeof backend.validator.getRequestValidatorsForOperation> | undefined;
    const validate = (body: object | undefined, headers: IncomingHttpHeaders) => {
      validators ??= backend.validator.getRequestValidatorsForOperation(operation.operationId!);
      const errors: ValidationError[] = [];
      const input =
        body === undefined ? { path: {}, query: {}, header: headers, cookie: {} } : { path: {}, query: {}, header: headers, cookie: {}, requestBody: body };
      for (const validator of validators) if (!validator(input)) errors.push(...(validator.errors ?? []));
      return errors.length ? { valid: false, errors } : { valid: true, errors: null };
    };
    const methods = byPath.get(operation.path) ?? new Map<string, RouteMatch>();
    methods.set(operation.method.toUpperCase(), { kind: 'operation', operation, validate });
    byPath.set(operation.path, methods);
  }
  return (method, path) => {
    const methods = byPath.get(path);
    if (!methods) return { kind: 'not-found' };
    return methods.get(method.toUpperCase()) ?? { kind: 'method-not-allowed' };
  };
}
