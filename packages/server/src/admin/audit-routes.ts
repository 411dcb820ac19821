import { auditExport } from '../audit/audit-export.js';
import { listAuditEvents as auditEventPage } from '../audit/audit-query.js';
import type { AdminHandler, AdminHandlers } from './operation.js';
import { streamedExport } from './streamed-export.js';

/** `GET /api/admin/audit-events`: the trail, newest first, filtered, a page before `before`. */
const listAuditEvents: AdminHandler<'listAuditEvents'> = async ({ query: { limit, before, ...filters } }, { database }) => ({
  status: 200,
  body: await auditEventPage(database, filters, { limit, before }),
});

/** `GET /api/admin/exports/audit-events`: the entries the list would show, oldest first, streamed as CSV or JSON Lines. */
const exportAuditEvents: AdminHandler<'exportAuditEvents'> = async ({ query: { format, ...filters } }, { database }) => {
  return streamedExport(auditExport(database, format, filters));
};

export const auditRoutes = { listAuditEvents, exportAuditEvents } satisfies AdminHandlers<'listAuditEvents' | 'exportAuditEvents'>;
