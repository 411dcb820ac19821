import type { Knex } from '@mikro-orm/knex';
import type { HostLabels, ReportSummary } from '@org/audit-server-core';
import type { HostFindingRecord, HostLabelRecord, HostRecord } from './database/entities.js';
import type { RowOf } from './database/rows.js';

/**
 * The version of what a host's row, labels and findings derive from its newest report. Uploads write it; hosts with
 * an older one (0: stored before the derivation existed) are derived again in the background (`HostBackfill`).
 * Raise it when the derivation changes so that every host is derived anew.
 */
export const DERIVED_VERSION = 1;

/** Longest text kept in a column of its own (the admin API parses the whole report when asked for everything). */
export const MAX_COLUMN_TEXT = 255;
/** Longest test id kept: as long as the contract lets a filter name one. */
export const MAX_TEST_ID = 64;
/** Most distinct test ids kept per kind and host: far above Lynis' own tests, a bound on a hostile report's rows. */
export const MAX_FINDINGS_PER_KIND = 500;
/** Most bound parameters in one statement: SQLite's oldest limit is 999. */
const MAX_PARAMETERS = 999;

/** What `host_label.kind` and `host_finding.kind` hold. */
export type LabelKind = 'group' | 'tag';
export type FindingKind = 'warning' | 'suggestion';

type HostLabelRow = RowOf<HostLabelRecord>;
type HostFindingRow = RowOf<HostFindingRecord>;

/** The host columns a report gives when it is the host's newest. */
export type DerivedColumns = Pick<RowOf<HostRecord>, 'latest_warning_count' | 'latest_suggestion_count' | 'customer_name' | 'hostname_alias' | 'derived_version'>;

/** A report's groups, tags and findings, as its host's rows would hold them were it the host's newest. */
export interface HostDerivation {
  labels: Omit<HostLabelRow, 'host_record_id'>[];
  findings: Omit<HostFindingRow, 'host_record_id'>[];
}

/** What a report gives its host: the columns, and the label and finding rows. Not a Lynis report: nulls and none. */
export function deriveFromReport(summary: ReportSummary | null, labels: HostLabels | null | undefined): { columns: DerivedColumns; derivation: HostDerivation } {
  return {
    columns: {
      latest_warning_count: summary ? summary.warnings.length : null,
      latest_suggestion_count: summary ? summary.suggestions.length : null,
      customer_name: columnText(labels?.customerName),
      hostname_alias: columnText(labels?.hostnameAlias),
      derived_version: DERIVED_VERSION,
    },
    derivation: {
      labels: [...labelRows('group', labels?.groups ?? []), ...labelRows('tag', labels?.tags ?? [])],
      findings: summary ? [...findingRows('warning', summary.warnings), ...findingRows('suggestion', summary.suggestions)] : [],
    },
  };
}

/**
 * Text for a column of its own: at most `max` UTF-16 code units, never cut inside a surrogate pair, without NUL
 * (PostgreSQL text cannot hold it). Cut and cleaned the same on every dialect, so that what is unique here is
 * unique in the database too.
 */
export function columnText(value: string | null | undefined, max = MAX_COLUMN_TEXT): string | null {
  if (value == null) return null;
  const text = value.includes('\0') ? value.replaceAll('\0', '') : value;
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** One row per distinct value once cleaned for its column, in the report's order. */
function labelRows(kind: LabelKind, values: string[]): HostDerivation['labels'] {
  const seen = new Set<string>();
  for (const value of values) {
    const text = columnText(value)!;
    if (text !== '') seen.add(text);
  }
  return [...seen].map((value, position) => ({ kind, value, position }));
}

/** One row per test id once cleaned for its column, with its smallest text; at most {@link MAX_FINDINGS_PER_KIND}. */
function findingRows(kind: FindingKind, findings: ReportSummary['warnings']): HostDerivation['findings'] {
  const byTest = new Map<string, string>();
  for (const finding of findings) {
    const testId = columnText(finding.testId, MAX_TEST_ID)!;
    if (testId === '') continue;
    const text = columnText(finding.text)!;
    const known = byTest.get(testId);
    if (known === undefined) {
      if (byTest.size >= MAX_FINDINGS_PER_KIND) continue;
      byTest.set(testId, text);
    } else if (text < known) byTest.set(testId, text);
  }
  return [...byTest].map(([test_id, text]) => ({ kind, test_id, text }));
}

/**
 * Replaces the labels and findings of hosts with those of their newest report, in the caller's transaction: deletes
 * each host's rows, then inserts the new ones, hosts sorted by id (the order every writer locks them in), every
 * value a bound parameter, statements chunked under SQLite's limit on parameters.
 */
export async function replaceDerivations(trx: Knex.Transaction, derivations: Map<string, HostDerivation>): Promise<void> {
  if (derivations.size === 0) return;
  const hostIds = [...derivations.keys()].sort();
  for (const ids of chunks(hostIds, MAX_PARAMETERS)) {
    await trx('host_label').whereIn('host_record_id', ids).delete();
    await trx('host_finding').whereIn('host_record_id', ids).delete();
  }
  const labels: HostLabelRow[] = [];
  const findings: HostFindingRow[] = [];
  for (const host_record_id of hostIds) {
    const { labels: hostLabels, findings: hostFindings } = derivations.get(host_record_id)!;
    for (const label of hostLabels) labels.push({ host_record_id, ...label });
    for (const finding of hostFindings) findings.push({ host_record_id, ...finding });
  }
  await insertRows(trx, 'host_label', ['host_record_id', 'kind', 'value', 'position'], labels);
  await insertRows(trx, 'host_finding', ['host_record_id', 'kind', 'test_id', 'text'], findings);
}

/** Multi-row inserts of plain `values` lists (knex writes a compound select per row on SQLite), chunked. */
async function insertRows<Row extends object>(trx: Knex.Transaction, table: string, columns: (keyof Row & string)[], rows: Row[]): Promise<void> {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (const chunk of chunks(rows, Math.floor(MAX_PARAMETERS / columns.length))) {
    const bindings = chunk.flatMap((row) => columns.map((column) => row[column] as Knex.Value));
    await trx.raw(`insert into ${table} (${columns.join(', ')}) values ${chunk.map(() => tuple).join(', ')}`, bindings);
  }
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
