import { ADMIN_OPERATION_ROLES, ADMIN_ROLES } from '../generated/admin-operations.gen.js';

/** What an admin token may do, lowest first in {@link ADMIN_ROLES}: each role includes the ones before it. */
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** The role of tokens made without one: every token made before roles existed could do everything. */
export const DEFAULT_ADMIN_ROLE: AdminRole = 'admin';

/** Whether `text` names an admin role. */
export const isAdminRole = (text: string): text is AdminRole => (ADMIN_ROLES as readonly string[]).includes(text);

/** Whether a token with `role` may run an operation that requires `required`. */
export const roleAllows = (role: AdminRole, required: AdminRole): boolean => ADMIN_ROLES.indexOf(role) >= ADMIN_ROLES.indexOf(required);

/** The role the contract's `x-required-role` gives an admin operation; undefined for an operation the contract does not list. */
export function requiredRole(operationId: string): AdminRole | undefined {
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
