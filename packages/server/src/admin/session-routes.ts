import { findAdminToken } from '../secrets/admin-tokens.js';
import type { AdminHandler, AdminHandlers } from './operation.js';
import { jsonResponse, problemResponse } from './responses.js';

/** `GET /api/admin/session`: the admin token the request carried (id, label, prefix, role), never the token. */
const getAdminSession: AdminHandler<'getAdminSession'> = async ({ tokenId }, { database }) => {
  const token = await findAdminToken(database, tokenId);
  // Revoked between the check and this read: as good as unknown, answered as the API answers an unknown token.
  if (!token) return { raw: problemResponse(401, 'The admin token is unknown or revoked', { 'www-authenticate': 'Bearer error="invalid_token"' }) };
  return { raw: jsonResponse(200, { tokenId: token.id, label: token.label, prefix: token.prefix, role: token.role }) };
};

export const sessionRoutes = { getAdminSession } satisfies AdminHandlers<'getAdminSession'>;
