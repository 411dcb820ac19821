import type { OperationContext } from './contract-routes.js';
import type { ReportUploadForm } from './generated/types.gen.js';
import { callHook } from './hooks.js';
import { checkKey, refuseLimitedKey, type KeyCheckContext } from './key-check.js';
import { readReportBytes } from './lynis-report.js';
import { rejectRequest, type RejectionContext, type RequestInfo } from './reject-request.js';
import { decodeReportData, redactLicenseKeys, sha256Hex } from './report-data.js';
import { textResponse, UPLOAD_UNAUTHORIZED, type AuditResponse } from './responses.js';
import { incompleteReportReason } from './report-minimum.js';
import { ReportRefusedError, uploadFieldsOf, type ReportEncoding, type ReportStore, type ReportToStore, type UploadFields } from './stores.js';
import { callDependency } from './unavailable.js';

/** What the upload needs: the key check, where refusals go, and where reports are stored. */
export type UploadReportContext = KeyCheckContext & RejectionContext & { reportStore: ReportStore };

/** The upload operation, on a validated form: checks the key, decodes the report, stores it and answers `OK <id>`. */
export async function uploadReport(context: UploadReportContext, validated: OperationContext<ReportUploadForm>, request: RequestInfo): Promise<AuditResponse> {
  const { reportStore, logger, hooks } = context;
  const form = validated.request.requestBody;
  const fields = uploadFieldsOf(form);
  // The host's identity, as refusals, the log and the stored hook name it.
  const host = { hostId: fields.hostId, hostId2: fields.hostId2 };
  const key = await checkKey(context, form.licensekey, request.remoteAddress);
  if (key.state === 'limited') return refuseLimitedKey(context, request, key, form.hostid);
  if (key.state !== 'valid') return rejectRequest(context, request, 'invalid-key', { ...host, keyId: key.keyId }, UPLOAD_UNAUTHORIZED);
  const decoded = decodeReportData(form.data, request.form?.kind === 'fields' ? request.form.bytes?.get('data') : undefined);
  if (!decoded.ok) {
    return rejectRequest(context, request, 'invalid-data', { ...host, keyId: key.keyId }, textResponse(400, `Invalid data: ${decoded.reason}`));
  }
  const incomplete = incompleteReportReason(decoded.bytes);
  if (incomplete !== null) {
    return rejectRequest(context, request, 'not-a-report', { ...host, keyId: key.keyId }, textResponse(400, `Not a report: ${incomplete}`));
  }
  // The form's text of the report is not needed once decoded: dropped, so that an upload waiting for its commit
  // holds only the report's bytes (32 uploads of 8 MB waiting held 256 MiB of text besides).
  form.data = '';
  const report = reportToStore(key.keyId, fields, decoded, form.licensekey);
  if (key.enrollmentId !== undefined) report.enrollmentId = key.enrollmentId;
  const saved = await storeReport(reportStore, report);
  if (saved instanceof ReportRefusedError) {
    const headers: Record<string, string> =
      saved.retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(saved.retryAfterSeconds))) };
    return rejectRequest(context, request, saved.reason, { ...host, keyId: key.keyId }, textResponse(saved.status, saved.message, headers));
  }
  const { id } = saved;
  logger.info({ reportId: id, keyId: key.keyId, ...host, bytes: report.size, encoding: report.encoding }, 'report stored');
  const hardeningIndex = report.summary?.hardeningIndex ?? null;
  const stored = { reportId: id, keyId: key.keyId, ...host, size: report.size, sha256: report.sha256, encoding: report.encoding, hardeningIndex };
  if (request.remoteAddress) Object.assign(stored, { remoteAddress: request.remoteAddress });
  callHook('onReportStored', hooks.onReportStored, stored, logger.error.bind(logger));
  return textResponse(200, `OK ${id}`);
}

/** Saves the report, resolving with the store's refusal ({@link ReportRefusedError}) rather than throwing it. */
function storeReport(reportStore: ReportStore, report: ReportToStore): Promise<{ id: string } | ReportRefusedError> {
  // A refusal is an answer, not a failure of the store: taken out before callDependency makes failures a 503.
  return callDependency('report store', async () => {
    try {
      return await reportStore.save(report);
    } catch (error) {
      if (error instanceof ReportRefusedError) return error;
      throw error;
    }
  });
}

/**
 * The report to hand to the store. The decoded bytes are this request's own (a view of the body it read, or a
 * fresh decode), so the key (every license key line's, and the presented `licenseKey` wherever it occurs) is redacted
 * in them, after their size and SHA-256 are taken.
 */
export function reportToStore(keyId: string, fields: UploadFields, decoded: { encoding: ReportEncoding; bytes: Buffer }, licenseKey?: string): ReportToStore {
  const size = decoded.bytes.length;
  const sha256 = sha256Hex(decoded.bytes);
  const content = redactLicenseKeys(decoded.bytes, { inPlace: true, key: licenseKey });
  const reading = readReportBytes(content);
  return {
    keyId,
    ...fields,
    receivedAt: new Date(),
    encoding: decoded.encoding,
    size,
    sha256,
    content,
    summary: reading?.summary ?? null,
    labels: reading?.labels ?? null,
  };
}
