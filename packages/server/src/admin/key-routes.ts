import { fieldChanges } from '../audit/audit-changes.js';
import { DomainError } from '../errors/domain-error.js';
import type { LicenseKeySettings } from '../generated/types.gen.js';
import {
  createKey,
  findKey,
  listKeys,
  revokeKeyOrFail,
  rotateKey,
  setKeySettings,
  type KeyQuotas,
  type KeySettings,
  type KeySummary,
} from '../secrets/license-keys.js';
import { actorLogFields } from './actor.js';
import type { AdminContext, AdminHandler, AdminHandlers } from './operation.js';

/** `GET /api/admin/keys`: every license key, oldest first. */
const listLicenseKeys: AdminHandler<'listLicenseKeys'> = async (_input, { database }) => ({ status: 200, body: { items: await listKeys(database) } });

/** `POST /api/admin/keys`: a new key, shown this once. */
const createLicenseKey: AdminHandler<'createLicenseKey'> = async ({ body, actor, audit }, { database, logger }) => {
  const expiresAt = body.expiresAt === undefined ? undefined : new Date(body.expiresAt);
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw new DomainError('invalid', `expiresAt: ${expiresAt.toISOString()} is already past`);
  const { id, key } = await createKey(database, { label: body.label, expiresAt, ...quotasOf(body) });
  logger.info({ keyId: id, ...actorLogFields(actor) }, 'license key created');
  const created = await keyInfo(database, id);
  audit.target = { type: 'license-key', id };
  audit.changes = fieldChanges(undefined, created, AUDITED_KEY_FIELDS);
  return { status: 201, body: { key: created, licenseKey: key } };
};

/** `PATCH /api/admin/keys/{keyId}`: the key with its quotas of hosts or its expiry changed. */
const updateLicenseKey: AdminHandler<'updateLicenseKey'> = async ({ path, body, actor, audit }, { database, logger }) => {
  const id = path.keyId;
  const settings: KeySettings = { ...quotasOf(body), expiresAt: expiryOf(body.expiresAt) };
  const before = await findKey(database, id);
  await setKeySettings(database, id, settings);
  logger.info({ keyId: id, ...settings, ...actorLogFields(actor) }, 'license key settings changed');
  const after = await keyInfo(database, id);
  audit.changes = fieldChanges(before, after, AUDITED_KEY_FIELDS);
  return { status: 200, body: after };
};

/** What the audit trail says changed of a key: its label, quotas, expiry and state (never the key). */
const AUDITED_KEY_FIELDS = ['label', 'newHostsPerDay', 'maxHosts', 'expiresAt', 'state'] as const;

/** A requested expiry: undefined leaves it, null removes it. */
const expiryOf = (text: string | null | undefined): Date | null | undefined => (text == null ? text : new Date(text));

/** The quotas a request body names (absent ones stay undefined: unchanged). */
const quotasOf = (body: LicenseKeySettings): KeyQuotas => ({ newHostsPerDay: body.newHostsPerDay, maxHosts: body.maxHosts });

/** `POST /api/admin/keys/{keyId}/revoke`: the key, revoked (revoking twice changes nothing). */
const revokeLicenseKey: AdminHandler<'revokeLicenseKey'> = async ({ path, actor, audit }, { database, logger }) => {
  const before = await findKey(database, path.keyId);
  await revokeKeyOrFail(database, path.keyId);
  logger.info({ keyId: path.keyId, ...actorLogFields(actor) }, 'license key revoked');
  const after = await keyInfo(database, path.keyId);
  audit.changes = fieldChanges(before, after, AUDITED_KEY_FIELDS);
  return { status: 200, body: after };
};

/** `POST /api/admin/keys/{keyId}/rotate`: a new key with the old one's label; the old one works for the grace period. */
const rotateLicenseKey: AdminHandler<'rotateLicenseKey'> = async ({ path, body, actor, audit }, { database, logger }) => {
  const id = path.keyId;
  const { graceSeconds } = body; // the contract's default when the request names none
  const rotated = await rotateKey(database, id, graceSeconds * 1000);
  logger.info({ keyId: id, newKeyId: rotated.id, graceSeconds, ...actorLogFields(actor) }, 'license key rotated');
  audit.changes = { newKeyId: { before: null, after: rotated.id }, graceSeconds: { before: null, after: graceSeconds } };
  return { status: 201, body: { key: await keyInfo(database, rotated.id), licenseKey: rotated.key, previous: await keyInfo(database, id) } };
};

export const keyRoutes = { listLicenseKeys, createLicenseKey, updateLicenseKey, revokeLicenseKey, rotateLicenseKey } satisfies AdminHandlers<
  'listLicenseKeys' | 'createLicenseKey' | 'updateLicenseKey' | 'revokeLicenseKey' | 'rotateLicenseKey'
>;

/** A key that was just written: it exists. */
async function keyInfo(database: AdminContext['database'], id: string): Promise<KeySummary> {
  const key = await findKey(database, id);
  if (!key) throw new Error(`key ${id} vanished while being changed`);
  return key;
}
