// The hosts the figures at a past moment count: those first seen by then, in the actor's scope, less the
// decommissioned ones. Host states, labels and customers are known only as they are now: a host decommissioned
// since is left out of the past too, as it is out of every figure, and a host counts in the groups it has now.
import type { Knex } from '@mikro-orm/knex';
import type { DatabaseTime } from '../database/dialect.js';
import { limitToScope } from '../hosts/host-scope.js';
import type { AccessScope } from '../people/scope.js';

/** Which hosts: those of the actor's `scope`, of them only `hostIds` when given (at most `MAX_PARAMETERS` of them). */
export interface HostSelection {
  scope: AccessScope;
  hostIds?: readonly string[];
}

/** The ids of the hosts counted at `time`, as a subquery. */
export function hostIdsAt(knex: Knex, time: DatabaseTime, selection: HostSelection): Knex.QueryBuilder {
  const query = knex('host').select('id').where('first_seen', '<=', time).andWhere('state', '<>', 'decommissioned');
  if (selection.hostIds) query.whereIn('id', [...selection.hostIds]);
  limitToScope(knex, query, 'id', selection.scope);
  return query;
}
