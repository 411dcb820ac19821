import { parseOptions } from '@node-rs/argon2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { ARGON2ID_OPTIONS, checkPasswordRules, DUMMY_PASSWORD_HASH, hashPassword, verifyCredentials, verifyPassword } from './passwords.js';
import { addUserWithPassword } from './user-commands.js';
import { setUserDisabled } from './user-records.js';

// Every argon2 check is counted, to see that each failure costs the same work as a success.
const argon2 = vi.hoisted(() => ({ verified: [] as string[] }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...original,
    verify: (hashed: string, password: string) => {
      argon2.verified.push(hashed);
      return original.verify(hashed, password);
    },
  };
});

const PASSWORD = 'correct horse battery staple';

describe('password rules and hashes', () => {
  it('accepts 12 to 1024 characters, counting characters rather than UTF-16 units, without control characters', () => {
    expect(() => checkPasswordRules('a'.repeat(12))).not.toThrow();
    expect(() => checkPasswordRules('🔑'.repeat(12))).not.toThrow(); // 24 UTF-16 units, 12 characters
    expect(() => checkPasswordRules('a'.repeat(1024))).not.toThrow();
    expect(() => checkPasswordRules('🔑'.repeat(11))).toThrow('The password is too short: give at least 12 characters');
    expect(() => checkPasswordRules('a'.repeat(1025))).toThrow('The password is too long: give at most 1024 characters');
    expect(() => checkPasswordRules('tab\tinside password')).toThrow(/control characters/);
  });

  it('hashes with argon2id and the parameters set explicitly; verifies the password and nothing else', async () => {
    const hashed = await hashPassword(PASSWORD);
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hashed).not.toBe(await hashPassword(PASSWORD)); // a new salt each time
    expect(await verifyPassword(hashed, PASSWORD)).toBe(true);
    expect(await verifyPassword(hashed, `${PASSWORD} `)).toBe(false);
    expect(await verifyPassword('not a hash', PASSWORD)).toBe(false);
  });

  it('has a dummy hash made with the same parameters as real ones, so checking against it costs the same', () => {
    const { algorithm, memoryCost, timeCost, parallelism, outputLen } = parseOptions(DUMMY_PASSWORD_HASH);
    expect({ algorithm, memoryCost, timeCost, parallelism, outputLen }).toEqual(ARGON2ID_OPTIONS);
  });
});

describe.each(DIALECTS)('checking credentials on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  beforeEach(async () => {
    database = await openDatabase(location.location);
    await addUserWithPassword(database, { email: 'ada@example.org', role: 'admin' }, PASSWORD);
    await addUserWithPassword(database, { email: 'off@example.org', role: 'viewer' }, PASSWORD);
    await setUserDisabled(database, 'off@example.org', true);
    argon2.verified.length = 0;
  });
  afterEach(async () => {
    await database.close();
  });

  it('answers the account for the right password, whatever the case of the email', async () => {
    const check = await verifyCredentials(database, 'Ada@Example.org', PASSWORD);
    expect(check).toMatchObject({ ok: true, user: { email: 'ada@example.org', role: 'admin' } });
    expect(check.ok && check.user).not.toHaveProperty('passwordHash');
    expect(argon2.verified).toHaveLength(1);
    expect(argon2.verified[0]).not.toBe(DUMMY_PASSWORD_HASH);
  });

  it('tells why a check failed, and spends one argon2 check on each failure: the dummy hash when there is no usable account', async () => {
    expect(await verifyCredentials(database, 'ada@example.org', 'wrong password here')).toEqual({ ok: false, reason: 'wrong_password' });
    expect(await verifyCredentials(database, 'nobody@example.org', PASSWORD)).toEqual({ ok: false, reason: 'unknown_user' });
    expect(await verifyCredentials(database, 'off@example.org', PASSWORD)).toEqual({ ok: false, reason: 'disabled' });
    expect(await verifyCredentials(database, 'not an email', PASSWORD)).toEqual({ ok: false, reason: 'unknown_user' });
    expect(await verifyCredentials(database, 'ada@example.org', 'x'.repeat(1_000_000))).toEqual({ ok: false, reason: 'wrong_password' });
    expect(argon2.verified).toHaveLength(5);
    expect(argon2.verified.slice(1, 4)).toEqual([DUMMY_PASSWORD_HASH, DUMMY_PASSWORD_HASH, DUMMY_PASSWORD_HASH]);
    expect(argon2.verified[0]).not.toBe(DUMMY_PASSWORD_HASH);
  });
});
