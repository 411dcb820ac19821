import { createKey, findKey, listKeys, revokeKeyOrFail, rotateKey, setKeyQuotas, type KeyQuotas, type KeySummary } from '../secrets/license-keys.js';
import { SecretError } from '../secrets/secret-records.js';
import type { AdminContext, AdminOperation } from './operation.js';
import { jsonResponse, problemResponse, type AdminResponse } from './responses.js';

/** `GET /api/admin/keys`: every license key, oldest first. */
export const listLicenseKeys: AdminOperation = async (_input, { database }) => jsonResponse(200, { items: await listKeys(database) });

/** `POST /api/admin/keys`: a new key, shown this once. */
export const createLicenseKey: AdminOperation = async ({ body, tokenId }, { database, logger }) => {
  const label = body['label'] as string | undefined;
  const expiresAt = body['expiresAt'] === undefined ? undefined : new Date(body['expiresAt'] as string);
  if (expiresAt && expiresAt.getTime() <= Date.now()) return problemResponse(400, `expiresAt: ${expiresAt.toISOString()} is already past`);
  const { id, key } = await createKey(database, { label, expiresAt, ...quotasOf(body) });
  logger.info({ keyId: id, adminTokenId: tokenId }, 'license key created');
  return jsonResponse(201, { key: await keyInfo(database, id), licenseKey: key });
};

/** `PATCH /api/admin/keys/{keyId}`: the key with its quotas of hosts changed. */
export const updateLicenseKey: AdminOperation = ({ params, body, tokenId }, { database, logger }) =>
  answeringSecretErrors(async () => {
    const id = params['keyId']!;
    const quotas = quotasOf(body);
    await setKeyQuotas(database, id, quotas);
    logger.info({ keyId: id, ...quotas, adminTokenId: tokenId }, 'license key settings changed');
    return jsonResponse(200, await keyInfo(database, id));
  });

/** The quotas a request body names (absent ones stay undefined: unchanged). */
const quotasOf = (body: Record<string, unknown>): KeyQuotas => ({
  newHostsPerDay: body['newHostsPerDay'] as number | null | undefined,
  maxHosts: body['maxHosts'] as number | null | undefined,
});

/** `POST /api/admin/keys/{keyId}/revoke`: the key, revoked (revoking twice changes nothing). */
export const revokeLicenseKey: AdminOperation = ({ params, tokenId }, { database, logger }) =>
  answeringSecretErrors(async () => {
    const id = params['keyId']!;
    await revokeKeyOrFail(database, id);
    logger.info({ keyId: id, adminTokenId: tokenId }, 'license key revoked');
    return jsonResponse(200, await keyInfo(database, id));
  });

/** `POST /api/admin/keys/{keyId}/rotate`: a new key with the old one's label; the old one works for the grace period. */
export const rotateLicenseKey: AdminOperation = ({ params, body, tokenId }, { database, logger }) =>
  answeringSecretErrors(async () => {
    const id = params['keyId']!;
    const graceSeconds = body['graceSeconds'] as number; // the contract's default when the request names none
    const rotated = await rotateKey(database, id, graceSeconds * 1000);
    logger.info({ keyId: id, newKeyId: rotated.id, graceSeconds, adminTokenId: tokenId }, 'license key rotated');
    return jsonResponse(201, { key: await keyInfo(database, rotated.id), licenseKey: rotated.key, previous: await keyInfo(database, id) });
  });

/** A key that was just written: it exists. */
async function keyInfo(database: AdminContext['database'], id: string): Promise<KeySummary> {
  const key = await findKey(database, id);
  if (!key) throw new Error(`key ${id} vanished while being changed`);
  return key;
}

/** The HTTP status of each way a key operation can fail. */
const STATUS_OF = { invalid: 400, 'not-found': 404, conflict: 409 } as const;

/** Runs a key operation, answering its {@link SecretError} as a problem in the operator's terms. */
async function answeringSecretErrors(operation: () => Promise<AdminResponse>): Promise<AdminResponse> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof SecretError) return problemResponse(STATUS_OF[error.code], error.detail);
    throw error;
  }
}
