import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { knex } from '@mikro-orm/postgresql';
import type { DatabaseLocation, Dialect } from '@org/audit-server';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * The dialects every database test runs on: every one the server has (`DIALECTS` in its `database/dialects.ts`). A
 * list rather than the server's registry, which would load the built server into every test file beside the
 * sources under test.
 */
export const DIALECTS = ['sqlite', 'postgresql'] as const satisfies readonly Dialect[];

/** Compiles only while {@link DIALECTS} names every dialect the server has; else the error names the one left out. */
export type EveryDialectTested = Unlisted<Exclude<Dialect, (typeof DIALECTS)[number]>>;
type Unlisted<Missing extends never> = Missing;

/** The PostgreSQL server of the tests (`DATABASE_URL`); throws, failing the test, when it is not set. */
export function postgresUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error(
      'DATABASE_URL is not set: the database tests need a PostgreSQL server, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (.ci/run sets it)',
    );
  }
  return url;
}

/** Runs one statement through `url` on a connection of its own. */
async function runOn(url: string, sql: string): Promise<void> {
  const client = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    await client.raw(sql);
  } finally {
    await client.destroy();
  }
}

/** A PostgreSQL database of its own, created through `DATABASE_URL`; `drop` removes it (closing what is still connected). */
export async function createScratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = postgresUrl();
  const name = `audit_test_${randomBytes(8).toString('hex')}`;
  await runOn(server, `create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => runOn(server, `drop database if exists ${name} with (force)`) };
}

/** Empties every table but the migrations' record, so the next test starts from a migrated, empty database. */
async function emptyTables(url: string): Promise<void> {
  const client = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    const { rows } = await client.raw<{ rows: { tablename: string }[] }>(
      "select tablename from pg_tables where schemaname = 'public' and tablename <> 'mikro_orm_migrations'",
    );
    if (rows.length > 0) await client.raw(`truncate table ${rows.map((row) => `"${row.tablename}"`).join(', ')}`);
  } finally {
    await client.destroy();
  }
}

/** The current test's database (read it inside a test or hook). */
export interface TestDatabase {
  dialect: Dialect;
  /** Fresh for every test: a new data directory; for PostgreSQL also a database emptied of the previous test's rows. */
  location: DatabaseLocation;
}

/**
 * Gives each test of the calling `describe` an empty database of `dialect`: SQLite in a new data directory, or
 * PostgreSQL in one scratch database per file (made on first use, dropped after the file), emptied between tests.
 */
export function useTestDatabase(dialect: Dialect): TestDatabase {
  const current: TestDatabase = { dialect, location: { dataDir: '' } };
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  /** Why the scratch database could not be made: every test then fails with it (a failing `beforeAll` would only skip them). */
  let unavailable: Error | undefined;
  if (dialect === 'postgresql') {
    beforeAll(async () => {
      scratch = await createScratchDatabase().catch((error: unknown) => void (unavailable = error instanceof Error ? error : new Error(String(error))));
    });
    afterAll(async () => {
      await scratch?.drop();
    });
  }
  beforeEach(async () => {
    if (unavailable) throw unavailable;
    const dataDir = await mkdtemp(join(tmpdir(), 'audit-db-test-'));
    if (scratch) await emptyTables(scratch.url);
    current.location = scratch ? { dataDir, databaseUrl: scratch.url } : { dataDir };
  });
  afterEach(async () => {
    await rm(current.location.dataDir, { recursive: true, force: true });
  });
  return current;
}
