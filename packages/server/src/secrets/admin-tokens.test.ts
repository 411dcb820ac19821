import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { AdminTokenRecord } from '../database/entities.js';
import { AdminTokenAuthenticator, bearerToken } from '../admin/auth.js';
import { ADMIN_TOKEN_PATTERN, createAdminToken, hashAdminToken, listAdminTokens, revokeAdminToken } from './admin-tokens.js';

describe.each(DIALECTS)('admin tokens on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  beforeEach(async () => {
    database = await openDatabase(location.location);
  });
  afterEach(async () => {
    await database.close();
  });

  it('creates tokens of 256 random bits, stored only as their hash and a short prefix', async () => {
    const first = await createAdminToken(database, { label: 'dashboard' });
    const second = await createAdminToken(database);
    expect(first.token).toMatch(ADMIN_TOKEN_PATTERN);
    expect(first.token).not.toBe(second.token);
    const rows = await database.em.getConnection().execute<Record<string, unknown>[]>('select * from admin_token');
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(first.token.slice(4));
    expect(stored).not.toContain(first.token.slice(12, 44)); // no part of the secret beyond the prefix either
    const record = await database.em.fork().findOneOrFail(AdminTokenRecord, { id: first.id });
    expect(record).toMatchObject({ tokenHash: hashAdminToken(first.token), prefix: first.token.slice(4, 12), label: 'dashboard' });
  });

  it('lists tokens oldest first, with their state, and revokes them by id', async () => {
    const first = await createAdminToken(database, { label: 'one' });
    await new Promise((resolve) => setTimeout(resolve, 5)); // tokens of the same millisecond have no order
    const second = await createAdminToken(database);
    expect(await revokeAdminToken(database, first.id)).toBe(true);
    expect(await revokeAdminToken(database, first.id)).toBe(true); // revoking twice changes nothing
    expect(await revokeAdminToken(database, '00000000-0000-4000-8000-000000000000')).toBe(false);
    expect(await revokeAdminToken(database, 'not-an-id')).toBe(false);
    const listed = await listAdminTokens(database);
    expect(listed.map((t) => [t.id, t.label, t.prefix, t.revokedAt instanceof Date, t.lastUsedAt])).toEqual([
      [first.id, 'one', first.token.slice(0, 12), true, null],
      [second.id, null, second.token.slice(0, 12), false, null],
    ]);
  });

  it('authenticates a valid token, not a revoked, unknown or malformed one', async () => {
    const { id, token } = await createAdminToken(database);
    const authenticator = new AdminTokenAuthenticator(database);
    expect(await authenticator.authenticate(`Bearer ${token}`)).toEqual({ tokenId: id, role: 'admin', scope: { customers: [], groups: [] } });
    expect(await authenticator.authenticate(`bearer ${token}`)).toEqual({ tokenId: id, role: 'admin', scope: { customers: [], groups: [] } });
    const viewer = await createAdminToken(database, { role: 'viewer', scope: { customers: [], groups: [] } });
    expect(await authenticator.authenticate(`Bearer ${viewer.token}`)).toEqual({ tokenId: viewer.id, role: 'viewer', scope: { customers: [], groups: [] } });
    for (const header of [undefined, '', token, `Basic ${token}`, `Bearer ${token}x`, `Bearer adm_${'0'.repeat(64)}`]) {
      expect(await authenticator.authenticate(header), String(header)).toBeUndefined();
    }
    await revokeAdminToken(database, id);
    expect(await authenticator.authenticate(`Bearer ${token}`)).toBeUndefined();
  });
});

describe('bearer token parsing', () => {
  it('takes only an admin token from a Bearer header', () => {
    const token = `adm_${'ab'.repeat(32)}`;
    expect(bearerToken(`Bearer ${token}`)).toBe(token);
    expect(bearerToken(`BEARER   ${token}`)).toBe(token);
    expect(bearerToken(`Bearer ${token} extra`)).toBeUndefined();
    expect(bearerToken(`Bearer ${token.toUpperCase()}`)).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
  });
});
