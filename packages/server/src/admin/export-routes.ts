import { notFound } from '../errors/domain-error.js';
import { exportStream } from '../exports/export-body.js';
import { FINDING_COLUMNS, findingRows, HISTORY_COLUMNS, historyRows, HOST_COLUMNS, hostRows, hostRowsAsOf } from '../exports/fleet-exports.js';
import { findingStateExport } from '../exports/finding-state-export.js';
import { hostExists } from '../hosts/host-queries.js';
import { refuseCurrentOnlyFilters } from '../hosts/hosts-as-of.js';
import { asOfMoment } from './as-of.js';
import type { AdminHandler, AdminHandlers } from './operation.js';
import { streamedExport } from './streamed-export.js';

/** `GET /api/admin/exports/hosts`: the hosts the list shows with the same filters (and `at`), in its order, streamed as CSV or JSON. */
const exportHosts: AdminHandler<'exportHosts'> = async ({ query: { format, at, ...filters }, actor }, { database }) => {
  const moment = asOfMoment(at);
  if (moment) refuseCurrentOnlyFilters(filters);
  const rows = moment ? hostRowsAsOf(database, actor.scope, filters, moment) : hostRows(database, actor.scope, filters);
  return streamedExport(exportStream(format, 'hosts', HOST_COLUMNS, rows));
};

/** `GET /api/admin/exports/findings`: every finding of the latest report of the hosts the list shows with the same filters. */
const exportFindings: AdminHandler<'exportFindings'> = async ({ query: { format, ...filters }, actor }, { database }) =>
  streamedExport(exportStream(format, 'findings', FINDING_COLUMNS, findingRows(database, actor.scope, filters)));

/** `GET /api/admin/exports/hosts/{hostRecordId}/history`: one host's reports, newest first. */
const exportHostHistory: AdminHandler<'exportHostHistory'> = async ({ path, query, actor }, { database }) => {
  const id = path.hostRecordId;
  if (!(await hostExists(database, actor.scope, id))) throw notFound('host', id);
  return streamedExport(exportStream(query.format, `host-${id}-history`, HISTORY_COLUMNS, historyRows(database, id)));
};

/** `GET /api/admin/exports/finding-states`: the findings `listTrackedFindings` lists with the same filters, oldest first, as CSV or JSON Lines. */
const exportFindingStates: AdminHandler<'exportFindingStates'> = async ({ query: { format, state, ...filters }, actor }, { database, hideLynisFindings }) =>
  streamedExport(findingStateExport(database, actor.scope, format, { ...filters, states: state, hideLynis: hideLynisFindings }));

export const exportRoutes = {
  exportHosts,
  exportFindings,
  exportHostHistory,
  exportFindingStates,
} satisfies AdminHandlers<'exportHosts' | 'exportFindings' | 'exportHostHistory' | 'exportFindingStates'>;
