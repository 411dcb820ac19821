import { hash, randomBytes } from 'node:crypto';

/**
 * Characters a license key may use. Lynis deletes every other character from the key before sending it,
 * so a key outside this set could never be checked successfully.
 */
export const LICENSE_KEY_PATTERN = /^[a-f0-9-]+$/;

/**
 * SHA-256 (hex) of a license key: the only form in which stores keep keys. One-shot `hash` costs a quarter of
 * `createHash` on a key's few bytes, and every license check and upload takes one.
 */
export function hashLicenseKey(licenseKey: string): string {
  return hash('sha256', licenseKey, 'hex');
}

/** A new license key: 192 bits from the CSPRNG as six groups of 8 hex digits, e.g. `3f2a9c1e-…`. */
export function generateLicenseKey(): string {
  return randomBytes(24).toString('hex').match(/.{8}/g)!.join('-');
}
