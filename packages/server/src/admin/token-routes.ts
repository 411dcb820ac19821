import { fieldChanges } from '../audit/audit-changes.js';
import { DomainError } from '../errors/domain-error.js';
import {
  createPersonalToken,
  createServiceToken as saveServiceToken,
  findAdminToken,
  listAdminTokens as readAdminTokens,
  listPersonalTokens,
  revokeAdminTokenOrFail,
  revokePersonalTokenOrFail,
} from '../secrets/admin-tokens.js';
import { actorLogFields } from './actor.js';
import type { AdminActor, AdminContext, AdminHandler, AdminHandlers } from './operation.js';

/** The signed-in person of a request; a `conflict` for a token, since tokens belong to people, not to tokens. */
function signedInPerson(actor: AdminActor): string {
  if (actor.kind !== 'user') throw new DomainError('conflict', 'Personal tokens belong to people: sign in with email and password (or SSO) to manage yours');
  return actor.user.id;
}

/** A time the contract gives as text, or null for none. */
const expiryOf = (expiresAt: string | null | undefined): Date | null => (expiresAt ? new Date(expiresAt) : null);

/** The answer to a new token: it as listed and, this once, the token itself. */
async function newTokenBody(database: AdminContext['database'], created: { id: string; token: string }) {
  const token = await findAdminToken(database, created.id);
  if (!token) throw new Error('a token just created is missing');
  return { status: 201 as const, body: { token, adminToken: created.token } };
}

/** `GET /api/admin/session/tokens`: the person's own tokens, newest first. */
const listMyTokens: AdminHandler<'listMyTokens'> = async ({ actor }, { database }) => ({
  status: 200,
  body: { items: await listPersonalTokens(database, signedInPerson(actor)) },
});

/** `POST /api/admin/session/tokens`: a personal token, at most the person's role. */
const createMyToken: AdminHandler<'createMyToken'> = async ({ actor, body, audit }, { database, logger }) => {
  audit.changes = fieldChanges(undefined, body, ['label', 'role', 'expiresAt']);
  const ownerUserId = signedInPerson(actor);
  const created = await createPersonalToken(database, { ownerUserId, label: body.label, role: body.role, expiresAt: expiryOf(body.expiresAt) });
  logger.info({ createdTokenId: created.id, kind: 'personal', ...actorLogFields(actor) }, 'admin token created');
  return newTokenBody(database, created);
};

/** `POST /api/admin/session/tokens/{tokenId}/revoke`: only the person's own. */
const revokeMyToken: AdminHandler<'revokeMyToken'> = async ({ actor, path }, { database, logger }) => {
  await revokePersonalTokenOrFail(database, signedInPerson(actor), path.tokenId);
  logger.info({ revokedTokenId: path.tokenId, ...actorLogFields(actor) }, 'admin token revoked');
  return { status: 204 };
};

/** `GET /api/admin/tokens`: every token, oldest first. */
const listAdminTokens: AdminHandler<'listAdminTokens'> = async (_input, { database }) => ({ status: 200, body: { items: await readAdminTokens(database) } });

/** `POST /api/admin/tokens`: a service account's token with its own role and scope. */
const createServiceToken: AdminHandler<'createServiceToken'> = async ({ actor, body, audit }, { database, logger }) => {
  audit.changes = fieldChanges(undefined, body, ['serviceAccount', 'label', 'role', 'scope', 'expiresAt']);
  const created = await saveServiceToken(database, { ...body, expiresAt: expiryOf(body.expiresAt) });
  logger.info({ createdTokenId: created.id, kind: 'service', ...actorLogFields(actor) }, 'admin token created');
  return newTokenBody(database, created);
};

/** `POST /api/admin/tokens/{tokenId}/revoke`: any token. */
const revokeAdminToken: AdminHandler<'revokeAdminToken'> = async ({ actor, path }, { database, logger }) => {
  await revokeAdminTokenOrFail(database, path.tokenId);
  logger.info({ revokedTokenId: path.tokenId, ...actorLogFields(actor) }, 'admin token revoked');
  return { status: 204 };
};

export const tokenRoutes = { listMyTokens, createMyToken, revokeMyToken, listAdminTokens, createServiceToken, revokeAdminToken } satisfies AdminHandlers<
  'listMyTokens' | 'createMyToken' | 'revokeMyToken' | 'listAdminTokens' | 'createServiceToken' | 'revokeAdminToken'
>;
