import type { MikroORM, MigrationObject, Options, Platform } from '@mikro-orm/core';
import type { AbstractSqlDriver, Knex, SqlEntityManager } from '@mikro-orm/knex';

/** An open database of any dialect. */
export type Database = MikroORM<AbstractSqlDriver, SqlEntityManager>;

/** A time as a dialect's datetime columns hold it: epoch milliseconds in SQLite, a `Date` in PostgreSQL. */
export type DatabaseTime = Date | number;

/** The SQL dialects the server runs on. */
export type Dialect = 'sqlite' | 'postgresql';

/** Where the data lives: a database URL when given, else a SQLite file in the data directory. */
export interface DatabaseLocation {
  dataDir: string;
  /** A URL whose scheme selects the dialect, e.g. `postgres://`. */
  databaseUrl?: string;
}

/**
 * Everything a SQL dialect does differently; the rest of the server writes SQL and ORM queries both dialects
 * understand. What a new dialect touches is listed in one place: docs/ARCHITECTURE.md, "A new SQL dialect".
 */
export interface SqlDialect {
  readonly name: Dialect;
  /** URL schemes that select this dialect (`postgres://`); none for the dialect used without a URL. */
  readonly urlSchemes: readonly string[];
  /**
   * Every schema migration, oldest first. Loaded on demand: their base class brings in the migrator (umzug and
   * its command line), which a start on an up-to-date database does without.
   */
  loadMigrations(): Promise<MigrationObject[]>;
  /** The folder of the migrations' modules, one per migration, each named as the migration (`0001-initial-schema.js`). */
  readonly migrationsDirectory: URL;
  /** Opens the database with the options every dialect shares (entities, migrations, logging), adding its own. */
  open(shared: Options, location: DatabaseLocation): Promise<Database>;
  /** Whether an entity manager's platform is this dialect's. */
  speaks(platform: Platform): boolean;
  /** A time as this dialect's datetime columns hold it, for statements written without the ORM. */
  toDatabaseTime(time: Date): DatabaseTime;
  /** In an upsert's update clause (`insert … on conflict … do update`), the smaller of two values. */
  least(a: string, b: string): string;
  /** In an upsert's update clause, the larger of two values. */
  greatest(a: string, b: string): string;
  /** In an upsert's update clause, the value the refused insert proposed for `column`. */
  proposed(column: string): string;
  /**
   * Makes changes of license keys wait for each other until commit (called first in their transaction), so that
   * revision numbers rise in commit order; plain reads of the keys must not wait.
   */
  serialiseKeyChanges(em: SqlEntityManager): Promise<void>;
  /**
   * A condition true for the rows whose `columns` (each with its type) hold one of the tuples of `keys`, every value
   * bound: the bulk delete by primary key of the host labels and findings. The caller keeps `keys` under SQLite's
   * limit on parameters.
   */
  keyIn(
    columns: readonly (readonly [name: string, type: 'uuid' | 'text'])[],
    keys: readonly (readonly (string | number)[])[],
  ): { sql: string; bindings: unknown[] };
  /**
   * Makes a `select` inside a transaction lock the rows it returns and skip rows another transaction holds, so that
   * several servers claiming work from one table each take different rows (`for update skip locked`).
   */
  lockSkippingLocked(query: Knex.QueryBuilder): Knex.QueryBuilder;
  /**
   * Makes a `select` inside a transaction lock the rows it returns until commit, waiting for other transactions
   * that hold them (`for update`); SQLite, one writer at a time, needs no row locks.
   */
  lockRows(query: Knex.QueryBuilder): Knex.QueryBuilder;
  /**
   * Called first in a transaction that reads rows before it writes them: SQLite takes its write lock now (waiting
   * for another connection's), as a read first would make the later write fail at once with `SQLITE_BUSY`.
   */
  startWriting(trx: Knex.Transaction): Promise<void>;
  /**
   * Deletes what `query` matches, in the caller's transaction, and resolves with the deleted rows' `columns`: what
   * the delete itself removed on PostgreSQL (`returning`: another server may have changed the rows since they were
   * last read); on SQLite, which lets one writer at a time in, what a read just before it in the transaction found.
   */
  deleteReturning<Row>(query: Knex.QueryBuilder, columns: string[]): Promise<Row[]>;
  /** A condition true when `column` contains `text` as typed, ignoring case; `text` is bound, never SQL. */
  containsIgnoringCase(column: string, text: string): { sql: string; bindings: string[] };
  /**
   * How many group commits of reports one server runs at once (`OrmReportStore`): 1 where the database lets one
   * writer in at a time anyway; more where writers run side by side, so that one group's round trips and fsync
   * overlap another's.
   */
  readonly concurrentGroups: number;
  /**
   * Whether a driver error code means the transaction lost a race with another (a deadlock, a serialization
   * failure) and succeeds when run again.
   */
  isRetryableCode(code: string): boolean;
  /**
   * Whether a driver error code means the database cannot serve now (full, read-only, shutting down, locked),
   * not a fault of the request: such errors become 503 with `Retry-After`.
   */
  isUnavailableCode(code: string): boolean;
}

/**
 * `like` with an explicit escape character, lowering both sides: case-insensitive on SQLite (whose `like` has no
 * escape character by default) and on PostgreSQL (whose `like` is case-sensitive) alike.
 */
export function lowerLikeContains(column: string, text: string): { sql: string; bindings: string[] } {
  const literal = text.replace(/[\\%_]/g, (character) => `\\${character}`);
  return { sql: `lower(${column}) like lower(?) escape '\\'`, bindings: [`%${literal}%`] };
}

/**
 * Whether `platform` is of the class named `className` or a subclass of it. By name rather than `instanceof`, so
 * that a server loads only its own dialect's driver package (a start on SQLite never loads PostgreSQL's, and back).
 */
export function isPlatform(platform: Platform, className: string): boolean {
  for (let proto = Object.getPrototypeOf(platform); proto; proto = Object.getPrototypeOf(proto)) {
    if (proto.constructor?.name === className) return true;
  }
  return false;
}
