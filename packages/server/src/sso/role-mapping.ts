import { isAdminRole, ROLES, type AdminRole } from '../people/roles.js';

/** Which role a value of the role claim gives, e.g. `sec-admins` → admin. */
export type RoleMap = ReadonlyMap<string, AdminRole>;

/** The role people get whose claim maps to no role; `none` refuses them. */
export type DefaultRole = AdminRole | 'none';

/**
 * `sec-admins=admin,sec-ops=operator,auditors=viewer` as a {@link RoleMap}: pairs separated by commas, each a
 * claim value, `=`, and a role. Throws a message naming the first pair that is not one.
 */
export function parseRoleMap(text: string): RoleMap {
  const map = new Map<string, AdminRole>();
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.lastIndexOf('=');
    const value = pair.slice(0, at).trim();
    const role = pair.slice(at + 1).trim();
    if (at < 0 || value === '' || !isAdminRole(role)) {
      throw new Error(`"${pair.trim()}" is not value=role (role one of ${ROLES.join(', ')})`);
    }
    map.set(value, role);
  }
  return map;
}

/** The values of a role claim: a string is one value, an array its strings; anything else none. */
export function claimValues(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  if (Array.isArray(claim)) return claim.filter((value): value is string => typeof value === 'string');
  return [];
}

/**
 * The role a person gets from their role claim: the highest role any of its values maps to, else the default
 * role; undefined when nothing maps and the default is `none` (the person is refused).
 */
export function roleFromClaim(claim: unknown, map: RoleMap, defaultRole: DefaultRole): AdminRole | undefined {
  const mapped = claimValues(claim).flatMap((value) => map.get(value) ?? []);
  const highest = mapped.reduce<AdminRole | undefined>(
    (best, role) => (best === undefined || ROLES.indexOf(role) > ROLES.indexOf(best) ? role : best),
    undefined,
  );
  return highest ?? (defaultRole === 'none' ? undefined : defaultRole);
}
