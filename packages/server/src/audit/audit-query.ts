import type { FilterQuery } from '@mikro-orm/core';
import type { Database } from '../database/dialect.js';
import { AuditEventRecord } from '../database/entities.js';
import type { AuditEventPage, AuditOutcome } from '../generated/types.gen.js';
import { pagesOf } from '../exports/export-body.js';
import { toAuditEvent } from './audit-entry.js';

/** What the trail's list and export filter on; each one given narrows the entries. */
export interface AuditFilters {
  actor?: string;
  operation?: string;
  targetType?: string;
  targetId?: string;
  outcome?: AuditOutcome;
  since?: string;
  until?: string;
}

/** Entries per page of an export or a verification: flat memory however long the trail. */
export const AUDIT_PAGE_SIZE = 500;

/** One page of the trail, newest first, older than `before` (a sequence) when given. */
export async function listAuditEvents(database: Database, filters: AuditFilters, page: { limit: number; before?: number }): Promise<AuditEventPage> {
  const where = whereOf(filters);
  const records = await database.em.fork().find(AuditEventRecord, page.before === undefined ? where : { $and: [where, { sequence: { $lt: page.before } }] }, {
    orderBy: { sequence: 'desc' },
    limit: page.limit + 1,
  });
  const items = records.slice(0, page.limit).map(toAuditEvent);
  return { items, nextBefore: records.length > page.limit ? items.at(-1)!.sequence : null };
}

/** Every entry the filters select, oldest first, a page at a time (keyset paging on the sequence). */
export async function* auditEventsOldestFirst(database: Database, filters: AuditFilters, pageSize = AUDIT_PAGE_SIZE): AsyncGenerator<AuditEventRecord[]> {
  const where = whereOf(filters);
  const readPage = (after: number | undefined) =>
    database.em
      .fork()
      .find(AuditEventRecord, after === undefined ? where : { $and: [where, { sequence: { $gt: after } }] }, { orderBy: { sequence: 'asc' }, limit: pageSize });
  yield* pagesOf(readPage, (record) => record.sequence, pageSize);
}

function whereOf(filters: AuditFilters): FilterQuery<AuditEventRecord> {
  const conditions: FilterQuery<AuditEventRecord>[] = [];
  if (filters.actor !== undefined) conditions.push({ $or: [{ actorName: filters.actor }, { actorId: filters.actor }] });
  if (filters.operation !== undefined) conditions.push({ operation: filters.operation });
  if (filters.targetType !== undefined) conditions.push({ targetType: filters.targetType });
  if (filters.targetId !== undefined) conditions.push({ targetId: filters.targetId });
  if (filters.outcome !== undefined) conditions.push({ outcome: filters.outcome });
  if (filters.since !== undefined) conditions.push({ at: { $gte: new Date(filters.since) } });
  if (filters.until !== undefined) conditions.push({ at: { $lt: new Date(filters.until) } });
  return conditions.length === 0 ? {} : { $and: conditions };
}
