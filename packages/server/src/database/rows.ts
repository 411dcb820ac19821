import type { DatabaseTime } from './dialect.js';

/** `hostId2` → `host_id2`: MikroORM's default naming of a property's column. */
type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : Name;

/** Values that are stored as they are, not as a relation. */
type Scalar = string | number | boolean | bigint | Date | Uint8Array;

/** The column of a property: a relation (an entity) is stored as `<name>_id`. */
type ColumnName<Name, Value> = Name extends string ? (NonNullable<Value> extends Scalar ? SnakeCase<Name> : `${SnakeCase<Name>}_id`) : never;

/** What a column holds: datetimes as the dialect stores them, a relation as the related record's id. */
type ColumnValue<Value> = Value extends Date ? DatabaseTime : Value extends Scalar | null ? Value : string;

/**
 * A table row by column name, derived from its entity, for writes that bypass the ORM (bulk inserts through knex):
 * every column is required, so a column added to the entity is a compile error until the write fills it in. The
 * schema test checks these names against the ORM's own.
 */
export type RowOf<Entity> = {
  -readonly [Name in keyof Entity as ColumnName<Name, Entity[Name]>]-?: ColumnValue<Exclude<Entity[Name], undefined>>;
};

/** What a column reads back as through knex: a boolean as SQLite stores it too (0 or 1). */
type ReadValue<Value> = Value extends boolean ? boolean | number : Value;

/**
 * A table row by column name as a read through knex returns it (`RowOf` with booleans as 0 or 1 on SQLite): for
 * reads that bypass the ORM, usually narrowed with `Pick` to the columns selected.
 */
export type ReadRowOf<Entity> = { [Column in keyof RowOf<Entity>]: ReadValue<RowOf<Entity>[Column]> };
