import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/sqlite';
import { hashLicenseKey, type KeyLookup, type KeyStore, type ReportStore, type ReportToStore } from '@org/audit-server-core';
import { LicenseKeyRecord } from './entities.js';

/** {@link KeyStore} over the database: keys are found by their SHA-256 hash. */
export class OrmKeyStore implements KeyStore {
  constructor(private readonly orm: MikroORM) {}

  async lookup(licenseKey: string): Promise<KeyLookup> {
    const record = await this.orm.em.fork().findOne(
      LicenseKeyRecord,
      { keyHash: hashLicenseKey(licenseKey) },
      { fields: ['id', 'revokedAt'] },
    );
    if (!record) return { state: 'unknown' };
    return { state: record.revokedAt ? 'revoked' : 'valid', keyId: record.id };
  }
}

/** Most reports written in one transaction, well under SQLite's limits on bound parameters and compound selects. */
const MAX_GROUP = 128;
/** Default for {@link OrmReportStoreOptions.maxGroupBytes}. */
const MAX_GROUP_BYTES = 32 * 1024 * 1024;

/** Tuning of {@link OrmReportStore}. */
export interface OrmReportStoreOptions {
  /** Most report bytes in one transaction, though always at least one report: SQLite copies each bound report. Default 32 MiB. */
  maxGroupBytes?: number;
}

/** A `report` row by column name (see the initial migration). */
interface ReportRow {
  id: string;
  key_id: string;
  host_id: string;
  host_id2: string | null;
  /** Milliseconds since the epoch, as MikroORM stores datetimes in SQLite. */
  received_at: number;
  encoding: string;
  size: number;
  sha256: string;
  content: Buffer;
}

interface PendingSave {
  row: ReportRow;
  resolve(saved: { id: string }): void;
  reject(error: unknown): void;
}

/**
 * {@link ReportStore} over the database with group commit: reports arriving while a commit is under way wait and
 * are then written together in one transaction, so one fsync covers all of them. Each `save` resolves only once
 * the transaction holding its report has committed (WAL, `synchronous = FULL`). A report the database refuses
 * fails only its own `save`: the others of its group are then committed one by one.
 */
export class OrmReportStore implements ReportStore {
  private waiting: PendingSave[] = [];
  private committing = false;

  private readonly maxGroupBytes: number;

  constructor(
    private readonly orm: MikroORM,
    options: OrmReportStoreOptions = {},
  ) {
    this.maxGroupBytes = options.maxGroupBytes ?? MAX_GROUP_BYTES;
  }

  save(report: ReportToStore): Promise<{ id: string }> {
    const row: ReportRow = {
      id: randomUUID(),
      key_id: report.keyId,
      host_id: report.hostId,
      host_id2: report.hostId2 ?? null,
      received_at: report.receivedAt.getTime(),
      encoding: report.encoding,
      size: report.size,
      sha256: report.sha256,
      content: report.content,
    };
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, resolve, reject });
      if (!this.committing) void this.commitWaiting();
    });
  }

  /** Commits what is waiting, group after group, until nothing is left; only one of these runs at a time. */
  private async commitWaiting(): Promise<void> {
    this.committing = true;
    try {
      while (this.waiting.length > 0) await this.commitGroup(this.waiting.splice(0, this.nextGroupSize()));
    } finally {
      this.committing = false;
    }
  }

  /** How many of the waiting reports go into the next transaction. */
  private nextGroupSize(): number {
    let bytes = this.waiting[0]!.row.content.length;
    let count = 1;
    while (count < this.waiting.length && count < MAX_GROUP && bytes + this.waiting[count]!.row.content.length <= this.maxGroupBytes) {
      bytes += this.waiting[count]!.row.content.length;
      count++;
    }
    return count;
  }

  private async commitGroup(group: PendingSave[]): Promise<void> {
    try {
      // Through knex with bound parameters: MikroORM's own insert inlines values into the SQL text, which turns
      // every report into a hex literal twice its size for SQLite to parse.
      await this.orm.em.getKnex().transaction((trx) => trx.insert(group.map((save) => save.row)).into('report'));
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      for (const save of group) await this.commitGroup([save]);
      return;
    }
    for (const save of group) save.resolve({ id: save.row.id });
  }
}
