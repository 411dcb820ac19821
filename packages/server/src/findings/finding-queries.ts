// The reads of findings' lifecycles: one host's, and the fleet's with filters, both within the reader's scope.
import type { Knex } from '@mikro-orm/knex';
import { LYNIS_OWN_TEST } from '../fleet/finding-groups.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { isRecordId } from '../database/entities.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import type { FindingKind, FindingState } from '../generated/types.gen.js';
import { hostInScope, limitToScope } from '../hosts/host-scope.js';
import type { AccessScope } from '../people/scope.js';
import { readTracked, trackedFindings, type TrackedFinding } from './finding-records.js';

const DAY_MS = 86_400_000;

/** The order of a host's findings: what needs handling first (open and regressed), then acknowledged, accepted, resolved. */
const STATE_RANK = "case f.state when 'open' then 0 when 'regressed' then 0 when 'acknowledged' then 1 when 'accepted' then 2 else 3 end";

/** A host's findings, in the states asked for (all when none); not found when the host is not, or is out of scope. */
export async function hostFindings(
  database: Database,
  scope: AccessScope,
  hostRecordId: string,
  states: readonly FindingState[] = [],
): Promise<TrackedFinding[]> {
  const knex = database.em.getKnex();
  if (!(await hostInScope(knex, scope, hostRecordId))) throw notFound('host', hostRecordId);
  const query = trackedFindings(knex).where('f.host_record_id', hostRecordId);
  if (states.length > 0) query.whereIn('f.state', states);
  return readTracked(query.orderByRaw(`${STATE_RANK}, f.test_id, f.kind`));
}

/** The fleet's findings filters; `ownerUserId` already a person's id (`owner=me` resolved by the caller). */
export interface TrackedFindingFilters {
  states?: readonly FindingState[];
  ownerUserId?: string;
  group?: string;
  kind?: FindingKind;
  testId?: string;
  minAgeDays?: number;
  /** Leave out Lynis' own findings unless a test id is asked for (`--lynis-own-findings hide`). */
  hideLynis?: boolean;
  limit: number;
  offset: number;
}

/** One page of the fleet's findings, oldest first, leaving out decommissioned hosts' and hosts out of scope. */
export async function trackedFindingPage(
  database: Database,
  scope: AccessScope,
  filters: TrackedFindingFilters,
  now: Date = new Date(),
): Promise<{ items: TrackedFinding[]; total: number }> {
  const query = filteredFindings(database, scope, filters, now);
  if (filters.ownerUserId !== undefined) {
    if (!isRecordId(filters.ownerUserId)) throw new DomainError('invalid', 'owner must be a user id, or me');
    query.where('f.owner_user_id', filters.ownerUserId.toLowerCase());
  }
  const counted: unknown = await query.clone().clearSelect().clearOrder().count({ total: '*' });
  const items = await readTracked(
    query
      .orderBy([{ column: 'f.first_seen' }, { column: 'f.id' }])
      .limit(filters.limit)
      .offset(filters.offset),
  );
  return { items, total: Number((counted as { total: number | string }[])[0]!.total) };
}

/**
 * The fleet's findings (`f`, with their host `h`) in `scope` matching the filters every fleet read of findings shares
 * (the list and the export): state, kind, test id (Lynis' own left out unless asked for, when hidden), group and
 * age; decommissioned hosts' left out. The one where-clause of both, unordered.
 */
export function filteredFindings(
  database: Database,
  scope: AccessScope,
  filters: Omit<TrackedFindingFilters, 'ownerUserId' | 'limit' | 'offset'>,
  now: Date = new Date(),
): Knex.QueryBuilder {
  const knex = database.em.getKnex();
  const query = trackedFindings(knex).where('h.state', '<>', 'decommissioned');
  limitToScope(knex, query, 'f.host_record_id', scope);
  if (filters.states && filters.states.length > 0) query.whereIn('f.state', filters.states);
  if (filters.kind !== undefined) query.where('f.kind', filters.kind);
  if (filters.testId !== undefined) query.where('f.test_id', filters.testId);
  else if (filters.hideLynis) query.whereNot('f.test_id', LYNIS_OWN_TEST);
  if (filters.minAgeDays !== undefined) {
    query.where('f.first_seen', '<=', sqlDialectOf(database.em).toDatabaseTime(new Date(now.getTime() - filters.minAgeDays * DAY_MS)));
  }
  if (filters.group !== undefined) {
    query.whereIn('f.host_record_id', knex('host_label').select('host_record_id').where('kind', 'group').whereRaw('lower(value) = lower(?)', [filters.group]));
  }
  return query;
}
