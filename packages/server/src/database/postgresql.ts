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

/**
 * SQLSTATE classes and codes of a server that cannot serve now: 08 connection exception, 53 insufficient resources
 * (53100 disk full), 57P01–57P03 shutting down or starting, 58 system error, 25006 read-only (a standby).
 */
const UNAVAILABLE_STATE = /^(08|53|58|57P0[123]$|25006$)/;

/** PostgreSQL: shared by every server of a deployment. */
export const POSTGRESQL: SqlDialect<'postgresql'> = {
  name: 'postgresql',
  urlSchemes: ['postgres://', 'postgresql://'],
  loadMigrations: async () => (await import('./migrations/postgresql/index.js')).POSTGRESQL_MIGRATIONS,
  migrationsDirectory: new URL('./migrations/postgresql/', import.meta.url),
  async open(shared: Options, { databaseUrl }) {
    const { MikroORM } = requireCommonJs('@mikro-orm/postgresql') as typeof import('@mikro-orm/postgresql'); // loaded only for PostgreSQL: see isPlatform
    return (await MikroORM.init({ ...shared, clientUrl: databaseUrl })) as unknown as Database;
  },
  speaks: (platform) => isPlatform(platform, 'PostgreSqlPlatform'),
  knexClient: 'postgresql',
  // timestamptz: the driver converts a Date itself.
  toDatabaseTime: (time) => time,
  hoursBetween: (start, end) => `extract(epoch from (${end}) - (${start})) / 3600.0`,
  castToInteger: castAsInteger,
  concat: concatByPipes,
  least: (a, b) => `least(${a}, ${b})`,
  greatest: (a, b) => `greatest(${a}, ${b})`,
  proposed: (column) => `excluded.${column}`,
  upsertAdding: upsertAddingOnConflict,
  upsertReturning: upsertReturningRows,
  setToNextNumber: setToNextNumberBySubquery,
  // One array per column: a list of row values is planned as an OR of index scans, whose planning grows with the list.
  keyIn: (columns, keys) => ({
    sql: `(${columns.map(([name]) => name).join(', ')}) in (select * from unnest(${columns.map(([, type]) => `?::${type}[]`).join(', ')}))`,
    bindings: columns.map((_, i) => keys.map((key) => key[i])),
  }),
  // Writers run side by side unless told; this lock blocks other key changes, not plain reads.
  serialiseKeyChanges: async (em) => void (await em.execute('lock table license_key in share row exclusive mode')),
  lockSkippingLocked: (query) => query.forUpdate().skipLocked(),
  lockRows: (query) => query.forUpdate(),
  lockRowsById: async (trx, table, ids) => {
    if (ids.length > 0) await trx(table).select('id').whereIn('id', ids).orderBy('id').forUpdate();
  },
  startWriting: async () => {},
  deleteReturning: async <Row>(query: Knex.QueryBuilder, columns: string[]) => {
    // The rows' shape is the caller's word: it names the columns.
    const rows: unknown = await query.delete(columns);
    return rows as Row[];
  },
  containsIgnoringCase: lowerLikeContains,
  orderNullsLast: orderNullsLastClause,
  unindexed: (column) => column,
  // A few: each group holds a pooled connection (10) and its hosts' rows until it commits.
  concurrentGroups: 3,
  // 40001 serialization failure, 40P01 deadlock detected.
  isRetryableCode: (code) => code === '40001' || code === '40P01',
  isUnavailableCode: (code) => UNAVAILABLE_STATE.test(code),
};
