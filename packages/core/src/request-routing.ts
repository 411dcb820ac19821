import { createRequire } from 'node:module';
import { compileRoutes, type RouteMatch } from './contract-routes.js';
import { openApiDocument } from './generated/openapi.gen.js';
import type { AuditOperation } from './hooks.js';

// Required rather than imported: imported from an ES module, the CommonJS openapi-backend and the modules it
// re-exports are first scanned by Node for their export names, a tenth of a server's start.
const { OpenAPIBackend } = createRequire(import.meta.url)('openapi-backend') as typeof import('openapi-backend');

/** Where a request under the audit prefix goes, and the operation it names (if any). */
export interface RoutedRequest {
  match: RouteMatch;
  /** The operation routed to, or the one the path names when the method is wrong; none for unknown paths. */
  operation: AuditOperation | undefined;
}

/** Routes a request by method and served path; `undefined` when the path is not under the audit prefix. */
export type RequestRouter = (method: string, path: string) => RoutedRequest | undefined;

/** The operation of each contract operation id, legacy or not. */
const OPERATION_BY_ID: Record<string, AuditOperation> = {
  checkLicense: 'checkLicense',
  checkLicenseLegacy: 'checkLicense',
  uploadReport: 'uploadReport',
  uploadReportLegacy: 'uploadReport',
};

/**
 * Builds the router over openapi.yaml: openapi-backend's routes and validators for the operations tagged `audit`,
 * served under `/api/<toolSegment>/` and `/api/v1/<toolSegment>/`.
 */
export async function createRequestRouter(toolSegment: string): Promise<RequestRouter> {
  const backend = new OpenAPIBackend({
    definition: openApiDocument,
    ignoreTrailingSlashes: false, // the contract's paths end in `/`, as Lynis sends them
    quick: true,
    // allErrors: so that a bad key is found (401) whatever else is wrong. unicode: false makes ajv count
    // lengths with `.length` instead of walking every character of a report: form values are latin1 strings
    // (one character per byte, never a surrogate pair), so both counts are the same. validateSchema: false spares
    // compiling JSON Schema's meta-schema before the first answer: the contract's schemas are linted in CI.
    ajvOpts: { allErrors: true, unicode: false, validateSchema: false, logger: ajvLogger },
  });
  await backend.init();
  const route = compileRoutes(backend, 'audit');
  // The contract names the tool `audit`; requests use the configured segment.
  const prefixes = ['/api/', '/api/v1/'].map((base) => ({ served: `${base}${toolSegment}/`, contract: `${base}audit/` }));
  const toContractPath = (path: string) => {
    const prefix = prefixes.find(({ served }) => path.startsWith(served));
    return prefix && prefix.contract + path.slice(prefix.served.length);
  };
  return (method, servedPath) => {
    const path = toContractPath(servedPath);
    if (path === undefined) return undefined;
    const match = route(method, path);
    return { match, operation: match.kind === 'operation' ? OPERATION_BY_ID[match.operation.operationId!] : operationOfPath(path) };
  };
}

/** The operation a contract path names, for requests with a method the path does not take. */
function operationOfPath(path: string): AuditOperation | undefined {
  return path.endsWith('/license/') ? 'checkLicense' : path.endsWith('/upload/') ? 'uploadReport' : undefined;
}

/** ajv's console logging, less its notice that `unicode` is deprecated: the option still works and is chosen on purpose. */
const ajvLogger = {
  log: console.log,
  warn: (message: unknown, ...rest: unknown[]) => {
    if (!String(message).startsWith('DEPRECATED: option unicode')) console.warn(message, ...rest);
  },
  error: console.error,
};
