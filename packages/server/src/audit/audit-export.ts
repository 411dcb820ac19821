import type { Database } from '../database/dialect.js';
import type { AuditEvent } from '../generated/types.gen.js';
import { exportStream, jsonLinesStream, type ExportStream } from '../exports/export-body.js';
import { toAuditEvent } from './audit-entry.js';
import { auditEventsOldestFirst, type AuditFilters } from './audit-query.js';

/** The CSV columns: the `AuditEvent`'s fields, the actor and target flattened. */
const AUDIT_COLUMNS = [
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
  'previousHash',
  'hash',
];

/** The trail's entries the filters select, oldest first, streamed a page at a time as CSV or JSON Lines. */
export function auditExport(database: Database, format: 'csv' | 'jsonl', filters: AuditFilters): ExportStream {
  if (format === 'jsonl') return jsonLinesStream('audit-events', auditEvents(database, filters));
  return exportStream('csv', 'audit-events', AUDIT_COLUMNS, csvRows(database, filters));
}

async function* auditEvents(database: Database, filters: AuditFilters): AsyncGenerator<AuditEvent[]> {
  for await (const page of auditEventsOldestFirst(database, filters)) yield page.map(toAuditEvent);
}

async function* csvRows(database: Database, filters: AuditFilters): AsyncGenerator<Record<string, unknown>> {
  for await (const page of auditEvents(database, filters)) {
    for (const event of page) {
      const { actor, target, changes, ...rest } = event;
      yield {
        ...rest,
        actorKind: actor.kind,
        actorId: actor.id,
        actorName: actor.name,
        actorRole: actor.role,
        targetType: target?.type ?? null,
        targetId: target?.id ?? null,
        // JSON text, neutralised like every text cell.
        changes: changes === null ? null : JSON.stringify(changes),
      };
    }
  }
}
