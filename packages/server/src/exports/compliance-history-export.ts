import type { Database } from '../database/dialect.js';
import type { ComplianceHistoryRow } from '../generated/types.gen.js';
import type { AccessScope } from '../people/scope.js';
import { complianceHistory, type HistoryQuery } from '../compliance/compliance-history.js';
import { exportStream, jsonLinesStream, type ExportStream } from './export-body.js';

/** The CSV columns: a `ComplianceHistoryRow`'s fields. */
export const COMPLIANCE_HISTORY_COLUMNS: (keyof ComplianceHistoryRow)[] = [
  'date',
  'policyId',
  'policyName',
  'group',
  'customer',
  'compliant',
  'noncompliant',
  'accepted',
  'unknown',
  'compliancePercent',
  'openWarnings',
  'openSuggestions',
  'acceptedFindings',
  'final',
];

/**
 * The compliance history `complianceHistory` answers, as rows: for each point the fleet's (or the group's or
 * customer's) row over every policy, then one per policy. Checked before the answer starts (a bad window is a 400).
 */
export async function complianceHistoryExport(database: Database, scope: AccessScope, format: 'csv' | 'jsonl', query: HistoryQuery): Promise<ExportStream> {
  const history = await complianceHistory(database, scope, query);
  const rows = async function* (): AsyncGenerator<ComplianceHistoryRow[]> {
    for (const [index, point] of history.points.entries()) {
      const common = { date: point.date, group: history.group, customer: history.customer, final: point.final };
      const policyRows = history.policies.map((policy): ComplianceHistoryRow => ({
        ...common,
        policyId: policy.policyId,
        policyName: policy.name,
        ...policy.points[index]!.hosts,
        compliancePercent: policy.points[index]!.compliancePercent,
        openWarnings: null,
        openSuggestions: null,
        acceptedFindings: null,
      }));
      yield [
        {
          ...common,
          policyId: history.policyId,
          policyName: history.policyId === null ? null : (history.policies[0]?.name ?? null),
          ...point.hosts,
          compliancePercent: point.compliancePercent,
          openWarnings: point.openFindings.warning,
          openSuggestions: point.openFindings.suggestion,
          acceptedFindings: point.openFindings.accepted,
        },
        ...(history.policyId === null ? policyRows : []),
      ];
    }
  };
  if (format === 'jsonl') return jsonLinesStream('compliance-history', rows());
  return exportStream('csv', 'compliance-history', COMPLIANCE_HISTORY_COLUMNS, flatten(rows()));
}

async function* flatten<Row>(pages: AsyncIterable<Row[]>): AsyncGenerator<Row> {
  for await (const page of pages) yield* page;
}
