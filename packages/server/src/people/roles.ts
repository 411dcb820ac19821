import { DomainError } from '../errors/domain-error.js';
import { ADMIN_ROLES } from '../generated/admin-operations.gen.js';

/**
 * What a person may do, least first (viewer < operator < admin): the roles the contract gives admin operations
 * (`x-required-role`), so that a person's role and a token's mean the same.
 */
export const ROLES = ADMIN_ROLES;
export type Role = (typeof ROLES)[number];

/** Whether `text` names a role. */
export const isRole = (text: string): text is Role => (ROLES as readonly string[]).includes(text);

/** `text` as a role; an `invalid` {@link DomainError} naming the roles otherwise. */
export function parseRole(text: string): Role {
  if (!isRole(text)) throw new DomainError('invalid', `Unknown role "${text}": give one of ${ROLES.join(', ')}`);
  return text;
}
