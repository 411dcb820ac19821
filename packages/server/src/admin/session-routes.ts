import type { AdminSession } from '@org/audit-server-core';
import { findAdminToken } from '../secrets/admin-tokens.js';
import type { AdminOperation } from './operation.js';
import { jsonResponse, problemResponse } from './responses.js';

/** `GET /api/admin/session`: the admin token the request carried (id, label, prefix), never the token. */
export const getAdminSession: AdminOperation = async ({ tokenId }, { database }) => {
  const token = await findAdminToken(database, tokenId);
  // Revoked between the check and this read: as good as unknown.
  if (!token) return problemResponse(401, 'The admin token is unknown or revoked', { 'www-authenticate': 'Bearer error="invalid_token"' });
  const session: AdminSession = { tokenId: token.id, label: token.label, prefix: token.prefix };
  return jsonResponse(200, session);
};
