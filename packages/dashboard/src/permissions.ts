import { createContext, useContext } from 'react';
import { ADMIN_OPERATION_ROLES, ADMIN_ROLES, type AdminRole } from '@org/audit-client/sdk';

/** An admin operation, by the operationId the contract gives it. */
export type AdminOperationId = keyof typeof ADMIN_OPERATION_ROLES;

/**
 * Whether the signed-in `role` may run an operation, from the contract's `x-required-role`: the server enforces it,
 * the dashboard only leaves out what would be refused. Nothing is offered while the role is not yet known.
 */
export function can(role: AdminRole | undefined, operationId: AdminOperationId): boolean {
  const required = ADMIN_OPERATION_ROLES[operationId];
  if (required === 'none') return true; // signing in and out
  return role !== undefined && ADMIN_ROLES.indexOf(role) >= ADMIN_ROLES.indexOf(required);
}

/** The role of the signed-in token, for every page; undefined until the session says. */
export const RoleContext = createContext<AdminRole | undefined>(undefined);

/** Who is signed in, for what is theirs ("My findings"): a person (with their account id) or a token; undefined until known. */
export interface SignedIn {
  kind: 'user' | 'token';
  userId?: string;
}
export const SignedInContext = createContext<SignedIn | undefined>(undefined);

/** Whether the signed-in token may run `operationId`. */
export const useCan = (operationId: AdminOperationId): boolean => can(useContext(RoleContext), operationId);
