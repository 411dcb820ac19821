import type { Database } from '../database/dialect.js';
import type { ReportRecord } from '../database/entities.js';
import type { Host } from '../generated/types.gen.js';
import { filteredHostIds, hostRecordPages, hostsOf, type HostFilters } from '../hosts/host-queries.js';
import { hostRowPagesAsOf, hostsAsOf } from '../hosts/hosts-as-of.js';
import { hostCompliancesAt } from '../policies/compliance-as-of.js';
import type { ReadRowOf } from '../database/rows.js';
import { isScoped, type AccessScope } from '../people/scope.js';
import { failingRules } from '../policies/policy-results.js';
import { receivedBefore } from '../reports/report-queries.js';
import { pagesOf } from './export-body.js';

/** Rows read from the database per page. */
const PAGE = 1000;

export const HOST_COLUMNS = [
  'id',
  'hostname',
  'hostId',
  'keyId',
  'keyLabel',
  'os',
  'lynisVersion',
  'groups',
  'tags',
  'customerName',
  'firstSeen',
  'lastSeen',
  'state',
  'stateSince',
  'reportCount',
  'hardeningIndex',
  'warnings',
  'suggestions',
  'compliance',
  'failingRules',
];
export const FINDING_COLUMNS = ['kind', 'testId', 'text', 'hostRecordId', 'hostname', 'hostId'];
export const HISTORY_COLUMNS = ['reportId', 'receivedAt', 'lynisVersion', 'hardeningIndex', 'warnings', 'suggestions'];

/**
 * The hosts in `scope` the list shows with these filters, in its order (the same query), with their labels, counts,
 * key label, compliance and failing rules.
 */
export async function* hostRows(database: Database, scope: AccessScope, filters: HostFilters = {}, now = new Date()): AsyncGenerator<Record<string, unknown>> {
  for await (const { hosts, failing } of hostPages(database, scope, filters, now)) yield* rowsOf(database, hosts, failing);
}

/**
 * The hosts in `scope` the list shows with these filters, as of `at` ({@link hostPageAsOf}): the figures of each
 * host's latest report received by then, its compliance and failing rules then.
 */
export async function* hostRowsAsOf(database: Database, scope: AccessScope, filters: HostFilters, at: Date): AsyncGenerator<Record<string, unknown>> {
  for await (const rows of hostRowPagesAsOf(database, scope, filters, at, PAGE)) {
    const ids = rows.map((row) => row.id);
    const compliance = await hostCompliancesAt(database, scope, ids, at);
    const failing = new Map([...compliance].map(([id, host]) => [id, host.failingRules]));
    yield* rowsOf(database, await hostsAsOf(database.em.fork(), rows, compliance), failing);
  }
}

/** The hosts of the list now, a page at a time, with their failing rules. */
async function* hostPages(
  database: Database,
  scope: AccessScope,
  filters: HostFilters,
  now: Date,
): AsyncGenerator<{ hosts: Host[]; failing: Map<string, string[]> }> {
  for await (const { em, records } of hostRecordPages(database, scope, filters, PAGE)) {
    const ids = records.map((record) => record.id);
    const [hosts, failing] = await Promise.all([hostsOf(em, records, now), failingRules(database, ids, now)]);
    yield { hosts, failing };
  }
}

/** A page of hosts as export rows, with their key's label. */
async function* rowsOf(database: Database, hosts: Host[], failing: Map<string, string[]>): AsyncGenerator<Record<string, unknown>> {
  const keyIds = [...new Set(hosts.map((host) => host.keyId))];
  const keys = (await database.em.getKnex()('license_key').select('id', 'label').whereIn('id', keyIds)) as { id: string; label: string | null }[];
  const labels = new Map(keys.map((key) => [key.id, key.label]));
  for (const host of hosts) {
    yield {
      id: host.id,
      hostname: host.hostname,
      hostId: host.hostId,
      keyId: host.keyId,
      keyLabel: labels.get(host.keyId) ?? null,
      os: host.os,
      lynisVersion: host.lynisVersion,
      groups: host.groups,
      tags: host.tags,
      customerName: host.customerName,
      firstSeen: host.firstSeen,
      lastSeen: host.lastSeen,
      state: host.state,
      stateSince: host.stateSince,
      reportCount: host.reportCount,
      hardeningIndex: host.latestHardeningIndex,
      warnings: host.latestWarningCount,
      suggestions: host.latestSuggestionCount,
      compliance: host.compliance,
      failingRules: failing.get(host.id) ?? [],
    };
  }
}

/** Every finding of the latest report of every host in `scope` the list shows with these filters, by host id, kind and test id. */
export async function* findingRows(database: Database, scope: AccessScope, filters: HostFilters = {}): AsyncGenerator<Record<string, unknown>> {
  const narrowed = isScoped(scope) || Object.values(filters).some((value) => value !== undefined);
  const hosts = narrowed ? filteredHostIds(database, scope, filters) : undefined;
  const knex = database.em.getKnex();
  type Row = { host_record_id: string; kind: string; test_id: string; text: string; hostname: string | null; host_id: string };
  const readPage = (after: Row | undefined) => {
    const query = knex('host_finding as f')
      .join('host as h', 'h.id', 'f.host_record_id')
      .select('f.host_record_id', 'f.kind', 'f.test_id', 'f.text', 'h.hostname', 'h.host_id');
    if (hosts) query.whereIn('f.host_record_id', hosts.clone());
    // The bound on h.id too lets PostgreSQL's merge join start each page at the last host instead of the table's start.
    if (after)
      query.whereRaw('(f.host_record_id, f.kind, f.test_id) > (?, ?, ?) and h.id >= ?', [
        after.host_record_id,
        after.kind,
        after.test_id,
        after.host_record_id,
      ]);
    return query.orderBy(['f.host_record_id', 'f.kind', 'f.test_id']).limit(PAGE) as Promise<Row[]>;
  };
  for await (const page of pagesOf(readPage, (row) => row, PAGE)) {
    for (const row of page)
      yield { kind: row.kind, testId: row.test_id, text: row.text, hostRecordId: row.host_record_id, hostname: row.hostname, hostId: row.host_id };
  }
}

/** A host's reports, newest first (its caller has found the host in the reader's scope). */
export async function* historyRows(database: Database, hostRecordId: string): AsyncGenerator<Record<string, unknown>> {
  const knex = database.em.getKnex();
  type Row = Pick<ReadRowOf<ReportRecord>, 'id' | 'received_at' | 'lynis_version' | 'hardening_index' | 'warning_count' | 'suggestion_count'>;
  const readPage = (after: Row | undefined) => {
    const query = knex('report')
      .select('id', 'received_at', 'lynis_version', 'hardening_index', 'warning_count', 'suggestion_count')
      .where('host_record_id', hostRecordId);
    if (after) query.andWhere((older) => receivedBefore(older, after));
    return query
      .orderBy([
        { column: 'received_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(PAGE) as Promise<Row[]>;
  };
  for await (const page of pagesOf(readPage, (row) => row, PAGE)) {
    for (const row of page) {
      yield {
        reportId: row.id,
        receivedAt: new Date(row.received_at).toISOString(),
        lynisVersion: row.lynis_version,
        hardeningIndex: row.hardening_index,
        warnings: row.warning_count,
        suggestions: row.suggestion_count,
      };
    }
  }
}
