import { isUtf8 } from 'node:buffer';
import { diffLynisReports, parseLynisReport, summarizeReportBytes, type ReportChanges, type ReportDetail, type ReportDiff, type ReportMeta, type ReportPage } from '@org/audit-server-core';
import { countBound, findBound } from '../database/bound-query.js';
import { ReportRecord } from '../database/entities.js';
import { reportBytesOf } from '../reports/report-content.js';
import type { AdminOperation } from './operation.js';
import { jsonResponse, problemResponse, textResponse } from './responses.js';

/** Every property but the stored report, read from the entity so that none is forgotten: what lists need. */
const META_FIELDS = Object.keys(ReportRecord.meta.properties).filter((name) => name !== 'content') as Exclude<keyof ReportRecord, 'content'>[];

/** What the contract shows of a report: neither its stored bytes nor how they are stored. */
type ReportRecordMeta = Omit<ReportRecord, 'content' | 'contentEncoding' | 'contentSha256'>;

/** `GET /api/admin/reports`: one page of reports, newest first, without their content. */
export const listReports: AdminOperation = async ({ query }, { database }) => {
  const limit = query['limit'] as number;
  const offset = query['offset'] as number;
  const em = database.em.fork();
  const qb = em.createQueryBuilder(ReportRecord, 'r');
  if (query['hostRecordId'] !== undefined) qb.andWhere({ hostRecord: query['hostRecordId'] as string });
  if (query['keyId'] !== undefined) qb.andWhere({ key: query['keyId'] as string });
  const page = qb.clone().select(META_FIELDS).orderBy({ receivedAt: 'desc', id: 'desc' }).limit(limit).offset(offset);
  const [records, total] = await Promise.all([findBound(em, ReportRecord, page), countBound(qb)]);
  const result: ReportPage = { items: records.map(toReportMeta), total, limit, offset };
  return jsonResponse(200, result);
};

/**
 * `GET /api/admin/reports/{reportId}`: a report's metadata and its summary, parsed from the stored report now
 * (under a millisecond for a real report) rather than stored beside it: writing it with every upload cost more
 * than a third of the upload rate for large reports.
 */
export const getReport: AdminOperation = async ({ params }, { database }) => {
  const id = params['reportId']!;
  const record = await database.em.fork().findOne(ReportRecord, { id });
  if (!record) return noSuchReport(id);
  const detail: ReportDetail = { ...toReportMeta(record), summary: summarizeReportBytes(await reportBytesOf(record)) };
  return jsonResponse(200, detail);
};

/** `GET /api/admin/reports/{reportId}/raw`: the stored bytes (the license key already redacted at upload), as a file. */
export const getRawReport: AdminOperation = async ({ params }, { database }) => {
  const id = params['reportId']!;
  const record = await database.em.fork().findOne(ReportRecord, { id }, { fields: ['content', 'contentEncoding', 'contentSha256'] });
  if (!record) return noSuchReport(id);
  // A download, never a page: the bytes are the host's, hostile.
  const response = textResponse(200, await reportBytesOf(record));
  return { ...response, headers: { ...response.headers, 'content-disposition': `attachment; filename="report-${id}.txt"` } };
};

/**
 * `GET /api/admin/reports/{reportId}/diff`: what changed between the report and the one its host sent just before
 * it, or `against`, another report of the same host (the earlier of the two is `before`).
 */
export const getReportDiff: AdminOperation = async ({ params, query }, { database }) => {
  const id = params['reportId']!;
  const againstId = query['against'] as string | undefined;
  const em = database.em.fork();
  const report = await em.findOne(ReportRecord, { id });
  if (!report) return noSuchReport(id);
  const other = againstId === undefined
    ? await em.findOne(
      ReportRecord,
      { hostRecord: report.hostRecord.id, $or: [{ receivedAt: { $lt: report.receivedAt } }, { receivedAt: report.receivedAt, id: { $lt: report.id } }] },
      { orderBy: { receivedAt: 'desc', id: 'desc' } },
    )
    : await em.findOne(ReportRecord, { id: againstId });
  if (againstId !== undefined && !other) return noSuchReport(againstId);
  if (other && other.hostRecord.id !== report.hostRecord.id) return problemResponse(400, `against: report ${againstId} belongs to another host`);
  const [before, after] = !other ? [null, report] : isEarlier(other, report) ? [other, report] : [report, other];
  const diff: ReportDiff = {
    beforeReportId: before?.id ?? null,
    afterReportId: after.id,
    changes: before ? changesBetween(await reportBytesOf(before), await reportBytesOf(after)) : null,
  };
  return jsonResponse(200, diff);
};

/** Whether report `a` was received before `b` (ties broken by id, as the report lists order them). */
function isEarlier(a: ReportRecord, b: ReportRecord): boolean {
  return a.receivedAt.getTime() < b.receivedAt.getTime() || (a.receivedAt.getTime() === b.receivedAt.getTime() && a.id < b.id);
}

/** The changes between two stored reports, or null unless both are Lynis reports in UTF-8. */
function changesBetween(before: Uint8Array, after: Uint8Array): ReportChanges | null {
  const parse = (bytes: Uint8Array) => (isUtf8(bytes) ? parseLynisReport(Buffer.from(bytes).toString('utf8')) : null);
  const [earlier, later] = [parse(before), parse(after)];
  return earlier && later ? diffLynisReports(earlier, later) : null;
}

const noSuchReport = (id: string) => problemResponse(404, `No report with id ${id}`);

/** A report's metadata as the contract shows it. */
function toReportMeta(record: ReportRecordMeta): ReportMeta {
  return {
    id: record.id,
    hostRecordId: record.hostRecord.id,
    keyId: record.key.id,
    hostId: record.hostId,
    hostId2: record.hostId2 ?? null,
    receivedAt: record.receivedAt.toISOString(),
    encoding: record.encoding as ReportMeta['encoding'],
    size: record.size,
    sha256: record.sha256,
    hostname: record.hostname ?? null,
    lynisVersion: record.lynisVersion ?? null,
    hardeningIndex: record.hardeningIndex ?? null,
    warningCount: record.warningCount ?? null,
    suggestionCount: record.suggestionCount ?? null,
  };
}
