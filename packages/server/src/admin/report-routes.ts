import { isUtf8 } from 'node:buffer';
import { diffLynisReports, parseLynisReport, summarizeReportBytes, type ReportChanges } from '@org/audit-server-core';
import type { ReportRecord } from '../database/entities.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import { reportBytesOf } from '../reports/report-content.js';
import { findReport, findReportContent, previousReport, reportMetaOf, reportPage } from '../reports/report-queries.js';
import type { AdminHandler, AdminHandlers } from './operation.js';
import { textResponse } from './responses.js';

/** `GET /api/admin/reports`: one page of reports, newest first, without their content. */
const listReports: AdminHandler<'listReports'> = async ({ query, actor }, { database }) => ({
  status: 200,
  body: await reportPage(database, actor.scope, query),
});

/**
 * `GET /api/admin/reports/{reportId}`: a report's metadata and its summary, parsed from the stored report now
 * (under a millisecond for a real report) rather than stored beside it: writing it with every upload cost more
 * than a third of the upload rate for large reports.
 */
const getReport: AdminHandler<'getReport'> = async ({ path, actor }, { database }) => {
  const record = await findReport(database, actor.scope, path.reportId);
  if (!record) throw notFound('report', path.reportId);
  return { status: 200, body: { ...reportMetaOf(record), summary: summarizeReportBytes(await reportBytesOf(record)) } };
};

/** `GET /api/admin/reports/{reportId}/raw`: the stored bytes (the license key already redacted at upload), as a file. */
const getRawReport: AdminHandler<'getRawReport'> = async ({ path, actor }, { database }) => {
  const id = path.reportId;
  const record = await findReportContent(database, actor.scope, id);
  if (!record) throw notFound('report', id);
  // A download, never a page: the bytes are the host's, hostile.
  const response = textResponse(200, await reportBytesOf(record));
  return { raw: { ...response, headers: { ...response.headers, 'content-disposition': `attachment; filename="report-${id}.txt"` } } };
};

/**
 * `GET /api/admin/reports/{reportId}/diff`: what changed between the report and the one its host sent just before
 * it, or `against`, another report of the same host (the earlier of the two is `before`).
 */
const getReportDiff: AdminHandler<'getReportDiff'> = async ({ path, query, actor }, { database }) => {
  const againstId = query.against;
  const report = await findReport(database, actor.scope, path.reportId);
  if (!report) throw notFound('report', path.reportId);
  const other = againstId === undefined ? await previousReport(database, report) : await findReport(database, actor.scope, againstId);
  if (againstId !== undefined && !other) throw notFound('report', againstId);
  if (other && other.hostRecord.id !== report.hostRecord.id) throw new DomainError('invalid', `against: report ${againstId} belongs to another host`);
  const [before, after] = !other ? [null, report] : isEarlier(other, report) ? [other, report] : [report, other];
  return {
    status: 200,
    body: {
      beforeReportId: before?.id ?? null,
      afterReportId: after.id,
      changes: before ? changesBetween(await reportBytesOf(before), await reportBytesOf(after)) : null,
    },
  };
};

export const reportRoutes = { listReports, getReport, getRawReport, getReportDiff } satisfies AdminHandlers<
  'listReports' | 'getReport' | 'getRawReport' | 'getReportDiff'
>;

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
