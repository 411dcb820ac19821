import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { DomainError } from '../errors/domain-error.js';
import { addUserWithPassword, resetUserPassword } from './user-commands.js';
import { addUser, findUser, findUserForSignIn, listUsers, normalizeDisplayName, normalizeEmail, setUserDisabled, setUserRole } from './user-records.js';

const PASSWORD = 'correct horse battery staple';

describe.each(DIALECTS)('user accounts on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  beforeEach(async () => {
    database = await openDatabase(location.location);
  });
  afterEach(async () => {
    await database.close();
  });

  it('adds an account under its lowercased email, with an argon2id hash and never the password', async () => {
    const added = await addUserWithPassword(database, { email: ' Ada@Example.ORG ', role: 'admin', name: ' Ada Lovelace ' }, PASSWORD);
    expect(added).toMatchObject({ email: 'ada@example.org', displayName: 'Ada Lovelace', role: 'admin', disabledAt: null });
    expect(added).not.toHaveProperty('passwordHash');
    expect(added.passwordChangedAt).toEqual(added.createdAt);
    const rows = await database.em.getConnection().execute<{ password_hash: string }[]>('select * from app_user');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);
    expect(await findUser(database, 'ADA@example.org')).toEqual(added);
  });

  it('refuses a second account of the same email in any case, as a conflict', async () => {
    await addUserWithPassword(database, { email: 'ada@example.org', role: 'viewer' }, PASSWORD);
    const again = addUserWithPassword(database, { email: 'ADA@EXAMPLE.org', role: 'admin' }, PASSWORD);
    await expect(again).rejects.toThrow(DomainError);
    await expect(again).rejects.toMatchObject({ code: 'conflict', message: 'A user with email ada@example.org exists already' });
    expect(await listUsers(database)).toHaveLength(1);
  });

  it('refuses bad input as invalid before storing anything: email, role, name, short password', async () => {
    const refused = async (email: string, role: string, password = PASSWORD, name?: string) =>
      addUserWithPassword(database, { email, role, name }, password).then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(await refused('not-an-email', 'viewer')).toMatchObject({ code: 'invalid' });
    expect(await refused('a@b.c', 'root')).toMatchObject({ code: 'invalid', message: 'Unknown role "root": give one of viewer, operator, admin' });
    expect(await refused('a@b.c', 'viewer', PASSWORD, 'bell\u0007')).toMatchObject({ code: 'invalid' });
    expect(await refused('a@b.c', 'viewer', 'eleven char')).toMatchObject({
      code: 'invalid',
      message: 'The password is too short: give at least 12 characters',
    });
    expect(await listUsers(database)).toEqual([]);
  });

  it('lists accounts by email; changes a role; disables and enables an account, keeping the first disable time', async () => {
    await addUserWithPassword(database, { email: 'zed@example.org', role: 'viewer' }, PASSWORD);
    await addUserWithPassword(database, { email: 'ada@example.org', role: 'admin' }, PASSWORD);
    expect((await listUsers(database)).map((user) => user.email)).toEqual(['ada@example.org', 'zed@example.org']);

    expect(await setUserRole(database, 'Zed@example.org', 'operator')).toMatchObject({ email: 'zed@example.org', role: 'operator' });
    const disabled = await setUserDisabled(database, 'zed@example.org', true);
    expect(disabled.disabledAt).toBeInstanceOf(Date);
    expect((await setUserDisabled(database, 'zed@example.org', true)).disabledAt).toEqual(disabled.disabledAt);
    expect(await setUserDisabled(database, 'zed@example.org', false)).toMatchObject({ disabledAt: null, role: 'operator' });
    expect((await findUser(database, 'ada@example.org'))?.role).toBe('admin'); // the other account untouched
  });

  it('answers not_found for an account that does not exist', async () => {
    await expect(setUserRole(database, 'nobody@example.org', 'admin')).rejects.toMatchObject({
      code: 'not_found',
      message: 'No user with email nobody@example.org',
    });
    await expect(setUserDisabled(database, 'nobody@example.org', true)).rejects.toMatchObject({ code: 'not_found' });
    await expect(resetUserPassword(database, 'nobody@example.org', PASSWORD)).rejects.toMatchObject({ code: 'not_found' });
    expect(await findUserForSignIn(database, 'not an email')).toBeUndefined();
  });

  it('resets a password: a new hash and a new password-change time', async () => {
    const added = await addUserWithPassword(database, { email: 'ada@example.org', role: 'admin' }, PASSWORD);
    const before = await findUserForSignIn(database, 'ada@example.org');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const reset = await resetUserPassword(database, 'ada@example.org', 'another long passphrase');
    const after = await findUserForSignIn(database, 'ada@example.org');
    expect(after!.passwordHash).not.toBe(before!.passwordHash);
    expect(reset.passwordChangedAt.getTime()).toBeGreaterThan(added.passwordChangedAt.getTime());
    await expect(resetUserPassword(database, 'ada@example.org', 'too short')).rejects.toMatchObject({ code: 'invalid' });
  });

  it('keeps a hash handed to it as it is (the store does not hash)', async () => {
    const added = await addUser(database, { email: 'ada@example.org', role: 'viewer', passwordHash: '$argon2id$given' });
    expect((await findUserForSignIn(database, added.email))?.passwordHash).toBe('$argon2id$given');
  });
});

describe('email and name rules', () => {
  it('lowercases and trims emails, and refuses what is not one', () => {
    expect(normalizeEmail('  Ada@Example.ORG')).toBe('ada@example.org');
    for (const bad of ['', 'ada', '@example.org', 'ada@', 'a b@example.org', 'a@b@c', `${'a'.repeat(250)}@b.cd`, 'ada\u0000@example.org']) {
      expect(() => normalizeEmail(bad), bad).toThrow(DomainError);
    }
  });

  it('trims names, empty is none, and refuses control characters and more than 255 characters', () => {
    expect(normalizeDisplayName('  Ada  ')).toBe('Ada');
    expect(normalizeDisplayName('   ')).toBeNull();
    expect(normalizeDisplayName(undefined)).toBeNull();
    expect(normalizeDisplayName('é'.repeat(255))).toHaveLength(255);
    expect(() => normalizeDisplayName('a'.repeat(256))).toThrow('The name is too long: at most 255 characters');
    expect(() => normalizeDisplayName('Ada\nLovelace')).toThrow('The name holds control characters: leave them out');
  });
});
