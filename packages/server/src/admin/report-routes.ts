import { isUtf8 } from 'node:buffer';
import { diffLynisReports, parseLynisReport, summarizeReportBytes, type ReportChanges, type ReportDetail, type ReportDiff } from '@org/audit-server-core';
import type { ReportRecord } from '../database/entities.js';
import { reportBytesOf } from '../reports/report-content.js';
import { findReport, findReportContent, previousReport, reportMetaOf, reportPage, type ReportQuery } from '../reports/report-queries.js';
import type { AdminOperation } from './operation.js';
import { jsonResponse, problemResponse, textResponse } from './responses.js';

/** `GET /api/admin/reports`: one page of reports, newest first, without their content. */
export const listReports: AdminOperation = async ({ query }, { database }) => jsonResponse(200, await reportPage(database, query as unknown as ReportQuery));

/**
 * `GET /api/admin/reports/{reportId}`: a report's metadata and its summary, parsed from the stored report now
 * (under a millisecond for a real report) rather than stored beside it: writing it with every upload cost more
 * than a third of the upload rate for large reports.
 */
export const getReport: AdminOperation = async ({ params }, { database }) => {
  const id = params['reportId']!;
  const record = await findReport(database, id);
  if (!record) return noSuchReport(id);
  const detail: ReportDetail = { ...reportMetaOf(record), summary: summarizeReportBytes(await reportBytesOf(record)) };
  return jsonResponse(200, detail);
};

/** `GET /api/admin/reports/{reportId}/raw`: the stored bytes (the license key already redacted at upload), as a file. */
export const getRawReport: AdminOperation = async ({ params }, { database }) => {
  const id = params['reportId']!;
  const record = await findReportContent(database, id);
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
  const report = await findReport(database, id);
  if (!report) return noSuchReport(id);
  const other = againstId === undefined ? await previousReport(database, report) : await findReport(database, againstId);
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
