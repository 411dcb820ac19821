import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OPENAPI } from './prism.js';

/** The id the contract's examples use; it fills every path parameter. */
export const EXAMPLE_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** One operation of the admin API, ready to send. */
export interface AdminOperation {
  operationId: string;
  method: string;
  /** The path with every parameter filled in with `EXAMPLE_ID`. */
  path: string;
  /** The documented success status and its media type (none for an answer without a body, such as 204). */
  successStatus: number;
  successType: string | undefined;
  /** The example of the operation's body, when it takes one, ready to send: JSON, or text as it is (a CSV file). */
  body?: { contentType: string; text: string };
  /** Its `x-required-role`, as the contract states it (checked, not trusted, by the roles test). */
  requiredRole: unknown;
  description: string;
  /** The statuses the contract documents for it. */
  statuses: string[];
  /** Its own `security`, when it has one (the open operations' is empty). */
  security: unknown;
}

interface ContractOperation {
  operationId: string;
  tags?: string[];
  'x-required-role'?: unknown;
  security?: unknown;
  description?: string;
  requestBody?: { $ref?: string; content?: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

interface ContractDocument {
  paths: Record<string, Record<string, ContractOperation>>;
  components: { requestBodies?: Record<string, { content?: Record<string, { example?: unknown }> }> };
}

/** Every operation the contract tags `admin`, read from openapi.yaml, so a new one is covered without a test change. */
export function adminOperations(): AdminOperation[] {
  const document = parse(readFileSync(OPENAPI, 'utf8')) as ContractDocument;
  const bodyExample = (operation: ContractOperation) => {
    const body = operation.requestBody?.$ref ? document.components.requestBodies?.[operation.requestBody.$ref.split('/').at(-1)!] : operation.requestBody;
    const [contentType, media] = Object.entries(body?.content ?? {})[0] ?? [];
    if (contentType === undefined || media?.example === undefined) return undefined;
    return { contentType, text: contentType !== 'application/json' && typeof media.example === 'string' ? media.example : JSON.stringify(media.example) };
  };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.tags?.includes('admin'))
      .map(([method, operation]) => {
        // The documented success; single sign-on's steps have none but a redirect.
        const [status, response] = Object.entries(operation.responses).find(([code]) => /^[23]/.test(code))!;
        return {
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path: path.replace(/\{[^}]+\}/g, EXAMPLE_ID),
          successStatus: Number(status),
          successType: Object.keys(response.content ?? {})[0],
          body: bodyExample(operation),
          requiredRole: operation['x-required-role'],
          description: operation.description ?? '',
          statuses: Object.keys(operation.responses),
          security: operation.security,
        };
      }),
  );
}
