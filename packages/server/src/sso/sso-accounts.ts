import type { Database } from '../database/dialect.js';
import { UserRecord } from '../database/entities.js';
import { isDomainError } from '../errors/domain-error.js';
import type { AdminRole } from '../people/roles.js';
import { addUser, findUser, findUserById, normalizeEmail, setUserRole, type UserSummary } from '../people/user-records.js';
import type { ProviderIdentity } from './identity-provider.js';
import { roleFromClaim } from './role-mapping.js';
import type { SsoSettings } from './sso-settings.js';

/** Why a person the provider vouched for is not signed in here. */
export type AccountRefusal =
  /** No email, an unverified one, or one that is no address. */
  | 'email'
  /** The role claim maps to no role and there is no default role. */
  | 'no_role'
  /** The account is disabled. */
  | 'disabled'
  /** The email's account is linked to another identity of the provider. */
  | 'linked';

export type AccountOutcome =
  { ok: true; user: UserSummary; created: boolean; roleChanged: boolean; roleKept?: AdminRole } | { ok: false; reason: AccountRefusal; email?: string };

/** Longest display name taken from the provider; longer ones are cut (`user-records.ts` refuses more than 255). */
const NAME_MAX_LENGTH = 255;
// eslint-disable-next-line no-control-regex -- control characters are what the pattern takes out
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The account of the person the provider vouched for. Found by the provider's identity (issuer, subject), else by
 * email (and linked to that identity), else made just in time without a password. With a role map, the claim
 * decides the role at every sign-in (the default role when nothing maps); without one, roles are given here
 * (People page, `users set-role`): an account keeps its role, a new one gets the default role. A changed role ends
 * the account's other sessions (`setUserRole`).
 */
export async function accountForIdentity(database: Database, identity: ProviderIdentity, settings: SsoSettings): Promise<AccountOutcome> {
  const email = verifiedEmail(identity.claims);
  if (email === undefined) return { ok: false, reason: 'email' };
  const found = await findLinkedOrByEmail(database, identity, email);
  if (found === 'linked') return { ok: false, reason: 'linked', email };
  if (found?.disabledAt) return { ok: false, reason: 'disabled', email: found.email };
  const rolesGivenHere = settings.roleMap.size === 0;
  const role = found && rolesGivenHere ? found.role : roleFromClaim(identity.claims[settings.roleClaim], settings.roleMap, settings.defaultRole);
  if (role === undefined) return { ok: false, reason: 'no_role', email: found?.email ?? email };
  if (!found) {
    const oidc = { issuer: identity.issuer, subject: identity.subject };
    const user = await addUser(database, { email, role, displayName: displayNameOf(identity.claims), passwordHash: null, oidc });
    return { ok: true, user, created: true, roleChanged: false };
  }
  if (found.role === role) return { ok: true, user: found, created: false, roleChanged: false };
  try {
    return { ok: true, user: await setUserRole(database, found.email, role), created: false, roleChanged: true };
  } catch (error) {
    // The last enabled admin keeps the role: someone must always be able to manage the server.
    if (isDomainError(error, 'conflict')) return { ok: true, user: found, created: false, roleChanged: false, roleKept: found.role };
    throw error;
  }
}

/** The account linked to the identity; else the email's, linked now; `linked` when the email's is another identity's. */
async function findLinkedOrByEmail(database: Database, identity: ProviderIdentity, email: string): Promise<UserSummary | 'linked' | undefined> {
  const em = database.em.fork();
  const linked = await em.findOne(UserRecord, { oidcIssuer: identity.issuer, oidcSubject: identity.subject }, { fields: ['id'] });
  if (linked) return findUserById(database, linked.id);
  const byEmail = await findUser(database, email);
  if (!byEmail) return undefined;
  if (byEmail.hasSso) return 'linked';
  await em.nativeUpdate(UserRecord, { id: byEmail.id }, { oidcIssuer: identity.issuer, oidcSubject: identity.subject, updatedAt: new Date() });
  return (await findUserById(database, byEmail.id))!;
}

/** The `email` claim, normalized, unless absent, no address, or said unverified (`email_verified: false`). */
function verifiedEmail(claims: Record<string, unknown>): string | undefined {
  const email = claims['email'];
  const verified = claims['email_verified'];
  if (typeof email !== 'string' || verified === false || verified === 'false') return undefined;
  try {
    return normalizeEmail(email);
  } catch {
    return undefined;
  }
}

/** The `name` claim as a display name: control characters out, cut to the longest allowed; undefined when none. */
function displayNameOf(claims: Record<string, unknown>): string | undefined {
  const name = claims['name'];
  if (typeof name !== 'string') return undefined;
  return [...name.replace(CONTROL_CHARACTERS, ' ').trim()].slice(0, NAME_MAX_LENGTH).join('') || undefined;
}
