import type { Knex } from '@mikro-orm/knex';
import { chunks, MAX_PARAMETERS } from './batches.js';
import type { SqlDialect } from './dialect.js';

type KeyType = Parameters<SqlDialect['keyIn']>[0][number][1];

/** Changes to counts kept in a table, by key: each key's columns in `keyColumns` order, and how much its count changes. */
export class CountDeltas {
  private readonly deltas = new Map<string, { key: string[]; delta: number }>();

  add(key: string[], delta: number): void {
    const id = key.join('\0');
    const known = this.deltas.get(id);
    if (known) known.delta += delta;
    else this.deltas.set(id, { key, delta });
  }

  /** The keys whose count changes (a remove and an add of the same key cancel), in key order. */
  changed(): { key: string[]; delta: number }[] {
    return [...this.deltas]
      .filter(([, { delta }]) => delta !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, change]) => change);
  }
}

/**
 * Adds the deltas to a table of counts (columns `keyColumns` and `hosts`) in the caller's transaction: an upsert of
 * each delta, so that two servers' transactions add up rather than overwrite, then counts that reached zero deleted
 * (no row means none). Keys are taken in order, as every writer takes them, so that concurrent writers never deadlock.
 */
export async function applyCountDeltas(
  trx: Knex.Transaction,
  dialect: SqlDialect,
  table: string,
  keyColumns: [string, KeyType][],
  deltas: CountDeltas,
): Promise<void> {
  const names = keyColumns.map(([name]) => name);
  for (const chunk of chunks(deltas.changed(), Math.floor(MAX_PARAMETERS / (keyColumns.length + 1)))) {
    await dialect.upsertAdding(
      trx,
      table,
      names,
      'hosts',
      chunk.map(({ key, delta }) => [...key, delta]),
    );
    const lowered = chunk.filter(({ delta }) => delta < 0).map(({ key }) => key);
    if (lowered.length === 0) continue;
    const { sql, bindings } = dialect.keyIn(keyColumns, lowered);
    await trx.raw(`delete from ${table} where hosts = 0 and ${sql}`, bindings as Knex.RawBinding[]);
  }
}
