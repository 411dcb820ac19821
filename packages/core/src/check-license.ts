import type { OperationContext } from './contract-routes.js';
import type { LicenseCheckForm } from './generated/types.gen.js';
import { checkKey, refuseLimitedKey, type KeyCheckContext } from './key-check.js';
import { rejectRequest, type RejectionContext, type RequestInfo } from './reject-request.js';
import { LICENSE_INVALID, LICENSE_VALID, type AuditResponse } from './responses.js';

/** What the license check needs. */
export type CheckLicenseContext = KeyCheckContext & RejectionContext;

/** The license check operation, on a validated form: `Response 100` for a usable key, `Response 500` otherwise. */
export async function checkLicense(context: CheckLicenseContext, validated: OperationContext<LicenseCheckForm>, request: RequestInfo): Promise<AuditResponse> {
  const key = await checkKey(context, validated.request.requestBody.licensekey, request.remoteAddress);
  if (key.state === 'limited') return refuseLimitedKey(context, request, key);
  return key.state === 'valid' ? LICENSE_VALID : rejectRequest(context, request, 'invalid-key', { keyId: key.keyId }, LICENSE_INVALID);
}
