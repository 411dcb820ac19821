// Merging two host records of one machine (a new `hostid` after a reinstall or a Lynis upgrade): the other host's
// reports, policy result history, host waivers and merged `hostid`s move to the survivor, its `hostid` becomes an
// alias of the survivor (`host_alias`: later reports under it join the survivor, see `host-identity-merge.ts`), and
// the survivor takes the newest report's columns, labels and findings. Both hosts' counts are withdrawn first and the
// survivor's derived again, so that the fleet's counts hold the machine once. The other host's tracked findings that
// the survivor lacks move to it; those it has too are dropped, the survivor's lifecycle going on (`findings/`).
import type { Knex } from '@mikro-orm/knex';
import type { Database, DatabaseTime, SqlDialect } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { DomainError } from '../errors/domain-error.js';
import { mergeHostFindings } from '../findings/finding-records.js';
import { writeEvents, type OutboxEvent } from '../webhooks/outbox.js';
import { deriveLatestReports, type LatestReading } from './host-backfill.js';
import { replaceDerivations } from './host-derivation.js';
import { lockHostsForLifecycle, withdrawHosts } from './host-lifecycle.js';
import { LATEST_COLUMNS, type HostRow } from './host-records.js';

/** The columns of both hosts a merge reads to combine them. */
const MERGED_COLUMNS = [
  'id',
  'key_id',
  'host_id',
  'state',
  'state_since',
  'state_reason',
  'report_count',
  'first_seen',
  'last_seen',
  ...LATEST_COLUMNS,
] as const;
type MergedHost = Pick<HostRow, (typeof MERGED_COLUMNS)[number]>;

/** Tables whose rows of the merged host move to the survivor (its labels go with the newest report, see below). */
const MOVED_TABLES = ['report', 'policy_result_change', 'waiver', 'host_alias'] as const;

/** Times a merge reads the newest report again when an upload made another report a host's newest meanwhile. */
const ATTEMPTS = 3;

/** Whether the merge runs on its own (identity merge) or an operator asked for it. */
export interface MergeOptions {
  automatic: boolean;
}

/** What a merge did: both hosts as they were, and how many reports moved to the survivor. */
export interface HostMerge {
  survivor: MergedHost;
  merged: MergedHost;
  reportsMoved: number;
}

/** The `host.merged` event: the survivor as every lifecycle event names a host, and the host merged into it. */
export function mergedEvent(
  survivor: Pick<HostRow, 'id' | 'key_id' | 'host_id' | 'hostname'>,
  merged: Pick<HostRow, 'id' | 'host_id' | 'hostname'>,
  automatic: boolean,
  now: Date,
): OutboxEvent {
  return {
    type: 'host.merged',
    data: {
      hostRecordId: survivor.id,
      keyId: survivor.key_id,
      hostId: survivor.host_id,
      hostname: survivor.hostname,
      mergedHostRecordId: merged.id,
      mergedHostId: merged.host_id,
      mergedHostname: merged.hostname,
      automatic,
      at: now.toISOString(),
    },
  };
}

/**
 * Merges the host `otherId` into `survivorId` in one transaction, both rows locked in id order. The newest report of
 * both is read before the transaction (reports can be megabytes, and SQLite's writers wait while a transaction holds
 * the lock); should an upload make another report newest meanwhile, the merge reads again. Resolves with what it
 * did, or undefined when either host does not exist. An `invalid` {@link DomainError} for the same host twice.
 */
export async function mergeHostRecords(
  database: Database,
  survivorId: string,
  otherId: string,
  options: MergeOptions,
  now: Date = new Date(),
): Promise<HostMerge | undefined> {
  if (survivorId === otherId) throw new DomainError('invalid', 'A host cannot be merged into itself');
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  for (let attempt = 1; ; attempt++) {
    const reading = await readNewestReport(knex, survivorId, otherId);
    const outcome = await knex.transaction(async (trx) => {
      await dialect.startWriting(trx);
      return mergeLocked(trx, dialect, { survivorId, otherId, reading }, options, now);
    });
    if (outcome !== 'newer-report') return outcome;
    if (attempt === ATTEMPTS) throw new DomainError('conflict', 'The hosts kept receiving reports during the merge; try again');
  }
}

/** The newest report of both hosts, derived as the survivor's (undefined when neither exists or has a report). */
async function readNewestReport(knex: Knex, survivorId: string, otherId: string): Promise<LatestReading | undefined> {
  const hosts = (await knex('host').select('id', 'latest_report_id', 'last_seen').whereIn('id', [survivorId, otherId])) as Pick<
    MergedHost,
    'id' | 'latest_report_id' | 'last_seen'
  >[];
  const survivor = hosts.find((host) => host.id === survivorId);
  const other = hosts.find((host) => host.id === otherId);
  if (!survivor || !other) return undefined;
  const [reading] = await deriveLatestReports(knex, [{ id: survivorId, latest_report_id: newerOf(survivor, other).latest_report_id }]);
  return reading;
}

/** The host whose newest report is newer; the survivor on equal times. */
const newerOf = <Host extends Pick<MergedHost, 'last_seen'>>(survivor: Host, other: Host): Host =>
  new Date(other.last_seen).getTime() > new Date(survivor.last_seen).getTime() ? other : survivor;

/** The merge itself, in the caller's transaction; `newer-report` when `reading` is no longer the newest report. */
async function mergeLocked(
  trx: Knex.Transaction,
  dialect: SqlDialect,
  { survivorId, otherId, reading }: { survivorId: string; otherId: string; reading: LatestReading | undefined },
  { automatic }: MergeOptions,
  now: Date,
): Promise<HostMerge | undefined | 'newer-report'> {
  if ((await lockHostsForLifecycle(trx, dialect, [survivorId, otherId])).length < 2) return undefined;
  const rows = (await trx('host').select(MERGED_COLUMNS).whereIn('id', [survivorId, otherId])) as MergedHost[];
  const survivor = rows.find((row) => row.id === survivorId)!;
  const other = rows.find((row) => row.id === otherId)!;
  const newest = newerOf(survivor, other);
  // Both decommissioned: the survivor stays so, holding no findings (see `host-lifecycle.ts`), and is not derived.
  const derive = survivor.state !== 'decommissioned' || other.state !== 'decommissioned';
  if (derive && reading?.reportId !== newest.latest_report_id) return 'newer-report';
  const time = dialect.toDatabaseTime(now);
  await withdrawHosts(trx, dialect, [survivorId, otherId].sort());
  const reportsMoved = await moveRows(trx, otherId, survivorId);
  await mergeHostFindings(trx, otherId, survivorId);
  await trx('host_alias')
    .insert({ key_id: other.key_id, host_id: other.host_id, host_record_id: survivorId, merged_at: time })
    .onConflict(['key_id', 'host_id'])
    .merge(['host_record_id', 'merged_at']);
  // The labels of the newest report stay (a decommissioned host keeps its labels); the others go.
  await trx('host_label')
    .where('host_record_id', newest === other ? survivorId : otherId)
    .delete();
  if (newest === other) await trx('host_label').where('host_record_id', otherId).update({ host_record_id: survivorId });
  await trx('host').where('id', otherId).delete();
  await trx('host')
    .where('id', survivorId)
    .update(combinedColumns(survivor, other, newest, derive, automatic, dialect, time));
  if (derive && reading) await replaceDerivations(trx, dialect, [{ id: survivorId, storedDigest: null, derivation: reading.derived.derivation }]);
  await writeEvents(trx, [mergedEvent({ ...survivor, hostname: newest.hostname }, other, automatic, now)], time);
  return { survivor, merged: other, reportsMoved };
}

/** Moves the other host's rows of {@link MOVED_TABLES} to the survivor; resolves with how many reports moved. */
async function moveRows(trx: Knex.Transaction, otherId: string, survivorId: string): Promise<number> {
  let reports = 0;
  for (const table of MOVED_TABLES) {
    const moved = await trx(table).where('host_record_id', otherId).update({ host_record_id: survivorId });
    if (table === 'report') reports = moved;
  }
  return reports;
}

/**
 * The survivor's columns after the merge: counts add up, first and last seen widen, the newest report's columns;
 * active unless both were decommissioned (since now, when it was not active already).
 */
function combinedColumns(
  survivor: MergedHost,
  other: MergedHost,
  newest: MergedHost,
  derive: boolean,
  automatic: boolean,
  dialect: SqlDialect,
  time: DatabaseTime,
): Partial<HostRow> {
  const earliest = new Date(other.first_seen).getTime() < new Date(survivor.first_seen).getTime() ? other : survivor;
  const latest = Object.fromEntries(LATEST_COLUMNS.map((column) => [column, newest[column]])) as Pick<HostRow, (typeof LATEST_COLUMNS)[number]>;
  const columns: Partial<HostRow> = {
    ...latest,
    auto_purge: Boolean(newest.auto_purge),
    report_count: Number(survivor.report_count) + Number(other.report_count),
    first_seen: dialect.toDatabaseTime(new Date(earliest.first_seen)),
    last_seen: dialect.toDatabaseTime(new Date(newest.last_seen)),
  };
  if (derive && survivor.state !== 'active') Object.assign(columns, { state: 'active', state_since: time, state_reason: automatic ? 'reporting' : 'operator' });
  return columns;
}
