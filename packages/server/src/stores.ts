import { randomUUID } from 'node:crypto';
import type { MikroORM, RequiredEntityData } from '@mikro-orm/sqlite';
import { hashLicenseKey, type KeyLookup, type KeyStore, type ReportStore, type ReportToStore } from '@org/audit-server-core';
import { LicenseKeyRecord, ReportRecord } from './entities.js';

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

/** Most reports written in one transaction, well under SQLite's limit on bound parameters. */
const MAX_GROUP = 256;

interface PendingSave {
  id: string;
  row: RequiredEntityData<ReportRecord>;
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

  constructor(private readonly orm: MikroORM) {}

  save(report: ReportToStore): Promise<{ id: string }> {
    const id = randomUUID();
    const row: RequiredEntityData<ReportRecord> = {
      id,
      key: report.keyId,
      hostId: report.hostId,
      hostId2: report.hostId2 ?? null,
      receivedAt: report.receivedAt,
      encoding: report.encoding,
      size: report.size,
      sha256: report.sha256,
      content: report.content,
    };
    return new Promise((resolve, reject) => {
      this.waiting.push({ id, row, resolve, reject });
      if (!this.committing) void this.commitWaiting();
    });
  }

  /** Commits what is waiting, group after group, until nothing is left; only one of these runs at a time. */
  private async commitWaiting(): Promise<void> {
    this.committing = true;
    try {
      while (this.waiting.length > 0) await this.commitGroup(this.waiting.splice(0, MAX_GROUP));
    } finally {
      this.committing = false;
    }
  }

  private async commitGroup(group: PendingSave[]): Promise<void> {
    try {
      await this.orm.em.fork().transactional((em) => em.insertMany<ReportRecord>(ReportRecord, group.map((save) => save.row)));
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      for (const save of group) await this.commitGroup([save]);
      return;
    }
    for (const save of group) save.resolve({ id: save.id });
  }
}
