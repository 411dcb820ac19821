// The fleet's findings read whole, a page at a time: for exports, which must hold one page at most however many
// findings the fleet has.
import type { Database } from '../database/dialect.js';
import { pagesOf } from '../exports/export-body.js';
import type { AccessScope } from '../people/scope.js';
import { filteredFindings, type TrackedFindingFilters } from './finding-queries.js';
import { toTrackedFinding, type TrackedFinding } from './finding-records.js';

/** Findings read per page. */
const PAGE = 1000;

/** The fleet list's filters an export takes (`listTrackedFindings`'s, less the owner and age). */
export type TrackedFindingExportFilters = Pick<TrackedFindingFilters, 'states' | 'group' | 'kind' | 'testId' | 'hideLynis'>;

type TrackedRow = Parameters<typeof toTrackedFinding>[0];

/**
 * Every finding `trackedFindingPage` would list with these filters, in its order (oldest first, then by id), a page
 * at a time: keyset paging on the first-seen time and id, so each page starts where the last ended without offsets.
 * Decommissioned hosts' findings and those of hosts out of `scope` are left out, as the list leaves them out.
 */
export async function* trackedFindingsOldestFirst(
  database: Database,
  scope: AccessScope,
  filters: TrackedFindingExportFilters,
  pageSize = PAGE,
): AsyncGenerator<TrackedFinding[]> {
  const readPage = (after: TrackedRow | undefined) => {
    const query = filteredFindings(database, scope, filters);
    // The key as the database gave it: no conversion that could round the time and read a row twice.
    if (after) query.whereRaw('(f.first_seen, f.id) > (?, ?)', [after.first_seen, after.id]);
    return query.orderBy([{ column: 'f.first_seen' }, { column: 'f.id' }]).limit(pageSize) as Promise<TrackedRow[]>;
  };
  for await (const page of pagesOf(readPage, (row) => row, pageSize)) yield page.map(toTrackedFinding);
}
