import type { Database } from '../database/dialect.js';
import { AdminTokenRecord } from '../database/entities.js';

/** How the trail names a token: its service account, else its label; null for a token gone since. */
export async function tokenActorName(database: Database, tokenId: string): Promise<string | null> {
  const token = await database.em.fork().findOne(AdminTokenRecord, { id: tokenId }, { fields: ['label', 'serviceAccount'] });
  return token?.serviceAccount ?? token?.label ?? null;
}
