import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { SsoAttemptRecord } from '../database/entities.js';
import { SSO_ATTEMPT_SECONDS, SsoAttemptStore, ssoAttemptCookie } from './sso-attempts.js';

const ATTEMPT = { state: 'state-1', nonce: 'nonce-1', codeVerifier: 'verifier-1', redirectUrl: 'https://audit.example.org/api/admin/session/sso/callback' };

describe.each(DIALECTS)('single sign-on attempts on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let clock: number;
  let attempts: SsoAttemptStore;

  beforeEach(async () => {
    database = await openDatabase(location.location);
    clock = Date.parse('2026-01-05T09:00:00Z');
    attempts = new SsoAttemptStore(database, () => new Date(clock));
  });
  afterEach(async () => {
    await database.close();
  });

  it('keeps an attempt under the hash of the id the cookie carries, and gives it back once', async () => {
    const attemptId = await attempts.begin(ATTEMPT);
    expect(attemptId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ssoAttemptCookie(attemptId)).toBe(`__Host-audit_sso=${attemptId}; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax`);
    const stored = await database.em.fork().find(SsoAttemptRecord, {});
    expect(stored.map((record) => record.id)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(stored[0]!.id).not.toContain(attemptId);
    expect(await attempts.take(attemptId)).toEqual(ATTEMPT);
    // Used: a replay finds nothing, and nothing is left.
    expect(await attempts.take(attemptId)).toBeUndefined();
    expect(await database.em.fork().count(SsoAttemptRecord, {})).toBe(0);
  });

  it('gives nothing for an unknown, malformed or missing id', async () => {
    await attempts.begin(ATTEMPT);
    expect(await attempts.take('A'.repeat(43))).toBeUndefined();
    expect(await attempts.take("x'; drop table sso_attempt; --")).toBeUndefined();
    expect(await attempts.take(undefined)).toBeUndefined();
    expect(await database.em.fork().count(SsoAttemptRecord, {})).toBe(1);
  });

  it('gives nothing for an attempt ten minutes old, and deletes it', async () => {
    const attemptId = await attempts.begin(ATTEMPT);
    clock += SSO_ATTEMPT_SECONDS * 1000 - 1000;
    const youngId = await attempts.begin({ ...ATTEMPT, state: 'state-2' });
    clock += 1000;
    expect(await attempts.take(attemptId)).toBeUndefined();
    expect(await attempts.take(youngId)).toEqual({ ...ATTEMPT, state: 'state-2' });
    expect(await database.em.fork().count(SsoAttemptRecord, {})).toBe(0);
  });

  it('deletes attempts past their time when another begins, so abandoned ones do not pile up', async () => {
    await attempts.begin(ATTEMPT);
    await attempts.begin(ATTEMPT);
    clock += SSO_ATTEMPT_SECONDS * 1000;
    const liveId = await attempts.begin(ATTEMPT);
    expect(await database.em.fork().count(SsoAttemptRecord, {})).toBe(1);
    expect(await attempts.take(liveId)).toEqual(ATTEMPT);
  });

  it('gives an attempt to only one of two requests racing with its id', async () => {
    const attemptId = await attempts.begin(ATTEMPT);
    const taken = await Promise.all([attempts.take(attemptId), attempts.take(attemptId), attempts.take(attemptId)]);
    expect(taken.filter((attempt) => attempt !== undefined)).toEqual([ATTEMPT]);
  });
});
