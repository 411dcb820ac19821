import type { Database } from '../database/dialect.js';
import { AuditChainHeadRecord, type AuditEventRecord } from '../database/entities.js';
import { entryHash, type HashedFields } from './audit-hash.js';
import { auditEventsOldestFirst } from './audit-query.js';

/** What a walk of the chain found: how many entries it checked and, when broken, the first entry where it breaks. */
export type ChainVerdict = { intact: true; checked: number } | { intact: false; checked: number; sequence: number; problem: string };

/**
 * Walks the whole trail oldest first, a page at a time. The oldest entry left (retention removes from the start) is
 * the anchor: its `previousHash` is trusted. Every entry must then hash to its `hash`, follow the entry before it
 * (the next sequence, its `previousHash` that entry's `hash`), and the last must be the chain's head: so an entry
 * altered, or removed anywhere after the anchor (the newest included), is found.
 */
export async function verifyAuditChain(database: Database, pageSize?: number): Promise<ChainVerdict> {
  let checked = 0;
  let previous: AuditEventRecord | undefined;
  for await (const page of auditEventsOldestFirst(database, {}, pageSize)) {
    for (const record of page) {
      const problem = previous ? linkProblem(previous, record) : undefined;
      if (problem) return { intact: false, checked, sequence: record.sequence, problem };
      if (entryHash(record.previousHash, hashedFieldsOf(record)) !== record.hash) {
        return { intact: false, checked, sequence: record.sequence, problem: 'its fields no longer match its hash: the entry was altered' };
      }
      checked += 1;
      previous = record;
    }
  }
  const head = await database.em.fork().findOne(AuditChainHeadRecord, { id: 1 });
  const headSequence = head?.sequence ?? 0;
  if (headSequence !== (previous?.sequence ?? headSequence) || (previous && head?.hash !== previous.hash)) {
    return {
      intact: false,
      checked,
      sequence: (previous?.sequence ?? 0) + 1,
      problem: `the chain's head is entry ${headSequence}: entries after ${previous?.sequence} were removed`,
    };
  }
  return { intact: true, checked };
}

/** Why `record` does not follow `previous` in the chain, if it does not. */
function linkProblem(previous: AuditEventRecord, record: AuditEventRecord): string | undefined {
  if (record.sequence !== previous.sequence + 1) return `the entry before it (${record.sequence - 1}) was removed`;
  if (record.previousHash !== previous.hash) return `its previousHash is not the hash of entry ${previous.sequence}: one of the two was altered`;
  return undefined;
}

/** A stored entry's fields as they were hashed when it was written. */
function hashedFieldsOf(record: AuditEventRecord): HashedFields {
  return {
    sequence: record.sequence,
    id: record.id,
    at: record.at.toISOString(),
    actorKind: record.actorKind,
    actorId: record.actorId ?? null,
    actorName: record.actorName ?? null,
    actorRole: record.actorRole ?? null,
    operation: record.operation,
    targetType: record.targetType ?? null,
    targetId: record.targetId ?? null,
    changes: record.changes ?? null,
    outcome: record.outcome,
    status: record.status,
    sourceAddress: record.sourceAddress ?? null,
    userAgent: record.userAgent ?? null,
    requestId: record.requestId ?? null,
  };
}
