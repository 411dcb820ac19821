import type { Knex } from '@mikro-orm/knex';
import type { Logger } from 'pino';
import { describeFailure, type RequestRejectedEvent } from '@org/audit-server-core';
import type { Database, SqlDialect } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { isRecordId, type RejectionRecord } from '../database/entities.js';
import type { RowOf } from '../database/rows.js';

/** A `rejection` row by column name. */
type RejectionRow = RowOf<RejectionRecord>;

/** How a {@link RejectionLog} batches, bounds and prunes. */
export interface RejectionLogOptions {
  /** How often counts are written; default 5000 ms. */
  flushIntervalMs?: number;
  /** Days of refusals kept in the table (today included); default 30. */
  keepDays?: number;
  /** Most distinct groups held in memory between writes; further groups are folded. Default 1000. */
  maxPendingGroups?: number;
  /** Most distinct groups kept per day in the table; further groups are folded. Default 10,000. */
  maxGroupsPerDay?: number;
  /** How often old days are deleted; default hourly. */
  pruneIntervalMs?: number;
  /** The clock, for tests. */
  now?: () => Date;
  /** Called inside each write's transaction with the groups it wrote, so that what follows from them commits with them. */
  onWrite?: (trx: Knex.Transaction, groups: RefusalGroup[], now: Date) => Promise<void>;
}

/** Refusals of one group, counted in memory. */
export interface RefusalGroup {
  day: string;
  operation: string;
  reason: string;
  keyId: string;
  hostId: string;
  remoteAddress: string;
  folded: boolean;
  count: number;
  firstAt: Date;
  lastAt: Date;
}

const OPERATIONS = new Set(['checkLicense', 'uploadReport']);
/** What the contract accepts as a `hostid`: printable ASCII without spaces, at most 255 characters. */
const HOST_ID = /^[!-~]{1,255}$/;
/** Any address form a client can have (IPv4, IPv6 with a zone) fits in this; anything else is not recorded. */
const REMOTE_ADDRESS = /^[!-~]{1,64}$/;
const REASON = /^[a-z-]{1,32}$/;
const DAY_MS = 86_400_000;
/** Rows per insert: 10 parameters each stays under SQLite's oldest limit of 999 parameters a statement. */
const ROWS_PER_STATEMENT = 90;
const COLUMNS = ['day', 'operation', 'reason', 'key_id', 'host_id', 'remote_address', 'folded'] as const;

/** The UTC day of `time`, `YYYY-MM-DD`. */
export const dayOf = (time: Date) => time.toISOString().slice(0, 10);

/**
 * Counts refused license checks and uploads in memory and writes them to the `rejection` table in one transaction
 * every few seconds, so that refusals cost no write in the request path. Bounded: at most `maxPendingGroups` groups
 * in memory and about `maxGroupsPerDay` rows per day (several servers may each add one batch over it); refusals
 * beyond either bound are counted in a `folded` group without `hostid` and address. A failed write keeps the counts
 * for the next one.
 */
export class RejectionLog {
  private pending = new Map<string, RefusalGroup>();
  private flushing: Promise<void> | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly dialect: SqlDialect;
  private readonly options: Required<Omit<RejectionLogOptions, 'now' | 'onWrite'>>;
  private readonly onWrite: RejectionLogOptions['onWrite'];
  private readonly now: () => Date;

  constructor(
    private readonly database: Database,
    private readonly logger: Pick<Logger, 'warn' | 'error' | 'info'>,
    options: RejectionLogOptions = {},
  ) {
    this.dialect = sqlDialectOf(database.em);
    this.now = options.now ?? (() => new Date());
    this.onWrite = options.onWrite;
    this.options = {
      flushIntervalMs: options.flushIntervalMs ?? 5000,
      keepDays: options.keepDays ?? 30,
      maxPendingGroups: options.maxPendingGroups ?? 1000,
      maxGroupsPerDay: options.maxGroupsPerDay ?? 10_000,
      pruneIntervalMs: options.pruneIntervalMs ?? 3_600_000,
    };
  }

  /** Writes every few seconds and prunes now and then hourly, until {@link close}. */
  start(): this {
    const flush = setInterval(() => void this.flush(), this.options.flushIntervalMs);
    const prune = setInterval(() => void this.pruneLogged(), this.options.pruneIntervalMs);
    for (const timer of [flush, prune]) timer.unref();
    this.timers.push(flush, prune);
    void this.pruneLogged();
    return this;
  }

  /** Counts one refusal in memory; never touches the database. For core's `onRequestRejected` hook. */
  record(event: RequestRejectedEvent): void {
    if (!OPERATIONS.has(event.operation)) return;
    const at = this.now();
    this.add({
      day: dayOf(at),
      operation: event.operation,
      reason: REASON.test(event.reason) ? event.reason : 'other',
      keyId: isRecordId(event.keyId) ? event.keyId.toLowerCase() : '',
      hostId: event.hostId !== undefined && HOST_ID.test(event.hostId) ? event.hostId : '',
      remoteAddress: event.remoteAddress !== undefined && REMOTE_ADDRESS.test(event.remoteAddress) ? event.remoteAddress : '',
      folded: false,
      count: 1,
      firstAt: at,
      lastAt: at,
    });
  }

  /** Groups counted in memory and not yet written. */
  get pendingGroups(): number {
    return this.pending.size;
  }

  /**
   * Writes the counts held in memory in one transaction, adding them to what is stored (so several servers may
   * write at once). On failure the counts stay in memory for the next write, and the failure is logged.
   */
  flush(): Promise<void> {
    this.flushing ??= this.writePending().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  /** Deletes the days older than `keepDays`; resolves with how many rows went. */
  async prune(): Promise<number> {
    const oldestKept = dayOf(new Date(this.now().getTime() - (this.options.keepDays - 1) * DAY_MS));
    return this.database.em.getKnex()('rejection').where('day', '<', oldestKept).delete();
  }

  /** Stops the timers and writes what is still held (logging, not throwing, when that fails). */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.flushing;
    await this.flush();
    if (this.pending.size > 0) this.logger.error({ component: 'rejections', groups: this.pending.size }, 'refusals not written at shutdown');
  }

  private async pruneLogged(): Promise<void> {
    try {
      const deleted = await this.prune();
      if (deleted > 0) this.logger.info({ component: 'rejections', deleted, keepDays: this.options.keepDays }, 'pruned refusals');
    } catch (error) {
      this.logger.warn({ component: 'rejections', error: describeFailure(error) }, 'pruning refusals failed; retrying at the next interval');
    }
  }

  /** Adds to the group's count, or folds the refusal when memory holds the most groups it may. */
  private add(group: RefusalGroup): void {
    let key = groupKey(group);
    if (!this.pending.has(key) && this.pending.size >= this.options.maxPendingGroups && !group.folded) {
      group = folded(group);
      key = groupKey(group);
    }
    const held = this.pending.get(key);
    if (!held) this.pending.set(key, { ...group });
    else {
      held.count += group.count;
      if (group.firstAt < held.firstAt) held.firstAt = group.firstAt;
      if (group.lastAt > held.lastAt) held.lastAt = group.lastAt;
    }
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.database.em.getKnex().transaction(async (trx) => {
        const days = [...new Set([...batch.values()].map((group) => group.day))].sort();
        for (const day of days)
          await this.writeDay(
            trx,
            [...batch.values()].filter((group) => group.day === day),
          );
        await this.onWrite?.(trx, [...batch.values()], this.now());
      });
    } catch (error) {
      for (const group of batch.values()) this.add(group);
      this.logger.warn(
        { component: 'rejections', error: describeFailure(error), groups: this.pending.size },
        'writing refusals failed; keeping the counts for the next write',
      );
    }
  }

  /** Adds one day's groups to the table, folding the new groups that would pass the day's bound (folded rows not counted). */
  private async writeDay(trx: Knex.Transaction, groups: RefusalGroup[]): Promise<void> {
    const day = groups[0]!.day;
    const [{ stored }] = (await trx('rejection').where({ day, folded: false }).count({ stored: '*' })) as [{ stored: number | string }];
    let room = this.options.maxGroupsPerDay - Number(stored);
    const fresh = groups.filter((group) => !group.folded);
    // Only near the bound: the day's stored groups, so that a group already stored is never folded.
    const known = room < fresh.length ? await this.storedKeys(trx, day) : undefined;
    const rows = new Map<string, RefusalGroup>();
    for (let group of groups) {
      if (!group.folded && known && !known.has(groupKey(group))) {
        if (room > 0) room--;
        else group = folded(group);
      }
      const key = groupKey(group);
      const row = rows.get(key);
      rows.set(key, row ? { ...row, count: row.count + group.count, firstAt: min(row.firstAt, group.firstAt), lastAt: max(row.lastAt, group.lastAt) } : group);
    }
    // Sorted, so that servers writing at once lock rows in the same order and cannot deadlock.
    const sorted = [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => this.rowOf(group));
    for (let start = 0; start < sorted.length; start += ROWS_PER_STATEMENT) {
      await this.upsert(trx, sorted.slice(start, start + ROWS_PER_STATEMENT));
    }
  }

  private async storedKeys(trx: Knex.Transaction, day: string): Promise<Set<string>> {
    const rows = (await trx('rejection')
      .select(...COLUMNS)
      .where('day', day)) as RejectionRow[];
    return new Set(
      rows.map((row) =>
        groupKey({
          day,
          operation: row.operation,
          reason: row.reason,
          keyId: row.key_id,
          hostId: row.host_id,
          remoteAddress: row.remote_address,
          folded: Boolean(row.folded),
        }),
      ),
    );
  }

  /** Inserts new groups and adds to the counts of stored ones in one statement. */
  private async upsert(trx: Knex.Transaction, rows: RejectionRow[]): Promise<void> {
    const { dialect } = this;
    await trx
      .insert(rows)
      .into('rejection')
      .onConflict([...COLUMNS])
      .merge({
        count: trx.raw(`rejection.count + ${dialect.proposed('count')}`),
        first_at: trx.raw(dialect.least('rejection.first_at', dialect.proposed('first_at'))),
        last_at: trx.raw(dialect.greatest('rejection.last_at', dialect.proposed('last_at'))),
      });
  }

  private rowOf(group: RefusalGroup): RejectionRow {
    return {
      day: group.day,
      operation: group.operation,
      reason: group.reason,
      key_id: group.keyId,
      host_id: group.hostId,
      remote_address: group.remoteAddress,
      folded: group.folded,
      count: group.count,
      first_at: this.dialect.toDatabaseTime(group.firstAt),
      last_at: this.dialect.toDatabaseTime(group.lastAt),
    };
  }
}

/** The group a refusal beyond a bound is counted in: same day, operation, reason and key, no `hostid` nor address. */
const folded = (group: RefusalGroup): RefusalGroup => ({ ...group, hostId: '', remoteAddress: '', folded: true });

const groupKey = (group: Omit<RefusalGroup, 'count' | 'firstAt' | 'lastAt'>) =>
  JSON.stringify([group.day, group.operation, group.reason, group.keyId, group.hostId, group.remoteAddress, group.folded]);

const min = (a: Date, b: Date) => (a < b ? a : b);
const max = (a: Date, b: Date) => (a > b ? a : b);
