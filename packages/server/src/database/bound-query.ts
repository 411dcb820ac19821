import type { EntityDictionary, EntityName } from '@mikro-orm/core';
import type { QueryBuilder, SqlEntityManager } from '@mikro-orm/knex';

// MikroORM executes a query builder by writing every parameter into the SQL text (escaped, but still text: a NUL
// reached PostgreSQL's parser, a huge offset was rewritten). These run the builder's query through knex instead,
// so the driver sends each value as a bound parameter and no request value ever becomes SQL.

/** The rows `qb` selects, as entities of `entity` (managed by `em`). */
export async function findBound<T extends object>(em: SqlEntityManager, entity: EntityName<T>, qb: QueryBuilder<T>): Promise<T[]> {
  const rows = (await qb.getKnexQuery()) as EntityDictionary<T>[];
  return rows.map((row) => em.map(entity, row));
}

/** How many rows `qb` matches, ignoring its order, limit and offset. */
export async function countBound<T extends object>(qb: QueryBuilder<T>): Promise<number> {
  const query = qb.clone();
  query.count();
  const [row] = (await query.getKnexQuery()) as { count: number | string }[];
  return Number(row!.count);
}
