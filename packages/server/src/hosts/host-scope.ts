// The one condition every read of hosts, and of their reports, results and findings, goes through: a host is in an
// actor's scope when its newest report names one of the scope's customers (`host.customer_name`) or belongs to one of
// its groups (`host_label`, compared case-insensitively as the host list's group filter does). The host's columns and
// labels follow its newest report, so a host's membership follows it too, with nothing to invalidate. An unscoped
// actor gets no condition at all: its queries stay exactly as they were.
import type { Knex } from '@mikro-orm/knex';
import { isScoped, type AccessScope } from '../people/scope.js';

/** A condition in SQL, its values bound. */
export interface ScopeCondition {
  sql: string;
  bindings: Knex.Value[];
}

/** Whether a scope's entry can name a host: none holds a NUL character (an unreadable stored scope reads as one that does). */
const matchable = (entry: string) => !entry.includes('\u0000');

/** The ids of the hosts in `scope`, as a subquery; undefined when the scope limits nothing (every host). */
export function scopedHostIds(knex: Knex, scope: AccessScope): Knex.QueryBuilder | undefined {
  if (!isScoped(scope)) return undefined;
  // An entry that cannot name a host matches nothing (and PostgreSQL would refuse its NUL as a parameter).
  const customers = scope.customers.filter(matchable);
  const groups = scope.groups.filter(matchable);
  const parts: Knex.QueryBuilder[] = [];
  if (customers.length > 0) parts.push(knex('host').select('id').whereIn('customer_name', customers));
  if (groups.length > 0) {
    // Lowered on both sides, as the index on the labels' lowered values holds them.
    const lowered = groups.map(() => 'lower(?)').join(', ');
    parts.push(knex('host_label').select({ id: 'host_record_id' }).where('kind', 'group').whereRaw(`lower(value) in (${lowered})`, groups));
  }
  if (parts.length === 0) return knex('host').select('id').whereRaw('1 = 0');
  const [first, ...others] = parts as [Knex.QueryBuilder, ...Knex.QueryBuilder[]];
  // Not wrapped in parentheses: SQLite takes no parenthesised members of a compound select.
  return others.length === 0 ? first : first.union(others, false);
}

/**
 * Narrows `query` to the rows whose `column` holds the id of a host in `scope`; leaves it as it is when the scope
 * limits nothing. Returns nothing: knex would take a returned builder for a promise.
 */
export function limitToScope(knex: Knex, query: Knex.QueryBuilder, column: string, scope: AccessScope): void {
  const hosts = scopedHostIds(knex, scope);
  if (hosts) query.whereIn(column, hosts);
}

/** {@link limitToScope} as raw SQL, for the ORM's query builder: `column in (…)`; undefined when the scope limits nothing. */
export function scopeCondition(knex: Knex, scope: AccessScope, column: string): ScopeCondition | undefined {
  const hosts = scopedHostIds(knex, scope);
  if (!hosts) return undefined;
  const { sql, bindings } = hosts.toSQL();
  return { sql: `${column} in (${sql})`, bindings: [...bindings] };
}

/** Whether a host with this id exists and is in `scope`: a host outside it is answered as if there were none. */
export async function hostInScope(knex: Knex, scope: AccessScope, id: string): Promise<boolean> {
  const query = knex('host').select('id').where('id', id);
  limitToScope(knex, query, 'id', scope);
  return ((await query) as unknown[]).length > 0;
}

/** The `hostid`s of the hosts in `scope` (for rows that name a host by its `hostid` alone); undefined when it limits nothing. */
export function scopedHostIdValues(knex: Knex, scope: AccessScope): Knex.QueryBuilder | undefined {
  const hosts = scopedHostIds(knex, scope);
  return hosts && knex('host').select('host_id').whereIn('id', hosts);
}
