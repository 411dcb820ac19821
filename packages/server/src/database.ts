import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/sqlite';
import { Migrator } from '@mikro-orm/migrations';
import { LicenseKeyRecord, ReportRecord } from './entities.js';
import { migrations } from './migrations/index.js';

/** The database file inside a data directory. */
export const databaseFile = (dataDir: string) => join(dataDir, 'audit.sqlite');

/**
 * Opens (creating if needed) the SQLite database of a data directory and applies pending migrations.
 * `log` receives the ORM's own messages (migrations applied). WAL with `synchronous = FULL`: a commit has reached the disk when it returns, so a 200 means durable.
 */
export async function openDatabase(dataDir: string, log: (message: string) => void = () => {}): Promise<MikroORM> {
  const orm = await MikroORM.init({
    logger: log,
    colors: false,
    dbName: databaseFile(dataDir),
    entities: [LicenseKeyRecord, ReportRecord],
    extensions: [Migrator],
    migrations: { migrationsList: migrations, transactional: true, snapshot: false },
    discovery: { warnWhenNoEntities: false },
    pool: {
      afterCreate(connection: { exec(sql: string, done: (error: Error | null) => void): void }, done: (error: Error | null, connection: unknown) => void) {
        connection.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;', (error) => done(error, connection));
      },
    },
  });
  await orm.getMigrator().up();
  return orm;
}
