import { readdir } from 'node:fs/promises';
import type { IMigrator, Options } from '@mikro-orm/core';
import type { Database, DatabaseLocation, SqlDialect } from './dialect.js';
import { dialectForUrl, sqlDialectOf } from './dialects.js';
import { ENTITIES } from './entities.js';

export type { Database, DatabaseLocation } from './dialect.js';

/** Where MikroORM's migrator records the migrations applied (its default table). */
const MIGRATIONS_TABLE = 'mikro_orm_migrations';

/**
 * Opens the database (creating it if needed) and applies pending migrations. A data directory alone means SQLite
 * in that directory; a URL selects its dialect. `log` receives the ORM's own messages (migrations applied).
 * On a database whose migrations are all applied, the migrator is not even loaded: one query tells.
 */
export async function openDatabase(location: string | DatabaseLocation, log: (message: string) => void = () => {}): Promise<Database> {
  const where: DatabaseLocation = typeof location === 'string' ? { dataDir: location } : location;
  const dialect = dialectForUrl(where.databaseUrl);
  const shared = {
    logger: log,
    colors: false,
    // Given explicitly, so discovery reads no folder and no metadata cache.
    entities: ENTITIES,
    // The list of migrations is added when they are loaded (see migratorOf). No `disableForeignKeys`: on
    // PostgreSQL it needs a superuser, and no migration relies on it.
    migrations: { transactional: true, snapshot: false, disableForeignKeys: false },
    discovery: { warnWhenNoEntities: false },
    // knex prints its warnings (a pooled connection lost when the database goes away) with console.log, which
    // would break the JSON log on stdout: they go to `log` instead.
    driverOptions: { log: { warn: log, error: log, deprecate: log, debug: () => {} } },
  } satisfies Options;
  const database = await dialect.open(shared, where);
  try {
    if (!(await migrationsApplied(database, dialect))) await (await migratorOf(database)).up();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * The database's migrator, over its dialect's migrations, loaded on first use. Use it rather than
 * `getMigrator()` on a database {@link openDatabase} opened: that one may not have needed them.
 */
export async function migratorOf(database: Database): Promise<IMigrator> {
  const options = database.config.get('migrations');
  if (!options.migrationsList) {
    const migrationsList = await sqlDialectOf(database.em).loadMigrations();
    const { Migrator } = await import('@mikro-orm/migrations');
    database.config.set('migrations', { ...options, migrationsList });
    Migrator.register(database);
  }
  return database.getMigrator();
}

/**
 * Whether every migration of the dialect (one module each in its folder, named as the migration) is recorded as
 * applied. Any doubt (no table yet, a query failing, a module not recorded) says no, and the migrator decides.
 */
async function migrationsApplied(database: Database, dialect: SqlDialect): Promise<boolean> {
  try {
    const files = await readdir(dialect.migrationsDirectory);
    const names = files.filter((file) => /^\d+-.+\.[jt]s$/.test(file) && !file.endsWith('.d.ts')).map((file) => file.replace(/\.[jt]s$/, ''));
    const rows = await database.em.getConnection().execute<{ name: string }[]>(`select name from ${MIGRATIONS_TABLE}`);
    const applied = new Set(rows.map((row) => row.name));
    return names.length > 0 && names.every((name) => applied.has(name));
  } catch {
    return false;
  }
}
