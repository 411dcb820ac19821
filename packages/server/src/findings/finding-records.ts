// Findings with a lifecycle (`finding`, `finding_transition`): how they are read as the contract's `TrackedFinding`,
// and the writes every part of the lifecycle shares (transitions, deleting a host's findings).
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import { chunks, MAX_PARAMETERS } from '../database/batches.js';
import type { DatabaseTime } from '../database/dialect.js';
import type { FindingRecord } from '../database/entities.js';
import type { RowOf } from '../database/rows.js';
import type { FindingKind, FindingState, TrackedFinding } from '../generated/types.gen.js';

export type { FindingState, TrackedFinding };
export type FindingRow = RowOf<FindingRecord>;

/** A finding as read for the contract: its row, its host's name and newest report time, the people's emails. */
type TrackedRow = FindingRow & {
  hostname: string | null;
  host_last_seen: DatabaseTime;
  owner_email: string | null;
  approver_email: string | null;
};

/**
 * Findings with what the contract shows of them: their host (`h`) and the emails of their owner and approver.
 * Callers add conditions (on `f.` and `h.` columns) and an order.
 */
export function trackedFindings(knex: Knex): Knex.QueryBuilder {
  return knex('finding as f')
    .join('host as h', 'h.id', 'f.host_record_id')
    .leftJoin('app_user as o', 'o.id', 'f.owner_user_id')
    .leftJoin('app_user as a', 'a.id', 'f.accept_approver_id')
    .select('f.*', { hostname: 'h.hostname', host_last_seen: 'h.last_seen', owner_email: 'o.email', approver_email: 'a.email' });
}

const iso = (time: DatabaseTime) => new Date(time).toISOString();
const isoOrNull = (time: DatabaseTime | null | undefined) => (time == null ? null : iso(time));

/**
 * The contract's `TrackedFinding` of a row. A finding that is not resolved is on the host's newest report, so it was
 * last seen when that report came: derived here from the host rather than written to every finding at every upload.
 */
export function toTrackedFinding(row: TrackedRow): TrackedFinding {
  const lastSeen =
    row.state === 'resolved' ? new Date(row.last_seen) : new Date(Math.max(new Date(row.last_seen).getTime(), new Date(row.host_last_seen).getTime()));
  return {
    id: row.id,
    hostRecordId: row.host_record_id,
    hostname: row.hostname,
    kind: row.kind as FindingKind,
    testId: row.test_id,
    text: row.text,
    state: row.state as FindingState,
    stateSince: iso(row.state_since),
    ownerUserId: row.owner_user_id,
    ownerEmail: row.owner_email,
    dueAt: isoOrNull(row.due_at),
    acceptance:
      row.state === 'accepted' && row.accept_approver_id !== null && row.accept_expires_at != null
        ? {
            reason: row.accept_reason ?? '',
            requestedBy: row.accept_requested_by,
            approverUserId: row.accept_approver_id,
            approverEmail: row.approver_email,
            expiresAt: iso(row.accept_expires_at),
          }
        : null,
    firstSeen: iso(row.first_seen),
    lastSeen: lastSeen.toISOString(),
    resolvedAt: isoOrNull(row.resolved_at),
    regressions: Number(row.regressions),
  };
}

/** What a query of {@link trackedFindings} finds, as the contract shows it. */
export async function readTracked(query: Knex.QueryBuilder): Promise<TrackedFinding[]> {
  return ((await query) as TrackedRow[]).map(toTrackedFinding);
}

/** The findings of these ids as the contract shows them, in no particular order. */
export async function readTrackedFindings(knex: Knex, ids: readonly string[]): Promise<TrackedFinding[]> {
  const found: TrackedFinding[] = [];
  for (const chunk of chunks([...ids], MAX_PARAMETERS)) {
    found.push(...(await readTracked(trackedFindings(knex).whereIn('f.id', chunk))));
  }
  return found;
}

/** One change of a finding's state, as `finding_transition` keeps it. */
export interface Transition {
  findingId: string;
  from: FindingState | null;
  to: FindingState;
  at: DatabaseTime;
  /** A person's email or a token's name; null for the server. */
  actor: string | null;
  reason: string | null;
}

/** Parameters of one transition's row: its seven columns, and a resolution's three for its episode's start. */
const PARAMETERS_PER_TRANSITION = 10;

/**
 * When the episode a resolution ends began: the regression before it, or else the finding's first sighting. Kept on
 * the resolution, so time to fix reads each duration from one row (`time-to-fix.ts`). The state is tested in the
 * select list, not the where clause: SQLite would otherwise read the index on (state, time), every regression of the
 * fleet before the resolution, instead of the finding's own transitions on (finding, time).
 */
export const EPISODE_START =
  "coalesce((select max(case when r.to_state = 'regressed' then r.at end) from finding_transition r where r.finding_id = ? and r.at < ?), (select f.first_seen from finding f where f.id = ?))";

/**
 * Writes transitions, many per statement. A resolution's episode start is read from the finding's earlier
 * transitions, so a finding's transitions are written in separate calls, in order (the server moves a finding once
 * per call).
 */
export async function writeTransitions(trx: Knex.Transaction, transitions: Transition[]): Promise<void> {
  for (const chunk of chunks(transitions, Math.floor(MAX_PARAMETERS / PARAMETERS_PER_TRANSITION))) {
    await trx('finding_transition').insert(
      chunk.map((transition) => ({
        id: randomUUID(),
        finding_id: transition.findingId,
        from_state: transition.from,
        to_state: transition.to,
        at: transition.at,
        actor: transition.actor,
        reason: transition.reason,
        episode_started_at: transition.to === 'resolved' ? trx.raw(EPISODE_START, [transition.findingId, transition.at, transition.findingId]) : null,
      })),
    );
  }
}

/** Deletes the findings of these hosts and their transitions (a host deleted). */
export async function deleteHostFindings(trx: Knex.Transaction, hostIds: readonly string[]): Promise<void> {
  for (const chunk of chunks([...hostIds], MAX_PARAMETERS)) {
    await trx('finding_transition').whereIn('finding_id', trx('finding').select('id').whereIn('host_record_id', chunk)).delete();
    await trx('finding').whereIn('host_record_id', chunk).delete();
  }
}

/**
 * Gives the survivor of a merge the other host's findings it does not have itself (by kind and test id), with their
 * history; the other host's findings the survivor has too are deleted with theirs: the survivor's lifecycle goes on.
 * The survivor's next derivation then resolves what its newest report no longer has.
 */
export async function mergeHostFindings(trx: Knex.Transaction, otherId: string, survivorId: string): Promise<void> {
  const duplicates = trx('finding as o')
    .select('o.id')
    .where('o.host_record_id', otherId)
    .whereExists(trx('finding as s').select(trx.raw('1')).where('s.host_record_id', survivorId).whereRaw('s.kind = o.kind and s.test_id = o.test_id'));
  const ids = ((await duplicates) as { id: string }[]).map((row) => row.id);
  for (const chunk of chunks(ids, MAX_PARAMETERS)) {
    await trx('finding_transition').whereIn('finding_id', chunk).delete();
    await trx('finding').whereIn('id', chunk).delete();
  }
  await trx('finding').where('host_record_id', otherId).update({ host_record_id: survivorId });
}
