import { DomainError } from '../errors/domain-error.js';
import { ADMIN_ROLES } from '../generated/admin-operations.gen.js';

/**
 * What a person or an admin token may do, least first (viewer < operator < admin): each role includes the ones
 * before it. The contract declares them (`AdminRole`) and gives each admin operation the least it needs
 * (`x-required-role`), so that a person's role and a token's mean the same.
 */
export const ROLES = ADMIN_ROLES;
export type AdminRole = (typeof ROLES)[number];

/** The role of tokens made without one: every token made before roles existed could do everything. */
export const DEFAULT_ADMIN_ROLE: AdminRole = 'admin';

/** Whether `text` names a role. */
export const isAdminRole = (text: string): text is AdminRole => (ROLES as readonly string[]).includes(text);

/** Whether `role` may run an operation that requires `required`. */
export const roleAllows = (role: AdminRole, required: AdminRole): boolean => ROLES.indexOf(role) >= ROLES.indexOf(required);

/** `text` as a role; an `invalid` {@link DomainError} naming the roles otherwise. */
export function parseRole(text: string): AdminRole {
  if (!isAdminRole(text)) throw new DomainError('invalid', `Unknown role "${text}": give one of ${ROLES.join(', ')}`);
  return text;
}
