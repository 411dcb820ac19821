import { KeyAdminError, createKey, findKey, listKeys, revokeKey, rotateKey, type KeySummary } from '../secrets/license-keys.js';
import type { AdminContext, AdminOperation } from './operation.js';
import { jsonResponse, problemResponse, type AdminResponse } from './responses.js';

/** `GET /api/admin/keys`: every license key, oldest first. */
export const listLicenseKeys: AdminOperation = async (_input, { database }) => jsonResponse(200, { items: await listKeys(database) });

/** `POST /api/admin/keys`: a new key, shown this once. */
export const createLicenseKey: AdminOperation = async ({ body, tokenId }, { database, logger }) => {
  const label = body['label'] as string | undefined;
  const expiresAt = body['expiresAt'] === undefined ? undefined : new Date(body['expiresAt'] as string);
  if (expiresAt && expiresAt.getTime() <= Date.now()) return problemResponse(400, `expiresAt: ${expiresAt.toISOString()} is already past`);
  const { id, key } = await createKey(database, { label, expiresAt });
  logger.info({ keyId: id, adminTokenId: tokenId }, 'license key created');
  return jsonResponse(201, { key: await keyInfo(database, id), licenseKey: key });
};

/** `POST /api/admin/keys/{keyId}/revoke`: the key, revoked (revoking twice changes nothing). */
export const revokeLicenseKey: AdminOperation = async ({ params, tokenId }, { database, logger }) => {
  const id = params['keyId']!;
  if (!(await revokeKey(database, id))) return noSuchKey(id);
  logger.info({ keyId: id, adminTokenId: tokenId }, 'license key revoked');
  return jsonResponse(200, await keyInfo(database, id));
};

/** `POST /api/admin/keys/{keyId}/rotate`: a new key with the old one's label; the old one works for the grace period. */
export const rotateLicenseKey: AdminOperation = async ({ params, body, tokenId }, { database, logger }) => {
  const id = params['keyId']!;
  const graceSeconds = body['graceSeconds'] as number; // the contract's default when the request names none
  try {
    const rotated = await rotateKey(database, id, graceSeconds * 1000);
    logger.info({ keyId: id, newKeyId: rotated.id, graceSeconds, adminTokenId: tokenId }, 'license key rotated');
    return jsonResponse(201, { key: await keyInfo(database, rotated.id), licenseKey: rotated.key, previous: await keyInfo(database, id) });
  } catch (error) {
    if (error instanceof KeyAdminError) return keyProblem(error);
    throw error;
  }
};

/** A key that was just written: it exists. */
async function keyInfo(database: AdminContext['database'], id: string): Promise<KeySummary> {
  const key = await findKey(database, id);
  if (!key) throw new Error(`key ${id} vanished while being changed`);
  return key;
}

const noSuchKey = (id: string) => problemResponse(404, `No license key with id ${id}`);

/** Key errors say what is wrong in the operator's terms; their status follows their code. */
function keyProblem(error: KeyAdminError): AdminResponse {
  const status = { invalid: 400, 'not-found': 404, conflict: 409 }[error.code];
  const detail = error.message.charAt(0).toUpperCase() + error.message.slice(1);
  return problemResponse(status, detail);
}
