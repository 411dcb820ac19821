import type { OperationContext, ValidationError } from './contract-routes.js';
import type { ReportUploadForm } from './generated/types.gen.js';
import { checkKey, recordKeyFailure, refuseLimitedKey, type KeyCheckContext } from './key-check.js';
import { rejectRequest, type RejectionContext, type RequestInfo } from './reject-request.js';
import { LICENSE_INVALID, textResponse, UNSUPPORTED_MEDIA_TYPE, UPLOAD_UNAUTHORIZED, type AuditResponse } from './responses.js';

/** What answering a validation failure needs: the key is still checked, so that it is told first. */
export type ValidationFailureContext = KeyCheckContext & RejectionContext;

/** Answers a request that failed the contract's validation. Per the contract, license checks only ever say `Response 500`. */
export async function answerValidationFailure(context: ValidationFailureContext, validated: OperationContext, request: RequestInfo): Promise<AuditResponse> {
  const formProblem = request.form;
  const isLicenseCheck = request.operation === 'checkLicense';
  const refusal = isLicenseCheck ? LICENSE_INVALID : undefined;
  // A malformed license check is a failed one; a malformed upload is refused before any key is looked at.
  if (isLicenseCheck && (formProblem?.kind === 'unsupported-type' || formProblem?.kind === 'malformed')) {
    await recordKeyFailure(context, request.remoteAddress);
  }
  if (formProblem?.kind === 'unsupported-type') return rejectRequest(context, request, 'unsupported-type', {}, refusal ?? UNSUPPORTED_MEDIA_TYPE);
  if (formProblem?.kind === 'malformed') {
    return rejectRequest(context, request, 'malformed', {}, refusal ?? textResponse(400, `Invalid form data: ${formProblem.reason}`));
  }
  const body = (validated.request.requestBody ?? {}) as Partial<ReportUploadForm>;
  const errors = validated.validation.errors ?? [];
  // The key is checked before the other fields, so that without a valid key nothing about them is told.
  const keyUsable = typeof body.licensekey === 'string' && !errors.some(concernsLicenseKey);
  const key = await checkKey(context, keyUsable ? body.licensekey : undefined, request.remoteAddress);
  if (key.state === 'limited') return refuseLimitedKey(context, request, key, body.hostid);
  const details = { keyId: key.keyId, hostId: body.hostid };
  if (key.state !== 'valid') return rejectRequest(context, request, 'invalid-key', details, refusal ?? UPLOAD_UNAUTHORIZED);
  const problems = errors.map(describeError).join('; ');
  return rejectRequest(context, request, 'invalid-request', details, refusal ?? textResponse(400, `Invalid request: ${problems}`));
}

function concernsLicenseKey(error: ValidationError): boolean {
  return error.instancePath === '/requestBody/licensekey' || error.params['missingProperty'] === 'licensekey';
}

function describeError(error: ValidationError): string {
  const field = error.instancePath.replace(/^\/requestBody\/?/, '');
  // Form values are always text, so a type error means the field came more than once (the form reader's array).
  if (error.keyword === 'type') return `${field} given more than once`;
  return field ? `${field} ${error.message}` : `${error.message}`;
}
