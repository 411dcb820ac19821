import { ADMIN_OPERATION_ROLES } from '../generated/admin-operations.gen.js';
import type { AdminRole } from '../people/roles.js';

/**
 * The role the contract's `x-required-role` gives an admin operation, `none` for those anyone may call (signing in
 * and out, which have `security: []`); undefined for an operation the contract does not list.
 */
export function requiredRole(operationId: string): AdminRole | 'none' | undefined {
  return Object.hasOwn(ADMIN_OPERATION_ROLES, operationId) ? ADMIN_OPERATION_ROLES[operationId as keyof typeof ADMIN_OPERATION_ROLES] : undefined;
}

/**
 * The ids of the operations that have no valid `x-required-role`, or one the generated table does not agree with
 * (generated files older than the contract).
 */
export function operationsWithoutARole(operations: readonly { operationId?: string }[]): string[] {
  return operations
    .filter((operation) => {
      const declared = (operation as { 'x-required-role'?: unknown })['x-required-role'];
      const required = requiredRole(operation.operationId ?? '');
      return required === undefined || required !== declared;
    })
    .map((operation) => operation.operationId ?? '(no operationId)');
}
