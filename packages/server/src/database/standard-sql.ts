import type { Knex, SqlEntityManager } from '@mikro-orm/knex';
import type { Upsert } from './dialect.js';

// Implementations of `SqlDialect` hooks in SQL that SQLite and PostgreSQL both take: each dialect file picks the ones
// its database understands, and a dialect that takes other SQL writes its own.

/** `insert … on conflict … do update set column = table.column + excluded.column`. */
export async function upsertAddingOnConflict(
  trx: Knex.Transaction,
  table: string,
  keyColumns: readonly string[],
  column: string,
  rows: readonly (readonly Knex.Value[])[],
): Promise<void> {
  const names = keyColumns.join(', ');
  const tuple = `(${keyColumns.map(() => '?').join(', ')}, ?)`;
  await trx.raw(
    `insert into ${table} (${names}, ${column}) values ${rows.map(() => tuple).join(', ')} on conflict (${names}) do update set ${column} = ${table}.${column} + excluded.${column}`,
    rows.flat(),
  );
}

/** `insert … on conflict … do update … where … returning`. */
export async function upsertReturningRows<Row>(trx: Knex.Transaction, upsert: Upsert, columns: readonly string[]): Promise<Row[]> {
  const colliding = trx(upsert.table)
    .insert(upsert.rows)
    .onConflict([...upsert.conflict]);
  const { merge } = upsert;
  const query = isColumnList(merge) ? colliding.merge([...merge]) : colliding.merge(merge);
  if (upsert.where) void query.where(...upsert.where);
  return (await query.returning([...columns])) as Row[];
}

const isColumnList = (merge: Upsert['merge']): merge is readonly string[] => Array.isArray(merge);

/** `update … set column = (select coalesce(max(column), 0) + 1 from table) where …`: a subquery on the updated table. */
export async function setToNextNumberBySubquery(
  em: SqlEntityManager,
  table: string,
  column: string,
  where: { sql: string; bindings: readonly unknown[] },
): Promise<void> {
  await em.execute(`update ${table} set ${column} = (select coalesce(max(${column}), 0) + 1 from ${table}) where ${where.sql}`, [...where.bindings]);
}

/** `cast(expression as integer)`. */
export const castAsInteger = (expression: string): string => `cast(${expression} as integer)`;

/** `a || b`. */
export const concatByPipes = (...expressions: string[]): string => expressions.join(' || ');

/** `order by column direction nulls last`. */
export const orderNullsLastClause = (query: Knex.QueryBuilder, column: string, direction: 'asc' | 'desc'): Knex.QueryBuilder =>
  query.orderByRaw(`${column} ${direction} nulls last`);

/**
 * `like` with an explicit escape character, lowering both sides: case-insensitive on SQLite (whose `like` has no
 * escape character by default) and on PostgreSQL (whose `like` is case-sensitive) alike.
 */
export function lowerLikeContains(column: string, text: string): { sql: string; bindings: string[] } {
  const literal = text.replace(/[\\%_]/g, (character) => `\\${character}`);
  return { sql: `lower(${column}) like lower(?) escape '\\'`, bindings: [`%${literal}%`] };
}
