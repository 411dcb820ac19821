// The server's own moves of a finding's lifecycle, made when a host's newest report changes its findings (in
// `replaceDerivations`, in the transaction that writes them): a finding new to the host opens, one the report no
// longer has is resolved, a resolved one seen again regresses. Compared with the host's `finding` rows rather than
// with `host_finding`, which a decommissioned host's withdrawal empties: a host back from decommission (or merged)
// moves only what its newest report really changed.
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import { chunks, MAX_PARAMETERS } from '../database/batches.js';
import type { DatabaseTime } from '../database/dialect.js';
import type { HostFindingRecord } from '../database/entities.js';
import type { RowOf } from '../database/rows.js';
import { writeFindingEvents } from './finding-events.js';
import { writeTransitions, type FindingRow, type FindingState, type Transition } from './finding-records.js';

type HostFindingRow = RowOf<HostFindingRecord>;
type StoredFinding = Pick<FindingRow, 'id' | 'host_record_id' | 'kind' | 'test_id' | 'text' | 'state'>;
type HostTimes = { id: string; first_seen: DatabaseTime; last_seen: DatabaseTime };

/** A host whose findings are now those of `findings` (its newest report's); `held`, the `host_finding` rows it had. */
export interface TrackedHost {
  id: string;
  findings: Omit<HostFindingRow, 'host_record_id'>[];
  held: Omit<HostFindingRow, 'host_record_id'>[];
}

/** What the hosts' new findings do to their lifecycles. */
interface Plan {
  opened: FindingRow[];
  /** Findings the hosts held before lifecycles were kept: tracked now, as open, with no event (see {@link untracked}). */
  adopted: FindingRow[];
  regressed: string[];
  resolved: string[];
  /** Findings whose text changed (a resolved one that regresses included). */
  retexted: { id: string; text: string }[];
  transitions: Transition[];
}

const keyOf = (row: { kind: string; test_id: string }) => `${row.kind}\0${row.test_id}`;

/**
 * Moves the lifecycles of the hosts' findings to their newest report's, in the caller's transaction, which holds the
 * hosts' rows. The time of each move is the host's newest report's (`host.last_seen`). Statements are batched over
 * all the hosts, and chunked under the limit on parameters; the events go to the outbox only when subscribed.
 */
export async function trackFindings(trx: Knex.Transaction, hosts: TrackedHost[]): Promise<void> {
  if (hosts.length === 0) return;
  const stored: StoredFinding[] = [];
  const times = new Map<string, HostTimes>();
  for (const ids of chunks(
    hosts.map((host) => host.id),
    MAX_PARAMETERS,
  )) {
    stored.push(
      ...((await trx('finding').select('id', 'host_record_id', 'kind', 'test_id', 'text', 'state').whereIn('host_record_id', ids)) as StoredFinding[]),
    );
    for (const row of (await trx('host').select('id', 'first_seen', 'last_seen').whereIn('id', ids)) as HostTimes[]) times.set(row.id, row);
  }
  const plan = planMoves(hosts, stored, times);
  await insertFindings(trx, [...plan.adopted, ...plan.opened]);
  await resolve(trx, plan.resolved);
  await regress(trx, plan.regressed);
  await retext(trx, plan.retexted);
  await writeTransitions(trx, plan.transitions);
  await writeFindingEvents(trx, [
    { type: 'finding.opened', ids: plan.opened.map((row) => row.id) },
    { type: 'finding.regressed', ids: plan.regressed },
    { type: 'finding.resolved', ids: plan.resolved },
  ]);
}

/** The moves of every host, from its findings now and the lifecycles it has. */
function planMoves(hosts: TrackedHost[], stored: StoredFinding[], times: Map<string, HostTimes>): Plan {
  const plan: Plan = { opened: [], adopted: [], regressed: [], resolved: [], retexted: [], transitions: [] };
  const byHost = new Map<string, StoredFinding[]>();
  for (const row of stored) byHost.set(row.host_record_id, [...(byHost.get(row.host_record_id) ?? []), row]);
  for (const host of hosts) {
    const time = times.get(host.id);
    if (!time) continue;
    const held = new Map((byHost.get(host.id) ?? []).map((row) => [keyOf(row), row]));
    const adopted = untracked(host, held, time);
    plan.adopted.push(...adopted);
    for (const row of adopted) held.set(keyOf(row), row);
    const move = (findingId: string, from: FindingState | null, to: FindingState) =>
      plan.transitions.push({ findingId, from, to, at: time.last_seen, actor: null, reason: null });
    const wanted = new Set<string>();
    for (const finding of host.findings) {
      wanted.add(keyOf(finding));
      const known = held.get(keyOf(finding));
      if (!known) {
        const row = newFinding(host.id, finding, 'open', time.last_seen, time.last_seen);
        plan.opened.push(row);
        move(row.id, null, 'open');
        continue;
      }
      if (known.text !== finding.text) plan.retexted.push({ id: known.id, text: finding.text });
      if (known.state === 'resolved') {
        plan.regressed.push(known.id);
        move(known.id, 'resolved', 'regressed');
      }
    }
    for (const [key, row] of held) {
      if (wanted.has(key) || row.state === 'resolved') continue;
      plan.resolved.push(row.id);
      move(row.id, row.state as FindingState, 'resolved');
    }
  }
  return plan;
}

/**
 * A host stored before the server kept lifecycles holds findings (`host_finding`) and no `finding` rows: those it held
 * are tracked from now on as open since the host's first report, with no event (nothing happened to them now). The
 * background pass (`finding-adoption.ts`) does the same for hosts that do not report.
 */
function untracked(host: TrackedHost, held: Map<string, StoredFinding>, time: HostTimes): FindingRow[] {
  if (held.size > 0) return [];
  return host.held.map((finding) => newFinding(host.id, finding, 'open', time.first_seen, time.last_seen));
}

/** A new finding's row. */
export function newFinding(
  hostRecordId: string,
  finding: Omit<HostFindingRow, 'host_record_id'>,
  state: FindingState,
  firstSeen: DatabaseTime,
  lastSeen: DatabaseTime,
): FindingRow {
  return {
    id: randomUUID(),
    host_record_id: hostRecordId,
    kind: finding.kind,
    test_id: finding.test_id,
    text: finding.text,
    state,
    state_since: firstSeen,
    owner_user_id: null,
    due_at: null,
    accept_reason: null,
    accept_requested_by: null,
    accept_approver_id: null,
    accept_expires_at: null,
    first_seen: firstSeen,
    last_seen: lastSeen,
    resolved_at: null,
    regressions: 0,
  };
}

/** Multi-row inserts of new findings. */
export async function insertFindings(trx: Knex.Transaction, rows: FindingRow[]): Promise<void> {
  for (const chunk of chunks(rows, Math.floor(MAX_PARAMETERS / 17))) if (chunk.length > 0) await trx('finding').insert(chunk);
}

/** The time of the host's newest report, for a statement on `finding`. */
const HOST_LAST_SEEN = '(select h.last_seen from host h where h.id = finding.host_record_id)';
/** The newest report of the host before its newest: the last that had a finding the newest no longer has. */
const PREVIOUS_REPORT = `(select max(r.received_at) from report r where r.host_record_id = finding.host_record_id and r.received_at < ${HOST_LAST_SEEN})`;

/**
 * Resolved at the host's newest report; last seen at the report before it (kept as it was when retention left none).
 * An accepted risk ends with the finding.
 */
async function resolve(trx: Knex.Transaction, ids: string[]): Promise<void> {
  for (const chunk of chunks(ids, MAX_PARAMETERS)) {
    await trx('finding')
      .whereIn('id', chunk)
      .update({
        state: 'resolved',
        state_since: trx.raw(HOST_LAST_SEEN),
        resolved_at: trx.raw(HOST_LAST_SEEN),
        last_seen: trx.raw(`coalesce(${PREVIOUS_REPORT}, finding.last_seen)`),
        accept_reason: null,
        accept_requested_by: null,
        accept_approver_id: null,
        accept_expires_at: null,
      });
  }
}

/** Seen again after being resolved: counted, since the host's newest report. */
async function regress(trx: Knex.Transaction, ids: string[]): Promise<void> {
  for (const chunk of chunks(ids, MAX_PARAMETERS)) {
    await trx('finding')
      .whereIn('id', chunk)
      .update({
        state: 'regressed',
        state_since: trx.raw(HOST_LAST_SEEN),
        last_seen: trx.raw(HOST_LAST_SEEN),
        resolved_at: null,
        regressions: trx.raw('regressions + 1'),
      });
  }
}

/** The newest report's text of findings whose text changed, many per statement. */
async function retext(trx: Knex.Transaction, rows: { id: string; text: string }[]): Promise<void> {
  for (const chunk of chunks(rows, Math.floor(MAX_PARAMETERS / 3))) {
    await trx.raw(`update finding set text = case id ${chunk.map(() => 'when ? then ?').join(' ')} end where id in (${chunk.map(() => '?').join(', ')})`, [
      ...chunk.flatMap((row) => [row.id, row.text]),
      ...chunk.map((row) => row.id),
    ]);
  }
}
