import { fieldChanges } from '../audit/audit-changes.js';
import { hashPassword } from '../people/passwords.js';
import { normalizeScope } from '../people/scope.js';
import { addUser, changeUser, deleteUserById, findUserById, listEnabledUsers, listUsers as readUsers, type UserSummary } from '../people/user-records.js';
import { actorLogFields } from './actor.js';
import type { AdminHandler, AdminHandlers } from './operation.js';

/** An account as the contract gives it: how it signs in, never its password hash. */
export const userBody = (user: UserSummary) => ({
  id: user.id,
  email: user.email,
  displayName: user.displayName,
  role: user.role,
  scope: user.scope,
  disabled: user.disabledAt !== null,
  signIn: [...(user.hasPassword ? (['password'] as const) : []), ...(user.hasSso ? (['sso'] as const) : [])],
  createdAt: user.createdAt,
  lastSignInAt: user.lastSignInAt,
});

/** `GET /api/admin/users`: every account, by email. */
const listUsers: AdminHandler<'listUsers'> = async (_input, { database }) => ({ status: 200, body: { items: (await readUsers(database)).map(userBody) } });

/** A person as an operator sees them to assign work: who they are, never how they sign in, their role or scope. */
const personBody = (user: UserSummary) => ({ id: user.id, email: user.email, name: user.displayName });

/** `GET /api/admin/people`: every enabled account, by email, for picking a finding's owner or approver. */
const listPeople: AdminHandler<'listPeople'> = async (_input, { database }) => ({
  status: 200,
  body: { items: (await listEnabledUsers(database)).map(personBody) },
});

/** `POST /api/admin/users`: with a password (hashed with argon2id here) or, without one, for single sign-on only. */
const createUser: AdminHandler<'createUser'> = async ({ body, actor, audit }, { database, logger }) => {
  const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
  const user = await addUser(database, { email: body.email, role: body.role, displayName: body.displayName, passwordHash, scope: normalizeScope(body.scope) });
  logger.info({ targetUserId: user.id, role: user.role, ...actorLogFields(actor) }, 'user created');
  audit.changes = fieldChanges(undefined, userBody(user), AUDITED_USER_FIELDS);
  return { status: 201, body: userBody(user) };
};

/** `PATCH /api/admin/users/{userId}`: the fields given; the last enabled admin stays one (409). */
const updateUser: AdminHandler<'updateUser'> = async ({ path, body, actor, audit }, { database, logger }) => {
  const before = await findUserById(database, path.userId);
  const user = await changeUser(database, path.userId, body);
  audit.changes = fieldChanges(before && userBody(before), userBody(user), AUDITED_USER_FIELDS);
  logger.info({ targetUserId: user.id, changed: Object.keys(body), ...actorLogFields(actor) }, 'user changed');
  return { status: 200, body: userBody(user) };
};

/** `DELETE /api/admin/users/{userId}`: with its sessions and personal tokens; never the last enabled admin (409). */
const deleteUser: AdminHandler<'deleteUser'> = async ({ path, actor, audit }, { database, logger }) => {
  const user = await deleteUserById(database, path.userId);
  audit.changes = fieldChanges(userBody(user), undefined, AUDITED_USER_FIELDS);
  logger.info({ targetUserId: path.userId, ...actorLogFields(actor) }, 'user deleted');
  return { status: 204 };
};

/** What the audit trail says changed of an account: never its password nor its hash. */
const AUDITED_USER_FIELDS = ['email', 'displayName', 'role', 'scope', 'disabled'] as const;

export const userRoutes = {
  listUsers,
  createUser,
  updateUser,
  deleteUser,
  listPeople,
} satisfies AdminHandlers<'listUsers' | 'createUser' | 'updateUser' | 'deleteUser' | 'listPeople'>;
