import { createHash } from 'node:crypto';

/** The `previousHash` of the first entry of the chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** An entry's fields as they are hashed (and stored): `changes` as the stored JSON text, `at` as an ISO 8601 string. */
export interface HashedFields {
  sequence: number;
  id: string;
  at: string;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  actorRole: string | null;
  operation: string;
  targetType: string | null;
  targetId: string | null;
  changes: string | null;
  outcome: string;
  status: number;
  sourceAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** The order the fields are hashed in: fixed, so that a verifier hashes exactly what the writer hashed. */
const FIELD_ORDER = [
  'sequence',
  'id',
  'at',
  'actorKind',
  'actorId',
  'actorName',
  'actorRole',
  'operation',
  'targetType',
  'targetId',
  'changes',
  'outcome',
  'status',
  'sourceAddress',
  'userAgent',
  'requestId',
] as const satisfies readonly (keyof HashedFields)[];

/** SHA-256 (hex) over the previous entry's hash and a canonical JSON of this entry's fields (an array, in {@link FIELD_ORDER}). */
export function entryHash(previousHash: string, fields: HashedFields): string {
  const canonical = JSON.stringify(FIELD_ORDER.map((name) => fields[name]));
  return createHash('sha256').update(previousHash, 'utf8').update(canonical, 'utf8').digest('hex');
}
