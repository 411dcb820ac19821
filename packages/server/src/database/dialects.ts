import type { EntityManager, MigrationObject } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import type { Database, SqlDialect } from './dialect.js';
import { POSTGRESQL } from './postgresql.js';
import { SQLITE } from './sqlite.js';

/** Every dialect the server speaks; the first one without URL schemes serves a data directory alone. */
export const DIALECTS = [SQLITE, POSTGRESQL] as const;

/** The SQL dialects the server runs on, by name. */
export type Dialect = (typeof DIALECTS)[number]['name'];

/** Every URL scheme that selects a dialect (`postgres://`), for checking a database URL before opening it. */
export const DATABASE_URL_SCHEMES: readonly string[] = DIALECTS.flatMap((dialect) => dialect.urlSchemes);

/** The dialect a database URL selects, or the one for a data directory alone when there is no URL. */
export function dialectForUrl(databaseUrl: string | undefined): SqlDialect {
  const dialect = databaseUrl
    ? DIALECTS.find((candidate) => candidate.urlSchemes.some((scheme) => databaseUrl.startsWith(scheme)))
    : DIALECTS.find((candidate) => candidate.urlSchemes.length === 0);
  if (!dialect) throw new Error(`the database URL must start with ${DATABASE_URL_SCHEMES.join(' or ')}`);
  return dialect;
}

/** What the dialect of a database does differently, told by its entity manager (`orm.em` or a fork). */
export function sqlDialectOf(em: Pick<EntityManager, 'getPlatform'>): SqlDialect<Dialect> {
  const platform = em.getPlatform();
  const dialect = DIALECTS.find((candidate) => candidate.speaks(platform));
  if (!dialect) throw new Error(`no dialect speaks ${platform.constructor.name}`);
  return dialect;
}

/** What the dialect of a knex connection or transaction does differently (`trx` of `em.getKnex().transaction`). */
export function sqlDialectOfKnex(knex: Knex): SqlDialect<Dialect> {
  const client = (knex.client as { dialect: string }).dialect;
  const dialect = DIALECTS.find((candidate) => candidate.knexClient === client);
  if (!dialect) throw new Error(`no dialect speaks knex's ${client}`);
  return dialect;
}

/** Which dialect a database speaks, told by its entity manager (`orm.em` or a fork). */
export const dialectOf = (em: Pick<EntityManager, 'getPlatform'>): Dialect => sqlDialectOf(em).name;

/** Every schema migration of a dialect, oldest first; a test per dialect checks that they build the entities' schema. */
export const migrationsFor = (name: Dialect): Promise<MigrationObject[]> => DIALECTS.find((dialect) => dialect.name === name)!.loadMigrations();

/** A time as the database's datetime columns hold it, for statements written without the ORM. */
export const databaseTime = (database: Database, time: Date): Date | number => sqlDialectOf(database.em).toDatabaseTime(time);
