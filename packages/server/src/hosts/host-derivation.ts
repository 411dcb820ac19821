import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { HostLabels, ReportSummary } from '@org/audit-server-core';
import { chunks, MAX_PARAMETERS } from '../database/batches.js';
import { applyCountDeltas, CountDeltas } from '../database/count-deltas.js';
import type { SqlDialect } from '../database/dialect.js';
import type { HostFindingRecord, HostLabelRecord, HostRecord } from '../database/entities.js';
import type { RowOf } from '../database/rows.js';
import type { FindingKind } from '../generated/types.gen.js';
import { trackFindings } from '../findings/finding-tracking.js';

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
/** What `host_label.kind` and `host_finding.kind` hold (the latter: the contract's `FindingKind`). */
export type LabelKind = 'group' | 'tag';
export type { FindingKind };

type HostLabelRow = RowOf<HostLabelRecord>;
type KeyType = Parameters<SqlDialect['keyIn']>[0][number][1];
type HostFindingRow = RowOf<HostFindingRecord>;

/** The host columns a report gives when it is the host's newest. */
export type DerivedColumns = Pick<
  RowOf<HostRecord>,
  'latest_warning_count' | 'latest_suggestion_count' | 'customer_name' | 'hostname_alias' | 'derived_version'
>;

/** A report's groups, tags and findings, as its host's rows would hold them were it the host's newest. */
export interface HostDerivation {
  labels: Omit<HostLabelRow, 'host_record_id'>[];
  findings: Omit<HostFindingRow, 'host_record_id'>[];
  /**
   * A digest of those rows, kept on the host (`derived_digest`) beside the rows it describes: a host whose newest
   * report gives the same rows as the one before (the usual case from one run to the next) needs none written.
   */
  digest: string;
}

/** A host whose newest report is now the one `derivation` comes from, and the digest of the rows it holds now. */
export interface DerivedHost {
  id: string;
  storedDigest: string | null;
  derivation: HostDerivation;
}

/** What a report gives its host: the columns, and the label and finding rows. Not a Lynis report: nulls and none. */
export function deriveFromReport(
  summary: ReportSummary | null,
  labels: HostLabels | null | undefined,
): { columns: DerivedColumns; derivation: HostDerivation } {
  return {
    columns: {
      latest_warning_count: summary ? summary.warnings.length : null,
      latest_suggestion_count: summary ? summary.suggestions.length : null,
      customer_name: columnText(labels?.customerName),
      hostname_alias: columnText(labels?.hostnameAlias),
      derived_version: DERIVED_VERSION,
    },
    derivation: derivation(
      [...labelRows('group', labels?.groups ?? []), ...labelRows('tag', labels?.tags ?? [])],
      summary ? [...findingRows('warning', summary.warnings), ...findingRows('suggestion', summary.suggestions)] : [],
    ),
  };
}

function derivation(labels: HostDerivation['labels'], findings: HostDerivation['findings']): HostDerivation {
  const digest = createHash('sha256')
    .update(JSON.stringify([labels, findings]))
    .digest('base64url');
  return { labels, findings, digest };
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
 * Gives hosts the labels and findings of their newest report, in the caller's transaction, which must hold the hosts'
 * rows (the upsert of their reports, or an update, locks them until commit). Hosts whose stored digest matches are
 * left alone; for the others, what they hold is read and only the difference written (rows gone deleted, new or
 * changed rows inserted: a row left alone costs its indexes nothing), then their digest; their findings' lifecycles
 * follow (`findings/finding-tracking.ts`). Hosts are taken in id
 * order (the order every writer locks them in), every value is a bound parameter, and statements are chunked under
 * SQLite's limit on parameters.
 */
export async function replaceDerivations(trx: Knex.Transaction, dialect: SqlDialect, hosts: DerivedHost[]): Promise<void> {
  const changed = hosts.filter((host) => host.storedDigest !== host.derivation.digest).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (changed.length === 0) return;
  const wantedLabels: HostLabelRow[] = [];
  const wantedFindings: HostFindingRow[] = [];
  for (const {
    id: host_record_id,
    derivation: { labels, findings },
  } of changed) {
    for (const label of labels) wantedLabels.push({ host_record_id, ...label });
    for (const finding of findings) wantedFindings.push({ host_record_id, ...finding });
  }
  const storedLabels: HostLabelRow[] = [];
  const storedFindings: HostFindingRow[] = [];
  for (const ids of chunks(
    changed.map((host) => host.id),
    MAX_PARAMETERS,
  )) {
    storedLabels.push(...((await trx('host_label').select('host_record_id', 'kind', 'value', 'position').whereIn('host_record_id', ids)) as HostLabelRow[]));
    storedFindings.push(
      ...((await trx('host_finding').select('host_record_id', 'kind', 'test_id', 'text').whereIn('host_record_id', ids)) as HostFindingRow[]),
    );
  }
  const labels = difference(
    storedLabels,
    wantedLabels,
    (row) => [row.host_record_id, row.kind, row.value],
    (row) => row.position,
  );
  const findings = difference(
    storedFindings,
    wantedFindings,
    (row) => [row.host_record_id, row.kind, row.test_id],
    (row) => row.text,
  );
  await deleteRows(
    trx,
    dialect,
    'host_label',
    [
      ['host_record_id', 'uuid'],
      ['kind', 'text'],
      ['value', 'text'],
    ],
    labels.gone,
  );
  await deleteRows(
    trx,
    dialect,
    'host_finding',
    [
      ['host_record_id', 'uuid'],
      ['kind', 'text'],
      ['test_id', 'text'],
    ],
    findings.gone,
  );
  await insertRows(trx, 'host_label', ['host_record_id', 'kind', 'value', 'position'], labels.added);
  await insertRows(trx, 'host_finding', ['host_record_id', 'kind', 'test_id', 'text'], findings.added);
  await countFindings(trx, dialect, findings);
  await trackFindings(trx, trackedHosts(changed, storedFindings));
  for (const chunk of chunks(changed, Math.floor(MAX_PARAMETERS / 3))) {
    await trx.raw(
      `update host set derived_digest = case id ${chunk.map(() => 'when ? then ?').join(' ')} end where id in (${chunk.map(() => '?').join(', ')})`,
      [...chunk.flatMap((host) => [host.id, host.derivation.digest]), ...chunk.map((host) => host.id)],
    );
  }
}

/** The hosts whose findings' lifecycles follow: their newest report's findings, and the rows they held before. */
function trackedHosts(changed: DerivedHost[], stored: HostFindingRow[]): Parameters<typeof trackFindings>[1] {
  const held = new Map<string, HostFindingRow[]>();
  for (const row of stored) held.set(row.host_record_id, [...(held.get(row.host_record_id) ?? []), row]);
  return changed.map((host) => ({ id: host.id, findings: host.derivation.findings, held: held.get(host.id) ?? [] }));
}

/**
 * The rows to delete (stored, and not wanted as they are) and to insert (wanted, and not stored as they are), each
 * in host order. A row's key is its primary key (the columns joined by NUL, which no stored text holds); a changed
 * value is a delete and an insert. A PostgreSQL uuid comes back in lowercase, as `hostRecordId` writes it.
 */
function difference<Row>(stored: Row[], wanted: Row[], keyOf: (row: Row) => string[], valueOf: (row: Row) => string | number): { gone: Row[]; added: Row[] } {
  const key = (row: Row) => keyOf(row).join('\0');
  const held = new Map<string, { row: Row; kept: boolean }>();
  for (const row of stored) held.set(key(row), { row, kept: false });
  const added: Row[] = [];
  for (const row of wanted) {
    const old = held.get(key(row));
    if (old !== undefined && String(valueOf(old.row)) === String(valueOf(row))) old.kept = true;
    else added.push(row);
  }
  const gone: [string, Row][] = [];
  for (const [rowKey, { row, kept }] of held) if (!kept) gone.push([rowKey, row]);
  return { gone: gone.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row), added };
}

/**
 * Deletes the findings of hosts whose rows the caller's transaction holds, and their counts, and forgets the hosts'
 * digests, so that their next derivation writes every row again (a decommissioned host's, when it is back).
 */
export async function withdrawFindings(trx: Knex.Transaction, dialect: SqlDialect, ids: readonly string[]): Promise<void> {
  const gone = await dialect.deleteReturning<HostFindingRow>(trx('host_finding').whereIn('host_record_id', ids), ['host_record_id', 'kind', 'test_id', 'text']);
  await countFindings(trx, dialect, { gone, added: [] });
  await trx('host').whereIn('id', ids).update({ derived_digest: null });
}

/** Keeps `finding_count` equal to `host_finding` grouped by kind and test id: each finding's change in hosts. */
async function countFindings(trx: Knex.Transaction, dialect: SqlDialect, findings: { gone: HostFindingRow[]; added: HostFindingRow[] }): Promise<void> {
  const deltas = new CountDeltas();
  for (const row of findings.gone) deltas.add([row.kind, row.test_id], -1);
  for (const row of findings.added) deltas.add([row.kind, row.test_id], 1);
  await applyCountDeltas(
    trx,
    dialect,
    'finding_count',
    [
      ['kind', 'text'],
      ['test_id', 'text'],
    ],
    deltas,
  );
}

/** Deletes rows by their primary key, many per statement (the dialect's condition on a list of keys). */
async function deleteRows<Row extends object>(
  trx: Knex.Transaction,
  dialect: SqlDialect,
  table: string,
  keyColumns: [keyof Row & string, KeyType][],
  rows: Row[],
): Promise<void> {
  for (const chunk of chunks(rows, Math.floor(MAX_PARAMETERS / keyColumns.length))) {
    const { sql, bindings } = dialect.keyIn(
      keyColumns,
      chunk.map((row) => keyColumns.map(([column]) => row[column] as string | number)),
    );
    await trx.raw(`delete from ${table} where ${sql}`, bindings as Knex.RawBinding[]);
  }
}

/** Multi-row inserts of plain `values` lists (knex writes a compound select per row on SQLite), chunked. */
async function insertRows<Row extends object>(trx: Knex.Transaction, table: string, columns: (keyof Row & string)[], rows: Row[]): Promise<void> {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  for (const chunk of chunks(rows, Math.floor(MAX_PARAMETERS / columns.length))) {
    const bindings = chunk.flatMap((row) => columns.map((column) => row[column] as Knex.Value));
    await trx.raw(`insert into ${table} (${columns.join(', ')}) values ${chunk.map(() => tuple).join(', ')}`, bindings);
  }
}
