import { isAdminRole, type AdminRole } from '../admin/roles.js';
import { DomainError } from '../errors/domain-error.js';
import { ADMIN_ROLES } from '../generated/admin-operations.gen.js';

/**
 * What a person may do, least first (viewer < operator < admin): the roles of admin tokens, which the contract
 * gives each admin operation (`x-required-role`), so that a person's role and a token's mean the same.
 */
export const ROLES = ADMIN_ROLES;
export type Role = AdminRole;

/** `text` as a role; an `invalid` {@link DomainError} naming the roles otherwise. */
export function parseRole(text: string): Role {
  if (!isAdminRole(text)) throw new DomainError('invalid', `Unknown role "${text}": give one of ${ROLES.join(', ')}`);
  return text;
}
