// What the host filters can be set to: each value of a field with how many hosts' latest reports carry it, most
// hosts first, for suggestions as an operator types (`GET /api/admin/facets`).
import type { Knex } from '@mikro-orm/knex';
import type { FacetField, Facets, FacetValue } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { AccessScope } from '../people/scope.js';
import { limitToScope } from './host-scope.js';

/** What a facet query asks: one field or all, values containing `q`, at most `limit` per field. */
export interface FacetQuery {
  field?: FacetField;
  q?: string;
  limit: number;
}

const FIELDS: FacetField[] = ['group', 'tag', 'os', 'key', 'customer'];

/** The values of each field (only of `field` when given; the others empty), with their counts of the hosts in `scope`. */
export async function hostFacets(database: Database, scope: AccessScope, query: FacetQuery): Promise<Facets> {
  const fields = FIELDS.filter((field) => query.field === undefined || query.field === field);
  const values = await Promise.all(fields.map((field) => facetValues(database, scope, field, query)));
  const facets: Facets = { group: [], tag: [], os: [], key: [], customer: [] };
  fields.forEach((field, index) => (facets[field] = values[index]!));
  return facets;
}

/** One field's values: grouped by the column that holds it (case kept: values differing in case count apart). */
async function facetValues(database: Database, scope: AccessScope, field: FacetField, { q, limit }: FacetQuery): Promise<FacetValue[]> {
  const knex = database.em.getKnex();
  const { table, column, host } = SOURCES[field];
  const query = knex(table)
    .select({ value: column })
    .count({ hosts: '*' })
    .whereNotNull(column)
    .groupBy(column)
    .orderBy([
      { column: 'hosts', order: 'desc' },
      { column, order: 'asc' },
    ])
    .limit(limit);
  if (field === 'group' || field === 'tag') query.where('kind', field);
  // Counted as the host list counts by default: without decommissioned hosts.
  query.whereNotIn(host, knex('host').select('id').where('state', 'decommissioned'));
  limitToScope(knex, query, host, scope);
  if (q !== undefined) {
    // A key is looked for by its label, what an operator knows it by (its id is what the filter takes).
    const { sql, bindings } = sqlDialectOf(database.em).containsIgnoringCase(field === 'key' ? 'k.label' : column, q);
    if (field === 'key') query.whereIn(column, knex('license_key as k').select('k.id').whereRaw(sql, bindings));
    else query.andWhereRaw(sql, bindings);
  }
  const rows = (await query) as { value: string; hosts: number | string }[];
  const labels =
    field === 'key'
      ? await keyLabels(
          knex,
          rows.map((row) => row.value),
        )
      : new Map<string, string | null>();
  return rows.map((row) => ({ value: row.value, label: labels.get(row.value) ?? null, hosts: Number(row.hosts) }));
}

/** Where each field's values are: groups and tags one label row per host, the rest a column of the host. */
const SOURCES: Record<FacetField, { table: string; column: string; host: string }> = {
  group: { table: 'host_label', column: 'value', host: 'host_record_id' },
  tag: { table: 'host_label', column: 'value', host: 'host_record_id' },
  os: { table: 'host', column: 'os_name', host: 'id' },
  key: { table: 'host', column: 'key_id', host: 'id' },
  customer: { table: 'host', column: 'customer_name', host: 'id' },
};

/** The labels of these license keys, by id. */
async function keyLabels(knex: Knex, keyIds: string[]): Promise<Map<string, string | null>> {
  if (keyIds.length === 0) return new Map();
  const keys = (await knex('license_key').select('id', 'label').whereIn('id', keyIds)) as { id: string; label: string | null }[];
  return new Map(keys.map((key) => [key.id, key.label]));
}
