import type { Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import type { Database, DatabaseLocation } from './dialect.js';
import { dialectForUrl } from './dialects.js';
import { ENTITIES } from './entities.js';

export type { Database, DatabaseLocation } from './dialect.js';

/**
 * Opens the database (creating it if needed) and applies pending migrations. A data directory alone means SQLite
 * in that directory; a URL selects its dialect. `log` receives the ORM's own messages (migrations applied).
 */
export async function openDatabase(location: string | DatabaseLocation, log: (message: string) => void = () => {}): Promise<Database> {
  const where: DatabaseLocation = typeof location === 'string' ? { dataDir: location } : location;
  const dialect = dialectForUrl(where.databaseUrl);
  const shared = {
    logger: log,
    colors: false,
    entities: ENTITIES,
    extensions: [Migrator],
    // No `disableForeignKeys`: on PostgreSQL it needs a superuser, and no migration relies on it.
    migrations: { migrationsList: dialect.migrations, transactional: true, snapshot: false, disableForeignKeys: false },
    discovery: { warnWhenNoEntities: false },
    // knex prints its warnings (a pooled connection lost when the database goes away) with console.log, which
    // would break the JSON log on stdout: they go to `log` instead.
    driverOptions: { log: { warn: log, error: log, deprecate: log, debug: () => {} } },
  } satisfies Options;
  const database = await dialect.open(shared, where);
  try {
    await database.getMigrator().up();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
