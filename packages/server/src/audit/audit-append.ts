import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { Database, SqlDialect } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { AuditEvent } from '../generated/types.gen.js';
import { writeEvents } from '../webhooks/outbox.js';
import { toAuditEvent, type AuditEntry } from './audit-entry.js';
import { entryHash, GENESIS_HASH, type HashedFields } from './audit-hash.js';

/** The one row of `audit_chain_head`. */
const HEAD_ID = 1;

/** Longest stored text of the columns filled from the request (the rest is bounded by the contract or by us). */
const COLUMN_LENGTHS = { actorName: 255, actorId: 255, targetId: 255, sourceAddress: 64, userAgent: 512, requestId: 64 } as const;

/**
 * Appends an entry to the audit trail and offers it to webhooks (`audit.event`), in one transaction: the chain's
 * head row is locked first (`select … for update`; SQLite lets one writer in at a time anyway), so entries written
 * by servers sharing a database take consecutive sequences, each chained to the one before.
 */
export async function appendAuditEvent(database: Database, entry: AuditEntry, now: Date = new Date()): Promise<AuditEvent> {
  const dialect = sqlDialectOf(database.em);
  return database.em.getKnex().transaction(async (trx) => {
    await dialect.startWriting(trx);
    const head = await lockedHead(trx, dialect);
    const fields = hashedFields(Number(head.sequence) + 1, now, entry);
    const hash = entryHash(head.hash, fields);
    await trx('audit_event').insert({ ...columnsOf(fields), at: dialect.toDatabaseTime(now), previous_hash: head.hash, hash });
    await trx('audit_chain_head').where('id', HEAD_ID).update({ sequence: fields.sequence, hash });
    const event = toAuditEvent({ ...fields, at: now, previousHash: head.hash, hash });
    await writeEvents(trx, [{ type: 'audit.event', data: event }], dialect.toDatabaseTime(now));
    return event;
  });
}

/**
 * The chain's head, locked until commit. The migration writes it; should it be missing (a database emptied by hand),
 * it is written again for an empty trail, whichever server gets there first.
 */
async function lockedHead(trx: Knex.Transaction, dialect: SqlDialect): Promise<{ sequence: number; hash: string }> {
  const read = async () =>
    ((await dialect.lockRows(trx('audit_chain_head').select('sequence', 'hash').where('id', HEAD_ID))) as { sequence: number; hash: string }[])[0];
  const head = await read();
  if (head) return head;
  await trx('audit_chain_head').insert({ id: HEAD_ID, sequence: 0, hash: GENESIS_HASH }).onConflict('id').ignore();
  return (await read())!;
}

function hashedFields(sequence: number, at: Date, entry: AuditEntry): HashedFields {
  return {
    sequence,
    id: randomUUID(),
    at: at.toISOString(),
    actorKind: entry.actor.kind,
    actorId: clipped(entry.actor.id, COLUMN_LENGTHS.actorId),
    actorName: clipped(entry.actor.name, COLUMN_LENGTHS.actorName),
    actorRole: entry.actor.role,
    operation: entry.operation,
    targetType: entry.target?.type ?? null,
    targetId: clipped(entry.target?.id ?? null, COLUMN_LENGTHS.targetId),
    changes: entry.changes && Object.keys(entry.changes).length > 0 ? JSON.stringify(entry.changes) : null,
    outcome: entry.outcome,
    status: entry.status,
    sourceAddress: clipped(entry.sourceAddress, COLUMN_LENGTHS.sourceAddress),
    userAgent: clipped(entry.userAgent, COLUMN_LENGTHS.userAgent),
    requestId: clipped(entry.requestId, COLUMN_LENGTHS.requestId),
  };
}

/** The fields as `audit_event`'s columns (`at` aside, which each dialect stores its way). */
function columnsOf(fields: HashedFields): Record<string, unknown> {
  return {
    sequence: fields.sequence,
    id: fields.id,
    actor_kind: fields.actorKind,
    actor_id: fields.actorId,
    actor_name: fields.actorName,
    actor_role: fields.actorRole,
    operation: fields.operation,
    target_type: fields.targetType,
    target_id: fields.targetId,
    changes: fields.changes,
    outcome: fields.outcome,
    status: fields.status,
    source_address: fields.sourceAddress,
    user_agent: fields.userAgent,
    request_id: fields.requestId,
  };
}

const clipped = (text: string | null, length: number) => (text === null ? null : text.slice(0, length));
