import { rejectionPage, type RejectionQuery } from '../refusals/rejection-queries.js';
import type { AdminOperation } from './operation.js';
import { jsonResponse } from './responses.js';

/** `GET /api/admin/rejections`: one page of refused uploads and license checks, filtered as the query says. */
export const listRejections: AdminOperation = async ({ query }, { database }) =>
  jsonResponse(200, await rejectionPage(database, query as unknown as RejectionQuery));
