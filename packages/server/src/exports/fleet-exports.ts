import type { Database } from '../database/dialect.js';
import type { HostRecord, ReportRecord } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import { hostCompliances } from '../policies/policy-results.js';
import { receivedBefore } from '../reports/report-queries.js';
import { pagesOf } from './export-body.js';

/** Rows read from the database per page. */
const PAGE = 1000;

export const HOST_COLUMNS = [
  'id',
  'hostname',
  'hostId',
  'keyId',
  'os',
  'lynisVersion',
  'groups',
  'tags',
  'customerName',
  'firstSeen',
  'lastSeen',
  'reportCount',
  'hardeningIndex',
  'warnings',
  'suggestions',
  'compliance',
];
export const FINDING_COLUMNS = ['kind', 'testId', 'text', 'hostRecordId', 'hostname', 'hostId'];
export const HISTORY_COLUMNS = ['reportId', 'receivedAt', 'lynisVersion', 'hardeningIndex', 'warnings', 'suggestions'];

type HostRow = ReadRowOf<HostRecord>;

/** Every host with its labels, counts and compliance, by id. */
export async function* hostRows(database: Database, now = new Date()): AsyncGenerator<Record<string, unknown>> {
  const knex = database.em.getKnex();
  const readPage = (after: string | undefined) => {
    const query = knex('host').select('*').orderBy('id').limit(PAGE);
    if (after !== undefined) query.where('id', '>', after);
    return query as Promise<HostRow[]>;
  };
  for await (const page of pagesOf(readPage, (row) => row.id, PAGE)) {
    const ids = page.map((host) => host.id);
    const [labels, compliance] = await Promise.all([
      knex('host_label').select('host_record_id', 'kind', 'value').whereIn('host_record_id', ids).orderBy(['host_record_id', 'kind', 'position']) as Promise<
        { host_record_id: string; kind: string; value: string }[]
      >,
      hostCompliances(database, ids, now),
    ]);
    // One pass over the page's labels, not one per host: a page holds a thousand hosts.
    const byHost = new Map<string, { group: string[]; tag: string[] }>();
    for (const label of labels) {
      if (label.kind !== 'group' && label.kind !== 'tag') continue;
      let held = byHost.get(label.host_record_id);
      if (held === undefined) byHost.set(label.host_record_id, (held = { group: [], tag: [] }));
      held[label.kind].push(label.value);
    }
    const labelsOf = (id: string, kind: 'group' | 'tag') => byHost.get(id)?.[kind] ?? [];
    for (const host of page) {
      yield {
        id: host.id,
        hostname: host.hostname,
        hostId: host.host_id,
        keyId: host.key_id,
        os: host.os_name,
        lynisVersion: host.lynis_version,
        groups: labelsOf(host.id, 'group'),
        tags: labelsOf(host.id, 'tag'),
        customerName: host.customer_name,
        firstSeen: new Date(host.first_seen).toISOString(),
        lastSeen: new Date(host.last_seen).toISOString(),
        reportCount: Number(host.report_count),
        hardeningIndex: host.latest_hardening_index,
        warnings: host.latest_warning_count,
        suggestions: host.latest_suggestion_count,
        compliance: compliance.get(host.id)!,
      };
    }
  }
}

/** Every finding of every host's latest report, by host id, kind and test id. */
export async function* findingRows(database: Database): AsyncGenerator<Record<string, unknown>> {
  const knex = database.em.getKnex();
  type Row = { host_record_id: string; kind: string; test_id: string; text: string; hostname: string | null; host_id: string };
  const readPage = (after: Row | undefined) => {
    const query = knex('host_finding as f')
      .join('host as h', 'h.id', 'f.host_record_id')
      .select('f.host_record_id', 'f.kind', 'f.test_id', 'f.text', 'h.hostname', 'h.host_id');
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

/** A host's reports, newest first. */
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
