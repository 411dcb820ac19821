// A host's life: `active` while it reports, `stale` after its stale threshold without a report, `decommissioned` by
// an operator or by expiry. A decommissioned host leaves every fleet figure: its findings and policy results are
// withdrawn from the kept counts (and its rows deleted) when it is decommissioned, and derived again from its newest
// report when it comes back, so that the counts the overview, the findings and compliance read stay exact with no
// condition added to them. Its reports, labels and history stay. Each transition writes its webhook event in the
// transaction that makes it, on rows it locks: once per transition, on any number of servers.
import type { Knex } from '@mikro-orm/knex';
import type { Database, DatabaseTime, SqlDialect } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { HostStateReason } from '../generated/types.gen.js';
import { deleteHostFindings } from '../findings/finding-records.js';
import { countResults, type CountedResult } from '../policies/policy-counts.js';
import { writeEvents, type OutboxEvent } from '../webhooks/outbox.js';
import { deriveLatestReports } from './host-backfill.js';
import { replaceDerivations, withdrawFindings } from './host-derivation.js';
import type { HostSighting } from './host-records.js';
import type { LifecycleSettings } from './lifecycle-settings.js';

export type HostState = 'active' | 'stale' | 'decommissioned';
export type { HostStateReason };

const DAY_MS = 86_400_000;

/** The columns of a host a transition reads and its event names. */
const LOCKED_COLUMNS = ['id', 'key_id', 'host_id', 'hostname', 'state', 'last_seen', 'latest_report_id'] as const;
export interface LockedHost {
  id: string;
  key_id: string;
  host_id: string;
  hostname: string | null;
  state: HostState;
  last_seen: DatabaseTime;
  latest_report_id: string | null;
}

/** What every lifecycle event says of its host. */
const hostData = (host: Pick<LockedHost, 'id' | 'key_id' | 'host_id' | 'hostname'>) => ({
  hostRecordId: host.id,
  keyId: host.key_id,
  hostId: host.host_id,
  hostname: host.hostname,
});

/**
 * The events of a group's admitted reports for their hosts' lives: `host.enrolled` for a host's first report,
 * `host.reactivated` for a host that was stale or decommissioned (`states`: the hosts known before the group, as
 * admission locked them). One per host, however many of its reports the group holds.
 */
export function arrivalEvents(sightings: HostSighting[], states: ReadonlyMap<string, HostState>, now: Date): OutboxEvent[] {
  const newest = new Map<string, HostSighting>();
  for (const sighting of sightings) {
    const seen = newest.get(sighting.id);
    if (!seen || sighting.receivedAt >= seen.receivedAt) newest.set(sighting.id, sighting);
  }
  const events: OutboxEvent[] = [];
  for (const sighting of newest.values()) {
    const data = { ...hostData(sighting), at: now.toISOString() };
    const state = states.get(sighting.id);
    if (state === undefined) events.push({ type: 'host.enrolled', data: { ...data, enrollmentId: sighting.enrollment_id } });
    else if (state !== 'active') events.push({ type: 'host.reactivated', data: { ...data, previousState: state, reason: 'reporting' } });
  }
  return events;
}

/** The hosts of `ids` that exist, locked until commit, in id order (the order every writer locks hosts in). */
export async function lockHostsForLifecycle(trx: Knex.Transaction, dialect: SqlDialect, ids: readonly string[]): Promise<LockedHost[]> {
  if (ids.length === 0) return [];
  const sorted = [...new Set(ids)].sort();
  const rows: LockedHost[] = [];
  for (let start = 0; start < sorted.length; start += 500) {
    const chunk = sorted.slice(start, start + 500);
    rows.push(...((await dialect.lockRows(trx('host').select(LOCKED_COLUMNS).whereIn('id', chunk).orderBy('id'))) as LockedHost[]));
  }
  return rows;
}

/**
 * Takes hosts out of the kept counts, in the caller's transaction, which holds their rows: their findings (rows
 * and `finding_count`), their policy results (rows and `policy_status_count`) and their evaluation, so that the
 * evaluator passes them by while they are decommissioned and evaluates them afresh when they are back.
 */
export async function withdrawHosts(trx: Knex.Transaction, dialect: SqlDialect, ids: readonly string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    await withdrawFindings(trx, dialect, chunk);
    const removed = await dialect.deleteReturning<CountedResult>(trx('policy_result').whereIn('host_record_id', chunk), [
      'policy_id',
      'rule_id',
      'host_record_id',
      'status',
    ]);
    await countResults(trx, dialect, removed, []);
    await trx('policy_evaluation').whereIn('host_record_id', chunk).delete();
  }
}

/** Who or what decommissions: an operator, or the server by a group's expiry or auto-purge. */
export type DecommissionReason = Extract<HostStateReason, 'operator' | 'group-expiry' | 'auto-purge'>;

/**
 * Decommissions the hosts of `ids` that are not yet, in the caller's transaction: their counts withdrawn, their
 * state set, one `host.decommissioned` event each. Resolves with the hosts it changed.
 */
export async function decommissionLocked(
  trx: Knex.Transaction,
  dialect: SqlDialect,
  hosts: LockedHost[],
  reason: DecommissionReason,
  now: Date,
): Promise<LockedHost[]> {
  const changing = hosts.filter((host) => host.state !== 'decommissioned');
  if (changing.length === 0) return [];
  const ids = changing.map((host) => host.id);
  await withdrawHosts(trx, dialect, ids);
  const time = dialect.toDatabaseTime(now);
  for (let start = 0; start < ids.length; start += 500) {
    await trx('host')
      .whereIn('id', ids.slice(start, start + 500))
      .update({ state: 'decommissioned', state_since: time, state_reason: reason, derived_digest: null });
  }
  await writeEvents(
    trx,
    changing.map((host) => ({
      type: 'host.decommissioned',
      data: { ...hostData(host), previousState: host.state, reason, lastSeen: new Date(host.last_seen).toISOString(), at: now.toISOString() },
    })),
    time,
  );
  return changing;
}

/** The state a host takes when it is back: stale when its last report is older than its stale threshold. */
function returningState(host: LockedHost, staleDays: number, now: Date): HostState {
  return new Date(host.last_seen).getTime() < now.getTime() - staleDays * DAY_MS ? 'stale' : 'active';
}

/** An operator's change of hosts' states, as `changeHostStates` and the single-host routes ask for it. */
export type StateAction = 'decommission' | 'reactivate';

/**
 * Decommissions or reactivates the hosts of `ids` (those already in the state asked for are left as they are), in
 * one transaction. A reactivated host's findings are derived from its newest report (read before the transaction:
 * reports can be megabytes, and SQLite's writers wait while a transaction holds the lock) and its policies
 * evaluated by the next pass. Resolves with the ids of the hosts that changed.
 */
export async function changeStates(
  database: Database,
  ids: readonly string[],
  action: StateAction,
  settings: Pick<LifecycleSettings, 'staleDaysOf'>,
  now: Date = new Date(),
): Promise<string[]> {
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const readings =
    action === 'reactivate'
      ? await deriveLatestReports(
          knex,
          (await knex('host').select('id', 'latest_report_id').whereIn('id', ids).andWhere('state', 'decommissioned')) as {
            id: string;
            latest_report_id: string | null;
          }[],
        )
      : [];
  return knex.transaction(async (trx) => {
    await dialect.startWriting(trx);
    const hosts = await lockHostsForLifecycle(trx, dialect, ids);
    if (action === 'decommission') return (await decommissionLocked(trx, dialect, hosts, 'operator', now)).map((host) => host.id);
    const back = hosts.filter((host) => host.state === 'decommissioned');
    const staleDays = await settings.staleDaysOf(
      trx,
      back.map((host) => host.id),
    );
    const time = dialect.toDatabaseTime(now);
    for (const host of back) {
      await trx('host')
        .where('id', host.id)
        .update({ state: returningState(host, staleDays.get(host.id)!, now), state_since: time, state_reason: 'operator' });
    }
    const derived = new Map(readings.map((reading) => [reading.id, reading]));
    await replaceDerivations(
      trx,
      dialect,
      back.flatMap((host) => {
        const reading = derived.get(host.id);
        // A reading of another report than the newest now would give the host the wrong findings: the next upload derives it.
        return reading && reading.reportId === host.latest_report_id ? [{ id: host.id, storedDigest: null, derivation: reading.derived.derivation }] : [];
      }),
    );
    await writeEvents(
      trx,
      back.map((host) => ({
        type: 'host.reactivated',
        data: { ...hostData(host), previousState: 'decommissioned', reason: 'operator', at: now.toISOString() },
      })),
      time,
    );
    return back.map((host) => host.id);
  });
}

/** Tables that name a host by `host_record_id`, and go with it when it is deleted. */
const HOST_TABLES = ['report', 'host_label', 'policy_result_change', 'waiver', 'host_alias'] as const;

/**
 * Deletes a host and everything of it (reports, labels, findings and their lifecycles, policy results and their history, host waivers,
 * merged `hostid`s), its counts withdrawn first, with a `host.deleted` event. Resolves with the host as it was, or
 * undefined when there is none.
 */
export async function deleteHostRecord(database: Database, id: string, now: Date = new Date()): Promise<LockedHost | undefined> {
  const dialect = sqlDialectOf(database.em);
  return database.em.getKnex().transaction(async (trx) => {
    await dialect.startWriting(trx);
    const [host] = await lockHostsForLifecycle(trx, dialect, [id]);
    if (!host) return undefined;
    await withdrawHosts(trx, dialect, [id]);
    for (const table of HOST_TABLES) await trx(table).where('host_record_id', id).delete();
    await deleteHostFindings(trx, [id]);
    await trx('host').where('id', id).delete();
    await writeEvents(trx, [{ type: 'host.deleted', data: { ...hostData(host), at: now.toISOString() } }], dialect.toDatabaseTime(now));
    return host;
  });
}
