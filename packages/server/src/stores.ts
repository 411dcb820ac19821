import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/sqlite';
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

/** {@link ReportStore} over the database: one INSERT, committed (and synced) before `save` resolves. */
export class OrmReportStore implements ReportStore {
  constructor(private readonly orm: MikroORM) {}

  async save(report: ReportToStore): Promise<{ id: string }> {
    const id = randomUUID();
    await this.orm.em.fork().insert(ReportRecord, {
      id,
      key: report.keyId,
      hostId: report.hostId,
      hostId2: report.hostId2 ?? null,
      receivedAt: report.receivedAt,
      encoding: report.encoding,
      size: report.size,
      sha256: report.sha256,
      content: report.content,
    });
    return { id };
  }
}
