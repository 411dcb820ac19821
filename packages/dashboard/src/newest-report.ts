import { getRawReport, getReport, type Client, type HostDetail, type ReportDetail } from '@org/audit-client/sdk';
import { data } from './api.js';
import { vulnerablePackagesOf } from './report-text.js';

/** A host's newest report and the vulnerable packages its text names; both absent while the host has no report. */
export async function loadNewestReport(client: Client, host: Pick<HostDetail, 'latestReportId'>): Promise<{ latest?: ReportDetail; vulnerable?: string[] }> {
  const reportId = host.latestReportId;
  if (!reportId) return {};
  const [latest, raw] = await Promise.all([
    data(getReport({ client, path: { reportId } })),
    data(getRawReport({ client, path: { reportId }, parseAs: 'text' })).then(String),
  ]);
  return { latest, vulnerable: vulnerablePackagesOf(raw) };
}
