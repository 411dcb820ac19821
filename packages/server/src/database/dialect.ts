import type { MikroORM, MigrationObject, Options, Platform } from '@mikro-orm/core';
import type { AbstractSqlDriver, Knex, SqlEntityManager } from '@mikro-orm/knex';

/** An open database of any dialect. */
export type Database = MikroORM<AbstractSqlDriver, SqlEntityManager>;

/** A time as a dialect's datetime columns hold it: epoch milliseconds in SQLite, a `Date` in PostgreSQL. */
export type DatabaseTime = Date | number;

/** An upsert, for {@link SqlDialect.upsertReturning}: rows to insert, and what a row colliding on `conflict` updates instead. */
export interface Upsert {
  readonly table: string;
  readonly rows: readonly Record<string, unknown>[];
  /** The columns of the unique key rows collide on. */
  readonly conflict: readonly string[];
  /** What a collision updates: columns taking the proposed value, or each column's new value (SQL: `knex.raw`, {@link SqlDialect.proposed}). */
  readonly merge: readonly string[] | Readonly<Record<string, unknown>>;
  /** A condition on the stored row (e.g. `['webhook_notice.notified_at', '<=', time]`): only rows where it holds are updated. */
  readonly where?: readonly [column: string, operator: string, value: Knex.Value];
}

/** Where the data lives: a database URL when given, else a SQLite file in the data directory. */
export interface DatabaseLocation {
  dataDir: string;
  /** A URL whose scheme selects the dialect, e.g. `postgres://`. */
  databaseUrl?: string;
}

/**
 * Everything a SQL dialect does differently; the rest of the server writes SQL every dialect takes, or knex and ORM
 * queries that their libraries write per dialect. What a new dialect touches is listed in one place:
 * docs/ARCHITECTURE.md, "A new SQL dialect".
 */
export interface SqlDialect<Name extends string = string> {
  /** Its name (`Dialect` in `dialects.ts` is the union of the registered ones'). */
  readonly name: Name;
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
  /** The `dialect` of knex's client for this database (`trx.client.dialect`): how a knex transaction tells its dialect. */
  readonly knexClient: string;
  /** A time as this dialect's datetime columns hold it, for statements written without the ORM. */
  toDatabaseTime(time: Date): DatabaseTime;
  /** In SQL, the hours from the datetime `start` to the datetime `end`, as a real number (negative when `end` is earlier). */
  hoursBetween(start: string, end: string): string;
  /** In SQL, `expression` (a bound parameter, say) as an integer: a parameter in a select list has no type otherwise. */
  castToInteger(expression: string): string;
  /** In SQL, the text of `expressions` joined, as a condition compares it with a column (`||` where it means that). */
  concat(...expressions: string[]): string;
  /** In an upsert's update clause (`insert … on conflict … do update`), the smaller of two values. */
  least(a: string, b: string): string;
  /** In an upsert's update clause, the larger of two values. */
  greatest(a: string, b: string): string;
  /** In an upsert's update clause, the value the refused insert proposed for `column`. */
  proposed(column: string): string;
  /**
   * Adds each row's last value to `column` of the row of `table` with the same key (the values before it, in
   * `keyColumns` order), inserting the row when there is none: one statement, so that two servers' transactions
   * add up rather than overwrite. The caller keeps the rows' values under `MAX_PARAMETERS` (`batches.ts`).
   */
  upsertAdding(trx: Knex.Transaction, table: string, keyColumns: readonly string[], column: string, rows: readonly (readonly Knex.Value[])[]): Promise<void>;
  /**
   * Inserts `upsert.rows`, updating instead each stored row one collides with (where `upsert.where` holds), and
   * resolves with the `columns` of the rows it inserted or updated, not of those the `where` left alone: one
   * statement, so that of servers writing the same row at once, each sees what its own write did.
   */
  upsertReturning<Row>(trx: Knex.Transaction, upsert: Upsert, columns: readonly string[]): Promise<Row[]>;
  /**
   * Sets `column` of the rows of `table` that `where` selects to one more than the column's largest value in the
   * table (1 in an empty table), in one statement that reads the table it updates: the revision numbers of keys.
   */
  setToNextNumber(em: SqlEntityManager, table: string, column: string, where: { sql: string; bindings: readonly unknown[] }): Promise<void>;
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
   * Locks the rows of `table` whose `id` is one of `ids` until commit, in id order (so that transactions locking
   * several cannot deadlock), reading nothing else; SQLite, one writer at a time, needs no row locks.
   */
  lockRowsById(trx: Knex.Transaction, table: string, ids: readonly string[]): Promise<void>;
  /** Orders `query` by `column` (SQL) in `direction`, rows without a value last: for knex queries (the ORM's `QueryOrder` has its own). */
  orderNullsLast(query: Knex.QueryBuilder, column: string, direction: 'asc' | 'desc'): Knex.QueryBuilder;
  /**
   * In SQL, `column` as a condition compares it without reading an index on it: in a subquery run once per row of
   * an outer query, so that a planner without statistics (SQLite before its first `analyze`) reads the few rows
   * the correlation's index finds rather than every row the column's index holds for the value. As it is where the
   * planner has statistics (PostgreSQL: autovacuum analyzes) and plans such a subquery as a join.
   */
  unindexed(column: string): string;
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
 * Whether `platform` is of the class named `className` or a subclass of it. By name rather than `instanceof`, so
 * that a server loads only its own dialect's driver package (a start on SQLite never loads PostgreSQL's, and back).
 */
export function isPlatform(platform: Platform, className: string): boolean {
  type Prototype = { constructor?: { name?: string } } | null;
  for (let proto = Object.getPrototypeOf(platform) as Prototype; proto; proto = Object.getPrototypeOf(proto) as Prototype) {
    if (proto.constructor?.name === className) return true;
  }
  return false;
}
