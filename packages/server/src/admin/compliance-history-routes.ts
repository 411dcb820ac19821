import { complianceHistory } from '../compliance/compliance-history.js';
import { complianceHistoryExport } from '../exports/compliance-history-export.js';
import type { AdminHandler, AdminHandlers } from './operation.js';
import { streamedExport } from './streamed-export.js';

/** `GET /api/admin/compliance/history`: compliance and open findings per day or week, of the actor's hosts. */
const getComplianceHistory: AdminHandler<'getComplianceHistory'> = async ({ query, actor }, { database }) => ({
  status: 200,
  body: await complianceHistory(database, actor.scope, query),
});

/** `GET /api/admin/exports/compliance-history`: the same, a row per interval and policy, as CSV or JSON Lines. */
const exportComplianceHistory: AdminHandler<'exportComplianceHistory'> = async ({ query: { format, ...query }, actor }, { database }) =>
  streamedExport(await complianceHistoryExport(database, actor.scope, format, query));

export const complianceHistoryRoutes = {
  getComplianceHistory,
  exportComplianceHistory,
} satisfies AdminHandlers<'getComplianceHistory' | 'exportComplianceHistory'>;
