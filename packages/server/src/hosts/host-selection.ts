// Which hosts a bulk action acts on: the ids an operator ticked, or the host list's filters.
import type { Knex } from '@mikro-orm/knex';
import { chunks, MAX_PARAMETERS } from '../database/batches.js';
import type { Database } from '../database/dialect.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import type { HostSelection } from '../generated/types.gen.js';
import { isScoped, type AccessScope } from '../people/scope.js';
import { filteredHostIds } from './host-queries.js';
import { limitToScope } from './host-scope.js';

/**
 * The ids of the hosts selected, in `scope` only: an id out of it is not found, filters select among its hosts.
 * More than `maxHosts` is refused with `tooMany` (the message says what to do instead).
 */
export async function selectHosts(
  database: Database,
  scope: AccessScope,
  selection: HostSelection,
  limits: { maxHosts: number; tooMany: string },
  now = new Date(),
): Promise<string[]> {
  const { ids, filters } = selection;
  if ((ids === undefined) === (filters === undefined)) throw new DomainError('invalid', 'hosts: give exactly one of ids and filters');
  const knex = database.em.getKnex();
  const selected =
    ids !== undefined
      ? await knownHosts(knex, scope, ids)
      : ((await filteredHostIds(database, scope, filters!, now).limit(limits.maxHosts + 1)) as { id: string }[]).map((row) => row.id);
  if (selected.length > limits.maxHosts) throw new DomainError('invalid', `hosts: more than ${limits.maxHosts} hosts selected; ${limits.tooMany}`);
  return selected;
}

/** `ids` when every one is a host's in `scope`; a `not_found` {@link DomainError} naming the first that is not. */
async function knownHosts(knex: Knex, scope: AccessScope, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = new Set<string>();
  // A scope's own parameters (at most 200 entries) need room in each batch.
  for (const batch of chunks(unique, isScoped(scope) ? MAX_PARAMETERS - 200 : MAX_PARAMETERS)) {
    const query = knex('host').select('id').whereIn('id', batch);
    limitToScope(knex, query, 'id', scope);
    for (const row of (await query) as { id: string }[]) found.add(row.id);
  }
  const unknown = unique.find((id) => !found.has(id));
  if (unknown !== undefined) throw notFound('host', unknown);
  return unique;
}
