import type { ReportSummary } from '@org/audit-server-core';

/** A Lynis summary as core's parser gives it, with `warnings` and `suggestions` findings; `overrides` replace whole fields. */
export function lynisSummary(overrides: Partial<ReportSummary> = {}, warnings = 1, suggestions = 2): ReportSummary {
  const finding = (testId: string) => ({ testId, text: `finding of ${testId}`, details: null, solution: null });
  return {
    lynisVersion: '3.0.8',
    reportVersion: '1.0',
    hostname: 'web-01',
    os: { name: 'Linux', fullName: 'Debian GNU/Linux 12 (bookworm)', version: '12', kernel: '6.1.0-28-amd64' },
    startedAt: '2026-11-22 13:40:33',
    endedAt: '2026-11-22 13:41:24',
    hardeningIndex: 56,
    testsPerformed: 235,
    warnings: Array.from({ length: warnings }, (_, i) => finding(`WARN-${i}`)),
    suggestions: Array.from({ length: suggestions }, (_, i) => finding(`SUGG-${i}`)),
    ...overrides,
  };
}
