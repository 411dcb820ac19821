import type { Database } from '../database/dialect.js';
import { trackedFindingsOldestFirst, type TrackedFindingExportFilters } from '../findings/tracked-finding-pages.js';
import type { TrackedFinding } from '../generated/types.gen.js';
import type { AccessScope } from '../people/scope.js';
import { exportStream, jsonLinesStream, type ExportStream } from './export-body.js';

/** The CSV columns: the `TrackedFinding`'s fields, the acceptance flattened, the owner by email. */
export const FINDING_STATE_COLUMNS = [
  'id',
  'hostRecordId',
  'hostname',
  'kind',
  'testId',
  'text',
  'state',
  'stateSince',
  'ownerEmail',
  'dueAt',
  'acceptReason',
  'acceptApprover',
  'acceptExpiresAt',
  'firstSeen',
  'lastSeen',
  'resolvedAt',
  'regressions',
];

/** The fleet's findings with their lifecycle the filters select, oldest first, streamed a page at a time as CSV or JSON Lines. */
export function findingStateExport(database: Database, scope: AccessScope, format: 'csv' | 'jsonl', filters: TrackedFindingExportFilters): ExportStream {
  const pages = trackedFindingsOldestFirst(database, scope, filters);
  if (format === 'jsonl') return jsonLinesStream('finding-states', pages);
  return exportStream('csv', 'finding-states', FINDING_STATE_COLUMNS, csvRows(pages));
}

async function* csvRows(pages: AsyncIterable<TrackedFinding[]>): AsyncGenerator<Record<string, unknown>> {
  for await (const page of pages) for (const finding of page) yield csvRow(finding);
}

/** One finding as a CSV row: the approver by email (by id when the person has no email left to show). */
function csvRow(finding: TrackedFinding): Record<string, unknown> {
  const { acceptance } = finding;
  return {
    ...finding,
    acceptReason: acceptance?.reason ?? null,
    acceptApprover: acceptance === null ? null : (acceptance.approverEmail ?? acceptance.approverUserId),
    acceptExpiresAt: acceptance?.expiresAt ?? null,
  };
}
