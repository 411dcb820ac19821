import { join } from 'node:path';
import type { MikroORM as AnyMikroORM, EntityManager, Options } from '@mikro-orm/core';
import type { AbstractSqlDriver, SqlEntityManager } from '@mikro-orm/knex';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PostgreSqlMikroORM, PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { MikroORM as SqliteMikroORM } from '@mikro-orm/sqlite';
import { ENTITIES } from './entities.js';
import { POSTGRESQL_MIGRATIONS } from './migrations/postgresql/index.js';
import { SQLITE_MIGRATIONS } from './migrations/sqlite/index.js';

/** An open database of either dialect. */
export type Database = AnyMikroORM<AbstractSqlDriver, SqlEntityManager>;

/** The SQL dialects the server runs on. */
export type Dialect = 'sqlite' | 'postgresql';

/** Where the data lives: a PostgreSQL URL when given, else a SQLite file in the data directory. */
export interface DatabaseLocation {
  dataDir: string;
  /** `postgres://` or `postgresql://` URL. */
  databaseUrl?: string;
}

/** The database file inside a data directory (SQLite only). */
export const databaseFile = (dataDir: string) => join(dataDir, 'audit.sqlite');

/**
 * Tells whether `id` can be a record id (all are UUIDs). Check before querying by an id from outside: anything
 * else names no record, and PostgreSQL would refuse to compare it with a uuid column instead of finding nothing.
 */
export const isRecordId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** Tells a URL that selects PostgreSQL. */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

/**
 * Opens the database (creating it if needed) and applies pending migrations. A data directory alone means SQLite
 * in that directory. `log` receives the ORM's own messages (migrations applied).
 */
export async function openDatabase(location: string | DatabaseLocation, log: (message: string) => void = () => {}): Promise<Database> {
  const { dataDir, databaseUrl } = typeof location === 'string' ? { dataDir: location } : location;
  const dialect: Dialect = databaseUrl ? 'postgresql' : 'sqlite';
  if (databaseUrl && !isPostgresUrl(databaseUrl)) throw new Error('the database URL must start with postgres:// or postgresql://');
  const common = {
    logger: log,
    colors: false,
    entities: ENTITIES,
    extensions: [Migrator],
    // No `disableForeignKeys`: on PostgreSQL it needs a superuser, and no migration relies on it.
    migrations: { migrationsList: migrationsFor(dialect), transactional: true, snapshot: false, disableForeignKeys: false },
    discovery: { warnWhenNoEntities: false },
    // knex prints its warnings (a pooled connection lost when the database goes away) with console.log, which
    // would break the JSON log on stdout: they go to `log` instead.
    driverOptions: { log: { warn: log, error: log, deprecate: log, debug: () => {} } },
  } satisfies Options;
  const orm = databaseUrl
    ? await PostgreSqlMikroORM.init({ ...common, clientUrl: databaseUrl })
    : await SqliteMikroORM.init({
      ...common,
      dbName: databaseFile(dataDir),
      pool: {
        // WAL with `synchronous = FULL`: a commit has reached the disk when it returns, so a 200 means durable.
        afterCreate(connection: { exec(sql: string, done: (error: Error | null) => void): void }, done: (error: Error | null, connection: unknown) => void) {
          connection.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;', (error) => done(error, connection));
        },
      },
    });
  // Each driver's MikroORM class narrows the driver type; the stores use only what both dialects share.
  const database = orm as unknown as Database;
  try {
    await database.getMigrator().up();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Every schema migration of a dialect, oldest first; a test per dialect checks that they build the entities' schema. */
export const migrationsFor = (dialect: Dialect) => (dialect === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRESQL_MIGRATIONS);

/** Which dialect a database speaks, told by its entity manager (`orm.em` or a fork). */
export function dialectOf(em: Pick<EntityManager, 'getPlatform'>): Dialect {
  return em.getPlatform() instanceof PostgreSqlPlatform ? 'postgresql' : 'sqlite';
}

/**
 * A time as the dialect's datetime columns hold it, for statements written without the ORM: epoch milliseconds
 * in SQLite (MikroORM's convention there), a `Date` (timestamptz) in PostgreSQL.
 */
export function databaseTime(database: Database, time: Date): Date | number {
  return database.em.getPlatform().processDateProperty(time) as Date | number;
}
