import type { Database } from '../database/dialect.js';
import { findAdminToken } from '../secrets/admin-tokens.js';
import type { AdminActor } from './operation.js';

/** Who made a change, for the log: the admin token's id or the person's account id (never a secret). */
export function actorLogFields(actor: AdminActor): { adminTokenId: string } | { userId: string } {
  return actor.kind === 'token' ? { adminTokenId: actor.tokenId } : { userId: actor.user.id };
}

/** Who made a change, as stored with it (a waiver's creator): the token's label or the person's email. */
export async function actorLabel(database: Database, actor: AdminActor): Promise<string | null> {
  if (actor.kind === 'user') return actor.user.email;
  return (await findAdminToken(database, actor.tokenId))?.label ?? null;
}
