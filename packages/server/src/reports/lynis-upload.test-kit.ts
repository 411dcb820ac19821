// Storing a Lynis report's text as an upload stores it: its summary and labels read from the text, through the
// report store. Shared by the tests that follow hosts and findings from report to report.
import { readReportBytes, type ReportToStore } from '@org/audit-server-core';
import type { OrmReportStore } from './report-store.js';

/** Stores `text` as the report of `hostId` under `keyId`, received at `receivedAt`. */
export async function storeLynisText(store: OrmReportStore, report: { keyId: string; hostId: string; text: string; receivedAt: Date }): Promise<void> {
  const content = Buffer.from(report.text);
  const reading = readReportBytes(content);
  const toStore: ReportToStore = {
    keyId: report.keyId,
    hostId: report.hostId,
    receivedAt: report.receivedAt,
    encoding: 'raw',
    size: content.length,
    sha256: 'a'.repeat(64),
    content,
    summary: reading?.summary ?? null,
    labels: reading?.labels,
  };
  await store.save(toStore);
}
