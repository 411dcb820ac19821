import { exportStream, type ExportFormat, type ExportStream } from '../exports/export-body.js';
import { FINDING_COLUMNS, findingRows, HISTORY_COLUMNS, historyRows, HOST_COLUMNS, hostRows } from '../exports/fleet-exports.js';
import { hostExists } from '../hosts/host-queries.js';
import type { AdminOperation } from './operation.js';
import { problemResponse, type AdminResponse } from './responses.js';

/** `GET /api/admin/exports/hosts`: every host, streamed as CSV or JSON. */
export const exportHosts: AdminOperation = async ({ query }, { database }) =>
  streamed(exportStream(query['format'] as ExportFormat, 'hosts', HOST_COLUMNS, hostRows(database)));

/** `GET /api/admin/exports/findings`: every finding of every host's latest report. */
export const exportFindings: AdminOperation = async ({ query }, { database }) =>
  streamed(exportStream(query['format'] as ExportFormat, 'findings', FINDING_COLUMNS, findingRows(database)));

/** `GET /api/admin/exports/hosts/{hostRecordId}/history`: one host's reports, newest first. */
export const exportHostHistory: AdminOperation = async ({ params, query }, { database }) => {
  const id = params['hostRecordId']!;
  if (!(await hostExists(database, id))) return problemResponse(404, `No host with id ${id}`);
  return streamed(exportStream(query['format'] as ExportFormat, `host-${id}-history`, HISTORY_COLUMNS, historyRows(database, id)));
};

function streamed(stream: ExportStream): AdminResponse {
  return {
    status: 200,
    headers: { 'content-type': stream.contentType, 'content-disposition': `attachment; filename="${stream.fileName}"`, 'cache-control': 'no-store' },
    body: stream.body,
  };
}
