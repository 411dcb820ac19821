import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A license key, known only by its SHA-256 hash. */
export const LicenseKeyRecord = defineEntity({
  name: 'LicenseKeyRecord',
  tableName: 'license_key',
  properties: {
    id: p.uuid().primary(),
    keyHash: p.string().length(64).unique(),
    /** The key's first group of characters, so operators can tell keys apart without the secret. */
    prefix: p.string().length(8),
    label: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    /** After this time the key counts as revoked (set by `keys create --expires` and by a rotation's grace period). */
    expiresAt: p.datetime().nullable(),
    /** Last valid license check or upload; written in batches, so up to a flush interval behind. */
    lastUsedAt: p.datetime().nullable(),
    /** Raised on every change that can alter a key's state, so servers notice changes with one cheap query. */
    revision: p.integer().default(0),
  },
});
export type LicenseKeyRecord = InferEntity<typeof LicenseKeyRecord>;

/** One uploaded report, its license key value redacted. */
export const ReportRecord = defineEntity({
  name: 'ReportRecord',
  tableName: 'report',
  properties: {
    id: p.uuid().primary(),
    key: () => p.manyToOne(LicenseKeyRecord),
    hostId: p.string().length(255),
    hostId2: p.string().length(255).nullable(),
    receivedAt: p.datetime(),
    encoding: p.string().length(8),
    /** Size and SHA-256 of the report as the client sent it (before redaction). */
    size: p.integer(),
    sha256: p.string().length(64),
    content: p.blob(),
  },
  indexes: [{ properties: ['key', 'receivedAt'] }, { properties: ['hostId'] }],
});
export type ReportRecord = InferEntity<typeof ReportRecord>;
