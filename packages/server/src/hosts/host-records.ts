import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { DatabaseTime, SqlDialect } from '../database/dialect.js';
import type { HostRecord } from '../database/entities.js';
import type { RowOf } from '../database/rows.js';

/**
 * The id of the host a key and `hostid` belong to: the SHA-256 of both, written as a UUID (version 8, "custom"),
 * so that every server computes the same id without a round trip to the database.
 */
export function hostRecordId(keyId: string, hostId: string): string {
  const hex = createHash('sha256').update(`${keyId}\n${hostId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A `host` row by column name, as one group of new reports changes it (`report_count`: the reports it adds). */
export type HostRow = RowOf<HostRecord>;

/** One new report, as far as its host is concerned. */
export interface HostSighting extends Omit<HostRow, 'first_seen' | 'last_seen' | 'report_count' | 'latest_report_id'> {
  reportId: string;
  receivedAt: Date;
}

/**
 * The host rows a group of reports adds or changes, sorted by id: each host's columns come from its newest report
 * of the group (the later one on equal times).
 */
export function hostRowsOf(sightings: HostSighting[], toDatabaseTime: (time: Date) => DatabaseTime): HostRow[] {
  const byId = new Map<string, { newest: HostSighting; oldest: HostSighting; count: number }>();
  for (const sighting of sightings) {
    const seen = byId.get(sighting.id);
    if (!seen) byId.set(sighting.id, { newest: sighting, oldest: sighting, count: 1 });
    else {
      seen.count++;
      if (sighting.receivedAt >= seen.newest.receivedAt) seen.newest = sighting;
      if (sighting.receivedAt < seen.oldest.receivedAt) seen.oldest = sighting;
    }
  }
  return [...byId.values()]
    .map(({ newest: { reportId, receivedAt, ...columns }, oldest, count }) => ({
      ...columns,
      first_seen: toDatabaseTime(oldest.receivedAt),
      // Active since the group's first report of it (a host the group adds, or brings back).
      state_since: toDatabaseTime(oldest.receivedAt),
      last_seen: toDatabaseTime(receivedAt),
      report_count: count,
      latest_report_id: reportId,
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What the upsert tells of each host as it left it: its newest report (of any group so far) and derivation digest. */
export type UpsertedHost = Pick<HostRow, 'id' | 'latest_report_id' | 'derived_digest'>;

/** Columns that follow a host's newest report. */
export const LATEST_COLUMNS = [
  'host_id2',
  'hostname',
  'os_name',
  'lynis_version',
  'latest_report_id',
  'latest_hardening_index',
  'latest_warning_count',
  'latest_suggestion_count',
  'customer_name',
  'hostname_alias',
  'derived_version',
  'machine_id',
  'auto_purge',
] as const satisfies readonly (keyof HostRow)[];

/**
 * Inserts new hosts and updates known ones in one statement: counts add up, first and last seen widen, and the
 * descriptive columns change only when the group's report is at least as new as the host's newest. Rows must be
 * sorted by id (as {@link hostRowsOf} returns them) so that concurrent servers lock hosts in the same order and
 * cannot deadlock each other. Resolves with each host as the upsert left it (`returning`, sparing a read).
 */
export async function upsertHosts(trx: Knex.Transaction, dialect: SqlDialect, rows: HostRow[]): Promise<UpsertedHost[]> {
  const latest = Object.fromEntries(
    LATEST_COLUMNS.map((column) => [
      column,
      trx.raw(`case when ${dialect.proposed('last_seen')} >= host.last_seen then ${dialect.proposed(column)} else host.${column} end`),
    ]),
  );
  const merge = {
    ...latest,
    report_count: trx.raw(`host.report_count + ${dialect.proposed('report_count')}`),
    first_seen: trx.raw(dialect.least('host.first_seen', dialect.proposed('first_seen'))),
    last_seen: trx.raw(dialect.greatest('host.last_seen', dialect.proposed('last_seen'))),
    // A report makes a stale or decommissioned host active again (admission raised its `host.reactivated`).
    state: 'active',
    state_reason: 'reporting',
    state_since: trx.raw(`case when host.state = 'active' then host.state_since else ${dialect.proposed('state_since')} end`),
  };
  return await dialect.upsertReturning<UpsertedHost>(trx, { table: 'host', rows, conflict: ['key_id', 'host_id'], merge }, [
    'id',
    'latest_report_id',
    'derived_digest',
  ]);
}
