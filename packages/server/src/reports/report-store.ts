import { randomUUID } from 'node:crypto';
import type { ReportStore, ReportToStore } from '@org/audit-server-core';
import type { Database, SqlDialect } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { ReportRecord } from '../database/entities.js';
import type { RowOf } from '../database/rows.js';
import { columnText, deriveFromReport, replaceDerivations, type DerivedHost, type HostDerivation } from '../hosts/host-derivation.js';
import { pendingContent, type StoredContent } from './report-content.js';
import { hostRecordId, hostRowsOf, upsertHosts, type HostSighting, type UpsertedHost } from '../hosts/host-records.js';
import { writeEvents, type OutboxEvent } from '../webhooks/outbox.js';
import { admitReports, DEFAULT_NEW_HOSTS_PER_DAY, writeIdentityFlags, type Admission, type AdmissionSettings } from '../hosts/host-admission.js';
import { hasDriverCode } from '../database/unavailable.js';
import type { WriteHealth } from '../ops/write-health.js';
import type { Logger } from 'pino';
import { recordIdentityMerges } from '../hosts/host-identity-merge.js';

/** Most reports written in one transaction, well under SQLite's limits on bound parameters and compound selects. */
const MAX_GROUP = 128;
/** Default for {@link OrmReportStoreOptions.maxGroupBytes}. */
const MAX_GROUP_BYTES = 32 * 1024 * 1024;
/** Times a group is run again after losing a race with another transaction (a deadlock), before it counts as failed. */
const RETRIES = 3;

/** Tuning of {@link OrmReportStore}. */
export interface OrmReportStoreOptions {
  /** Most report bytes in one transaction, though always at least one report: SQLite copies each bound report. Default 32 MiB. */
  maxGroupBytes?: number;
  /** Told how each commit ended, so that readiness can say when the database does not take writes. */
  writeHealth?: WriteHealth;
  /** Told after each commit, so that work that follows new reports (policy evaluation) starts soon. */
  onCommitted?: () => void;
  /** Most groups committed at once; default: the dialect's {@link SqlDialect.concurrentGroups}. */
  concurrentGroups?: number;
  /** The host identity mode and the default quota of new hosts per key (see `hosts/host-admission.ts`). */
  admission?: Partial<AdmissionSettings>;
  /** Told when the audit trail's entry of an identity merge could not be written (the upload stands). */
  logger?: Pick<Logger, 'error'>;
}

/** A `report` row by column name, as the group commit inserts it. */
type ReportRow = RowOf<ReportRecord>;

interface PendingSave {
  row: ReportRow;
  host: HostSighting;
  /** The host's labels and findings, should this report be its newest. */
  derivation: HostDerivation;
  resolve(saved: { id: string }): void;
  reject(error: unknown): void;
}

/**
 * {@link ReportStore} over the database with group commit: reports arriving while every commit the dialect allows
 * at once is under way (one on SQLite, a few on PostgreSQL: `concurrentGroups`) wait and are then written together
 * in one transaction, with their hosts (and, for each host whose newest report is one of them, its
 * labels and findings), so one fsync covers all of them. Each `save` resolves only once the transaction holding its
 * report has committed (SQLite: WAL, `synchronous = FULL`). A report the database refuses fails only its own
 * `save`: the others of its group are then committed one by one. A group that loses a race with another
 * transaction (a deadlock) runs again. Concurrent groups stay right as two servers' do: the upsert of hosts decides
 * which report is a host's newest, hosts and counts are locked in key order, counts change by deltas. Before its
 * hosts are upserted, a group is admitted in the same transaction (`hosts/host-admission.ts`: host identity changes,
 * quotas of new hosts per key); a refused report fails its own `save` with core's `ReportRefusedError`.
 */
export class OrmReportStore implements ReportStore {
  private waiting: PendingSave[] = [];
  /** Groups being committed now, and the hosts they hold. */
  private inFlight = 0;
  private readonly busyHosts = new Set<string>();

  private readonly concurrentGroups: number;
  private readonly maxGroupBytes: number;
  private readonly dialect: SqlDialect;
  private readonly writeHealth: WriteHealth | undefined;
  private readonly onCommitted: (() => void) | undefined;
  private readonly admission: AdmissionSettings;
  private readonly logger: Pick<Logger, 'error'> | undefined;

  constructor(
    private readonly orm: Database,
    options: OrmReportStoreOptions = {},
  ) {
    this.maxGroupBytes = options.maxGroupBytes ?? MAX_GROUP_BYTES;
    this.dialect = sqlDialectOf(orm.em);
    this.writeHealth = options.writeHealth;
    this.onCommitted = options.onCommitted;
    this.concurrentGroups = options.concurrentGroups ?? this.dialect.concurrentGroups;
    this.logger = options.logger;
    this.admission = { hostIdentity: 'record', newHostsPerDay: DEFAULT_NEW_HOSTS_PER_DAY, ...options.admission };
  }

  async save(report: ReportToStore): Promise<{ id: string }> {
    // Stored as received: the compaction pass compresses it once uploads are quiet (see `report-compaction.ts`).
    const { row, host, derivation } = reportRowsOf(report, pendingContent(report.content), this.dialect);
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, host, derivation, resolve, reject });
      this.startGroups();
    });
  }

  /**
   * Starts groups of what is waiting while fewer than `concurrentGroups` commit; each, once done, starts the next.
   * A group takes no host another group under way holds: it would only wait for that host's row until the other
   * commits (a fleet of one host would commit one small group after another), so such reports wait for a later group.
   */
  private startGroups(): void {
    while (this.inFlight < this.concurrentGroups && this.waiting.length > 0) {
      const group = this.takeGroup();
      if (group.length === 0) return;
      const hostIds = [...new Set(group.map((save) => save.host.id))];
      for (const id of hostIds) this.busyHosts.add(id);
      this.inFlight++;
      void this.commitGroup(group).finally(() => {
        for (const id of hostIds) this.busyHosts.delete(id);
        this.inFlight--;
        this.startGroups();
      });
    }
  }

  /**
   * Takes the next group from the waiting reports, oldest first, skipping those of busy hosts: at most
   * {@link MAX_GROUP} reports and `maxGroupBytes` bytes, though always at least one report.
   */
  private takeGroup(): PendingSave[] {
    const group: PendingSave[] = [];
    const left: PendingSave[] = [];
    let bytes = 0;
    for (const save of this.waiting) {
      const fits = group.length === 0 || (group.length < MAX_GROUP && bytes + save.row.content.length <= this.maxGroupBytes);
      if (fits && !this.busyHosts.has(save.host.id)) {
        group.push(save);
        bytes += save.row.content.length;
      } else left.push(save);
    }
    this.waiting = left;
    return group;
  }

  private async commitGroup(group: PendingSave[], retries = RETRIES): Promise<void> {
    /** The statement's own error: SQLite rolls back by itself on SQLITE_FULL, and knex then reports only its failed ROLLBACK. */
    let statementError: unknown;
    let admission: Admission | undefined;
    try {
      // Through knex with bound parameters: MikroORM's own insert inlines values into the SQL text, which turns
      // every report into a hex literal twice its size for the database to parse.
      await this.orm.em.getKnex().transaction(async (trx) => {
        try {
          const now = new Date();
          admission = await admitReports(
            trx,
            this.dialect,
            group.map((save) => save.host),
            this.admission,
            now,
          );
          // A report that joins another host (an alias, an identity merge) keeps its own hostid, under that host's id.
          const kept = group.flatMap((save, index) => {
            if (admission!.refused.has(index)) return [];
            const hostRecordId = admission!.redirected.get(index) ?? save.row.host_record_id;
            return [{ ...save, row: { ...save.row, host_record_id: hostRecordId }, host: admission!.sightings[index]! }];
          });
          if (kept.length > 0) {
            const upserted = await upsertHosts(
              trx,
              this.dialect,
              hostRowsOf(
                kept.map((save) => save.host),
                this.dialect.toDatabaseTime,
              ),
            );
            await trx.insert(kept.map((save) => save.row)).into('report');
            await replaceDerivations(trx, this.dialect, newestDerivations(kept, upserted));
          }
          await writeIdentityFlags(trx, admission.flagged);
          await writeEvents(trx, [...kept.map(storedEvent), ...admission.events], this.dialect.toDatabaseTime(now));
        } catch (error) {
          statementError = error;
          throw error;
        }
      });
    } catch (error) {
      if (retries > 0 && hasDriverCode(statementError ?? error, this.dialect.isRetryableCode)) return this.commitGroup(group, retries - 1);
      if (group.length === 1) {
        this.writeHealth?.recordFailure();
        return group[0]!.reject(statementError ?? error);
      }
      for (const save of group) await this.commitGroup([save]);
      return;
    }
    this.writeHealth?.recordSuccess();
    if (admission && admission.merges.length > 0) await recordIdentityMerges(this.orm, admission.merges, this.logger);
    group.forEach((save, index) => {
      const refusal = admission?.refused.get(index);
      if (refusal) save.reject(refusal);
      else save.resolve({ id: save.row.id });
    });
    this.onCommitted?.();
  }
}

/**
 * The hosts whose newest report is now one of the group's, with that report's labels and findings and the digest
 * of the ones they hold, as the upsert left them: it holds the hosts' rows until commit, so no other writer changes
 * them in between.
 */
function newestDerivations(group: PendingSave[], upserted: UpsertedHost[]): DerivedHost[] {
  const byReport = new Map(group.map((save) => [save.row.id, save.derivation]));
  const derived: DerivedHost[] = [];
  for (const host of upserted) {
    const derivation = host.latest_report_id === null ? undefined : byReport.get(host.latest_report_id);
    if (derivation) derived.push({ id: host.id, storedDigest: host.derived_digest, derivation });
  }
  return derived;
}

/** A new report's row (its bytes as `stored` keeps them), and what it tells about its host. */
export function reportRowsOf(
  report: ReportToStore,
  stored: StoredContent,
  dialect: SqlDialect,
): { row: ReportRow; host: HostSighting; derivation: HostDerivation } {
  const summary = report.summary ?? null;
  const { columns, derivation } = deriveFromReport(summary, report.labels);
  const row: ReportRow = {
    id: randomUUID(),
    key_id: report.keyId,
    host_record_id: hostRecordId(report.keyId, report.hostId),
    host_id: report.hostId,
    host_id2: report.hostId2 ?? null,
    received_at: dialect.toDatabaseTime(report.receivedAt),
    encoding: report.encoding,
    size: report.size,
    sha256: report.sha256,
    content: stored.content,
    content_encoding: stored.contentEncoding,
    content_sha256: stored.contentSha256,
    hostname: columnText(summary?.hostname),
    lynis_version: columnText(summary?.lynisVersion),
    hardening_index: summary?.hardeningIndex ?? null,
    warning_count: summary ? summary.warnings.length : null,
    suggestion_count: summary ? summary.suggestions.length : null,
  };
  const host: HostSighting = {
    id: row.host_record_id,
    key_id: row.key_id,
    host_id: row.host_id,
    host_id2: row.host_id2,
    hostname: row.hostname,
    os_name: columnText(summary?.os?.fullName),
    lynis_version: row.lynis_version,
    latest_hardening_index: row.hardening_index,
    ...columns,
    // Written with the rows it describes, never by the upsert (see `replaceDerivations`).
    derived_digest: null,
    // Written by admission (`hosts/host-admission.ts`), never by the upsert.
    identity_changed_at: null,
    identity_from: null,
    identity_to: null,
    identity_refused: false,
    // Kept from the host's first report: the upsert never changes it on a known host.
    enrollment_id: report.enrollmentId ?? null,
    // A report makes its host active (`hosts/host-lifecycle.ts`), since now unless it already was.
    state: 'active',
    state_since: row.received_at,
    state_reason: 'reporting',
    machine_id: columnText(report.labels?.machineId),
    auto_purge: report.labels?.autoPurge ?? false,
    reportId: row.id,
    receivedAt: report.receivedAt,
  };
  return { row, host, derivation };
}

/** The `report.stored` event of a saved report, written to the outbox with it. */
function storedEvent({ row }: PendingSave): OutboxEvent {
  return {
    type: 'report.stored',
    data: {
      reportId: row.id,
      hostRecordId: row.host_record_id,
      keyId: row.key_id,
      hostId: row.host_id,
      hostname: row.hostname,
      hardeningIndex: row.hardening_index,
      warningCount: row.warning_count,
      receivedAt: new Date(row.received_at).toISOString(),
    },
  };
}
