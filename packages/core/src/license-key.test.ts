import { describe, expect, it } from 'vitest';
import { LICENSE_KEY_PATTERN, generateLicenseKey, hashLicenseKey } from './license-key.js';

describe('generateLicenseKey', () => {
  it('uses only characters Lynis keeps, with 192 random bits', () => {
    const key = generateLicenseKey();
    expect(key).toMatch(LICENSE_KEY_PATTERN);
    expect(key).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{8}){5}$/);
  });

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateLicenseKey));
    expect(keys.size).toBe(1000);
  });
});

describe('hashLicenseKey', () => {
  it('is the hex SHA-256 of the key', () => {
    expect(hashLicenseKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
