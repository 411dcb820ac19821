import { rejectionPage } from '../refusals/rejection-queries.js';
import type { AdminHandler, AdminHandlers } from './operation.js';

/** `GET /api/admin/rejections`: one page of refused uploads and license checks, filtered as the query says. */
const listRejections: AdminHandler<'listRejections'> = async ({ query, actor }, { database }) => ({
  status: 200,
  body: await rejectionPage(database, actor.scope, query),
});

export const rejectionRoutes = { listRejections } satisfies AdminHandlers<'listRejections'>;
