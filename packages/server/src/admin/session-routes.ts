import { anonymousActor, userActor } from '../audit/audit-entry.js';
import { CLEARED_SESSION_COOKIE } from '../people/sessions.js';
import { verifyCredentials } from '../people/passwords.js';
import { recordSignIn } from '../people/user-records.js';
import { findAdminToken } from '../secrets/admin-tokens.js';
import type { AdminHandler, AdminHandlers } from './operation.js';
import { jsonResponse, problemResponse } from './responses.js';

/**
 * `GET /api/admin/session`: the person (id, email, name, role, scope) or the admin token (id, label, prefix, role,
 * scope, and a personal one's owner) of the request, never a secret.
 */
const getAdminSession: AdminHandler<'getAdminSession'> = async ({ actor }, { database }) => {
  if (actor.kind === 'user') {
    const { id: userId, email, displayName } = actor.user;
    return { raw: jsonResponse(200, { kind: 'user', email, displayName, role: actor.role, userId, scope: actor.scope }) };
  }
  const token = await findAdminToken(database, actor.tokenId);
  // Revoked between the check and this read: as good as unknown, answered as the API answers an unknown token.
  if (!token) return { raw: problemResponse(401, 'The admin token is unknown or revoked', { 'www-authenticate': 'Bearer error="invalid_token"' }) };
  const owner = token.owner ? { userId: token.owner.id } : {};
  // The role and scope the request acts with: a personal token's may be less than it was given.
  return {
    raw: jsonResponse(200, { kind: 'token', tokenId: token.id, label: token.label, prefix: token.prefix, role: actor.role, ...owner, scope: actor.scope }),
  };
};

/**
 * `POST /api/admin/session`: checks the email and password and starts a session. While the account or the address
 * is locked out the password is not even checked, so the right one does not get in either; every failure answers
 * the same, whether the email is unknown, the password wrong or the account disabled.
 */
const signIn: AdminHandler<'signIn'> = async ({ body, client, audit }, { database, logger, sessions, signInLockout }) => {
  audit.actor = anonymousActor(body.email);
  const attempt = { email: body.email, address: client.address ?? 'unknown' };
  const allowed = await signInLockout.checkSignInAllowed(attempt);
  if (!allowed.allowed) return { raw: tooManySignIns(allowed.retryAfterSeconds) };
  const checked = await verifyCredentials(database, body.email, body.password);
  if (!checked.ok) {
    const after = await signInLockout.recordSignInFailure(attempt);
    logger.warn({ remoteAddress: client.address, reason: checked.reason }, 'sign-in failed');
    return { raw: after.allowed ? problemResponse(401, 'Invalid credentials') : tooManySignIns(after.retryAfterSeconds) };
  }
  await signInLockout.recordSignInSuccess(attempt);
  audit.actor = userActor(checked.user);
  const sessionId = await sessions.start(checked.user.id);
  await recordSignIn(database, checked.user.id);
  logger.info({ userId: checked.user.id, remoteAddress: client.address }, 'signed in');
  return { raw: { status: 204, headers: { 'set-cookie': sessions.setCookie(sessionId) }, body: '' } };
};

/** `DELETE /api/admin/session`: ends the cookie's session, if any, and clears the cookie. */
const signOut: AdminHandler<'signOut'> = async ({ client, audit }, { sessions }) => {
  const user = client.sessionId ? await sessions.resume(client.sessionId) : undefined;
  if (user) audit.actor = userActor(user);
  if (client.sessionId) await sessions.end(client.sessionId);
  return { raw: { status: 204, headers: { 'set-cookie': CLEARED_SESSION_COOKIE }, body: '' } };
};

const tooManySignIns = (retryAfterSeconds: number) =>
  problemResponse(429, 'Too many failed sign-ins; try again later', { 'retry-after': String(retryAfterSeconds) });

export const sessionRoutes = { getAdminSession, signIn, signOut } satisfies AdminHandlers<'getAdminSession' | 'signIn' | 'signOut'>;
