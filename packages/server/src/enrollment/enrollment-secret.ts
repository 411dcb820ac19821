import { createHmac, randomBytes } from 'node:crypto';
import { hashLicenseKey } from '@org/audit-server-core';
import { hashAdminToken } from '../secrets/admin-tokens.js';

/** What every enrollment secret starts with, so that people and secret scanners recognise one. */
export const ENROLLMENT_SECRET_PREFIX = 'enr_';
/** An enrollment secret: the prefix, then 256 bits from the CSPRNG as 64 hex digits. */
export const ENROLLMENT_SECRET_PATTERN = /^enr_[0-9a-f]{64}$/;

/** A new enrollment secret. */
export const generateEnrollmentSecret = (): string => `${ENROLLMENT_SECRET_PREFIX}${randomBytes(32).toString('hex')}`;

/** SHA-256 (hex) of an enrollment secret, as admin tokens are kept: the only form the database holds. */
export const hashEnrollmentSecret = (secret: string): string => hashAdminToken(secret);

/**
 * The license key an enrollment's hosts send: HMAC-SHA256 of "license-key" under the secret, as eight groups of
 * 8 hex digits, so only lowercase hex and `-`, which Lynis sends unchanged. Derived rather than stored: the
 * server keeps license keys hashed only, and can still write this one into the script of whoever holds the secret.
 */
export function licenseKeyAlias(secret: string): string {
  return createHmac('sha256', secret).update('license-key').digest('hex').match(/.{8}/g)!.join('-');
}

/** SHA-256 of an alias, computed as the key store computes it for every key presented: one hash serves both lookups. */
export const hashLicenseKeyAlias = (alias: string): string => hashLicenseKey(alias);
