// Daily compliance snapshots: once a UTC day is over, its compliance as of its last moment (`compliance-at.ts`) is
// counted for the fleet, each group and each customer, over every policy and per policy, and stored. An answer
// for a past day then reads a few rows instead of replaying every change; the changes stay, so a day no server
// snapshotted (all were down) is computed later with the same answer. Today has a provisional snapshot in the same
// table, as of the moment it was taken (its rows' `taken_at`, before the day's end: that is what marks them not
// final), replaced every few minutes, so that today's point is no fleet-wide computation per request; once the day
// is over its final snapshot replaces it.
import type { AuditLogger } from '@org/audit-server-core';
import { describeFailure } from '@org/audit-server-core';
import type { HostsByCompliance, OpenFindingsByKind } from '../generated/types.gen.js';
import type { Database, DatabaseTime } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { ComplianceSnapshotRecord } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import { chunks, MAX_PARAMETERS } from '../database/batches.js';
import { BackgroundPasses, BackgroundWorker } from '../ops/background-passes.js';
import { UNSCOPED } from '../people/scope.js';
import { FLEET as ALL_POLICIES } from '../policies/policy-counts.js';
import { complianceAt, type ComplianceAt, type ComplianceStatus, type HostAt } from './compliance-at.js';
import { openFindingsAt } from './open-findings-at.js';

export { ALL_POLICIES };

const DAY_MS = 86_400_000;

/** Whose figures: the fleet's, a group's or a customer's (its value lowered; empty for the fleet). */
export type ScopeKind = 'fleet' | 'group' | 'customer';

/** The figures of some hosts at a moment: over every policy, per policy (by id) and their open findings. */
export interface Figures {
  hosts: HostsByCompliance;
  policies: Map<string, HostsByCompliance>;
  findings: OpenFindingsByKind;
}

/** A day, `YYYY-MM-DD`, as a time: its first millisecond (UTC). */
export const startOfDay = (day: string) => new Date(`${day}T00:00:00.000Z`);
/** The last millisecond of a day: what its point is as of. */
export const endOfDay = (day: string) => new Date(startOfDay(day).getTime() + DAY_MS - 1);
/** The day `days` after `day` (before it when negative). */
export const addDays = (day: string, days: number) => new Date(startOfDay(day).getTime() + days * DAY_MS).toISOString().slice(0, 10);
/** The UTC day of a time. */
export const dayOf = (time: Date) => time.toISOString().slice(0, 10);

export const emptyHosts = (): HostsByCompliance => ({ compliant: 0, noncompliant: 0, accepted: 0, unknown: 0 });
const emptyFindings = (): OpenFindingsByKind => ({ warning: 0, suggestion: 0, accepted: 0 });

/**
 * The figures at a moment of the fleet (key `fleet\n`), of each group (`group\n<lowered>`) and of each customer
 * (`customer\n<lowered>`), the hosts' groups and customers as they are now; only the fleet's when `fleetOnly`.
 */
export function figuresByScope(at: ComplianceAt, findings: Map<string, OpenFindingsByKind>, fleetOnly = false): Map<string, Figures> {
  const byScope = new Map<string, Figures>();
  const add = (key: string, host: HostAt) => {
    let figures = byScope.get(key);
    if (!figures) byScope.set(key, (figures = { hosts: emptyHosts(), policies: new Map(), findings: emptyFindings() }));
    if (host.status) figures.hosts[host.status] += 1;
    for (const [policyId, status] of host.policies) countIn(figures.policies, policyId, status);
    const open = findings.get(host.hostRecordId);
    if (open) for (const kind of ['warning', 'suggestion', 'accepted'] as const) figures.findings[kind] += open[kind];
  };
  byScope.set('fleet\n', { hosts: emptyHosts(), policies: new Map(), findings: emptyFindings() });
  for (const host of at.hosts) {
    add('fleet\n', host);
    if (fleetOnly) continue;
    for (const group of new Set(host.groups)) add(`group\n${group}`, host);
    if (host.customer !== null) add(`customer\n${host.customer}`, host);
  }
  return byScope;
}

function countIn(map: Map<string, HostsByCompliance>, key: string, status: ComplianceStatus) {
  let counts = map.get(key);
  if (!counts) map.set(key, (counts = emptyHosts()));
  counts[status] += 1;
}

/** How often the background pass refreshes today's provisional snapshot. */
export const PROVISIONAL_INTERVAL_MS = 5 * 60_000;
/** The oldest provisional snapshot today's point is read from: two passes, so a request computes only when they lag. */
export const PROVISIONAL_MAX_AGE_MS = 2 * PROVISIONAL_INTERVAL_MS;

/** A snapshot row is final when taken after its day was over; before, it is today's provisional one. */
export const isFinal = (row: { day: string; taken_at: DatabaseTime }) => new Date(row.taken_at).getTime() > endOfDay(row.day).getTime();

/**
 * Takes the snapshot of `day` (over), unless a final one is stored: final rows already there are left as they are,
 * a provisional snapshot of the day is replaced.
 */
export async function takeSnapshot(database: Database, day: string, now = new Date()): Promise<void> {
  // Another server may have taken it since this one found it missing: a day's figures cost seconds on a large fleet.
  const stored = await fleetRowOf(database, day);
  if (stored && isFinal({ day, taken_at: stored.taken_at })) return;
  await storeSnapshot(database, day, endOfDay(day), now);
}

/** Takes today's provisional snapshot, as of `now`, in place of the one stored. */
export async function takeProvisionalSnapshot(database: Database, now = new Date()): Promise<void> {
  await storeSnapshot(database, dayOf(now), now, now);
}

/** When today's provisional snapshot was taken (its fleet row's `taken_at`), or null when none is stored. */
export async function provisionalTakenAt(database: Database, now = new Date()): Promise<Date | null> {
  const row = await fleetRowOf(database, dayOf(now));
  return row ? new Date(row.taken_at) : null;
}

/** The fleet's all-policies row of `day`'s snapshot (which marks the day taken), if one is stored. */
async function fleetRowOf(database: Database, day: string): Promise<{ taken_at: DatabaseTime } | undefined> {
  return (await database.em
    .getKnex()('compliance_snapshot')
    .first('taken_at')
    .where({ day, policy_id: ALL_POLICIES, scope_kind: 'fleet', scope_value: '' })) as { taken_at: DatabaseTime } | undefined;
}

/** Stores the figures of `day` as of `moment` (its end for a final snapshot, taken `now`). */
async function storeSnapshot(database: Database, day: string, moment: Date, now: Date): Promise<void> {
  const final = moment.getTime() === endOfDay(day).getTime();
  const [at, findings] = await Promise.all([complianceAt(database, moment, { scope: UNSCOPED }), openFindingsAt(database, moment, { scope: UNSCOPED })]);
  const dialect = sqlDialectOf(database.em);
  const takenAt = dialect.toDatabaseTime(now);
  const rows: ReadRowOf<ComplianceSnapshotRecord>[] = [];
  for (const [key, figures] of figuresByScope(at, findings)) {
    const [kind, value] = key.split('\n') as [ScopeKind, string];
    const row = { day, scope_kind: kind, scope_value: value, taken_at: takenAt };
    rows.push({
      ...row,
      policy_id: ALL_POLICIES,
      ...figures.hosts,
      open_warning: figures.findings.warning,
      open_suggestion: figures.findings.suggestion,
      accepted_findings: figures.findings.accepted,
    });
    for (const [policyId, hosts] of figures.policies)
      rows.push({ ...row, policy_id: policyId, ...hosts, open_warning: null, open_suggestion: null, accepted_findings: null });
  }
  // Another server may take the same day at once: the same rows, the first kept (final snapshots never change). The
  // day's provisional rows go first, those of a group or customer with no hosts any more included.
  await database.em.getKnex().transaction(async (trx) => {
    await trx('compliance_snapshot')
      .where('day', day)
      .andWhere('taken_at', '<=', dialect.toDatabaseTime(final ? moment : now))
      .delete();
    for (const batch of chunks(rows, Math.floor(MAX_PARAMETERS / 12))) {
      const insert = trx('compliance_snapshot').insert(batch).onConflict(['day', 'policy_id', 'scope_kind', 'scope_value']);
      await (final ? insert.ignore() : insert.merge());
    }
  });
}

/** The days over by `now` with no snapshot, from the first day with any change or transition, oldest first. */
export async function missingDays(database: Database, now = new Date()): Promise<string[]> {
  const knex = database.em.getKnex();
  const [[changes], [transitions], taken] = await Promise.all([
    knex('policy_result_change').min({ first: 'at' }) as unknown as Promise<[{ first: DatabaseTime | null }]>,
    knex('finding_transition').min({ first: 'at' }) as unknown as Promise<[{ first: DatabaseTime | null }]>,
    knex('compliance_snapshot').select('day', 'taken_at').where({ policy_id: ALL_POLICIES, scope_kind: 'fleet', scope_value: '' }) as Promise<
      { day: string; taken_at: DatabaseTime }[]
    >,
  ]);
  const firsts = [changes?.first, transitions?.first].flatMap((first) => (first === null || first === undefined ? [] : [dayOf(new Date(first))]));
  if (firsts.length === 0) return [];
  const first = firsts.sort()[0]!;
  const done = new Set(taken.filter(isFinal).map((row) => row.day));
  const days: string[] = [];
  for (let day = first; day < dayOf(now); day = addDays(day, 1)) if (!done.has(day)) days.push(day);
  return days;
}

/**
 * Takes the snapshot of every day over with no final one (`missingDays`), and today's provisional one, on a timer
 * (every 5 minutes) and at start. Several servers may take the same day: each computes the same rows, and the first
 * stored is kept; today's is left alone when another server took it within the last half interval.
 */
export class ComplianceSnapshots extends BackgroundWorker {
  protected readonly passes: BackgroundPasses;

  constructor(database: Database, logger: AuditLogger, options: { intervalMs?: number; now?: () => Date } = {}) {
    super();
    const intervalMs = options.intervalMs ?? PROVISIONAL_INTERVAL_MS;
    this.passes = new BackgroundPasses(
      async () => {
        const now = options.now?.() ?? new Date();
        const days = await missingDays(database, now);
        for (const day of days) {
          if (this.passes.isStopped) return;
          await takeSnapshot(database, day, now);
        }
        if (days.length > 0) logger.info({ component: 'compliance-snapshots', days: days.length }, 'compliance snapshots taken');
        if (this.passes.isStopped) return;
        const takenAt = await provisionalTakenAt(database, now);
        if (takenAt === null || now.getTime() - takenAt.getTime() >= intervalMs / 2) await takeProvisionalSnapshot(database, now);
      },
      {
        intervalMs,
        wakeDelayMs: 0,
        onError: (error) => logger.error({ error: describeFailure(error) }, 'compliance snapshot pass failed; trying again later'),
      },
    );
  }
}
