import { join } from 'node:path';
import type { Options } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { requireCommonJs } from './commonjs.js';
import { isPlatform, type Database, type SqlDialect } from './dialect.js';
import {
  castAsInteger,
  concatByPipes,
  lowerLikeContains,
  orderNullsLastClause,
  setToNextNumberBySubquery,
  upsertAddingOnConflict,
  upsertReturningRows,
} from './standard-sql.js';

/** The database file inside a data directory. */
export const databaseFile = (dataDir: string) => join(dataDir, 'audit.sqlite');

/** SQLite result codes of a full disk, an I/O error, a locked or read-only database. */
const UNAVAILABLE_CODES = new Set(['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_NOMEM']);

/** SQLite: one file in the data directory, for a single server. */
export const SQLITE: SqlDialect<'sqlite'> = {
  name: 'sqlite',
  urlSchemes: [],
  loadMigrations: async () => (await import('./migrations/sqlite/index.js')).SQLITE_MIGRATIONS,
  migrationsDirectory: new URL('./migrations/sqlite/', import.meta.url),
  async open(shared: Options, { dataDir }) {
    const { MikroORM } = requireCommonJs('@mikro-orm/sqlite') as typeof import('@mikro-orm/sqlite'); // loaded only for SQLite: see isPlatform
    const orm = await MikroORM.init({
      ...shared,
      dbName: databaseFile(dataDir),
      // A second connection for long reads (`longReads`): one query of seconds on the only connection would hold up
      // every request and upload behind it; WAL lets it read beside the writer. Nothing else is sent to it.
      replicas: [{ name: 'long reads', dbName: databaseFile(dataDir) }],
      preferReadReplicas: false,
      pool: {
        // WAL with `synchronous = FULL`: a commit has reached the disk when it returns, so a 200 means durable.
        afterCreate(connection: { exec(sql: string, done: (error: Error | null) => void): void }, done: (error: Error | null, connection: unknown) => void) {
          connection.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;', (error) =>
            done(error, connection),
          );
        },
      },
    });
    return orm as unknown as Database;
  },
  speaks: (platform) => isPlatform(platform, 'SqlitePlatform'),
  knexClient: 'sqlite3',
  // Epoch milliseconds: MikroORM's convention for SQLite datetimes.
  toDatabaseTime: (time) => time.getTime(),
  hoursBetween: (start, end) => `((${end}) - (${start})) / 3600000.0`,
  castToInteger: castAsInteger,
  concat: concatByPipes,
  least: (a, b) => `min(${a}, ${b})`,
  greatest: (a, b) => `max(${a}, ${b})`,
  proposed: (column) => `excluded.${column}`,
  upsertAdding: upsertAddingOnConflict,
  upsertReturning: upsertReturningRows,
  setToNextNumber: setToNextNumberBySubquery,
  // Row values, which SQLite looks up through the primary key one tuple at a time.
  keyIn: (columns, keys) => {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    return { sql: `(${columns.map(([name]) => name).join(', ')}) in (${keys.map(() => tuple).join(', ')})`, bindings: keys.flat() };
  },
  // SQLite lets one writer at a time in anyway.
  serialiseKeyChanges: async () => {},
  // SQLite lets one writer at a time in, and one server per database file.
  lockSkippingLocked: (query) => query,
  lockRows: (query) => query,
  lockRowsById: async () => {},
  // A write that changes nothing still takes the write lock, under the busy timeout.
  startWriting: async (trx) => void (await trx.raw('update key_host_quota set new_hosts = new_hosts where 0 = 1')),
  deleteReturning: async <Row>(query: Knex.QueryBuilder, columns: string[]) => {
    // The rows' shape is the caller's word: it names the columns.
    const rows: unknown = await query.clone().select(columns);
    await query.delete();
    return rows as Row[];
  },
  containsIgnoringCase: lowerLikeContains,
  orderNullsLast: orderNullsLastClause,
  // A unary `+` keeps a term from using an index (SQLite's query planner documentation).
  unindexed: (column) => `+${column}`,
  // One writer at a time: a second group would only wait for the file's lock.
  concurrentGroups: 1,
  // No deadlocks with one writer; a busy database is unavailable (above), not a lost race.
  isRetryableCode: () => false,
  isUnavailableCode: (code) => UNAVAILABLE_CODES.has(code),
};
