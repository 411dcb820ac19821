import type { AdminHandler, AdminHandlers } from './operation.js';

// Placeholder while the operations are built: answers 500 until replaced.
const notBuilt = (): never => {
  throw new Error('not built yet');
};

const listAuditEvents: AdminHandler<'listAuditEvents'> = async () => notBuilt();
const exportAuditEvents: AdminHandler<'exportAuditEvents'> = async () => notBuilt();

export const auditRoutes = { listAuditEvents, exportAuditEvents } satisfies AdminHandlers<'listAuditEvents' | 'exportAuditEvents'>;
