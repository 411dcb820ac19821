import type { Knex } from '@mikro-orm/knex';
import type { RejectedOperation, RejectionGroup, RejectionPage } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import type { ListRejectionsData } from '../generated/types.gen.js';
import { scopedHostIdValues } from '../hosts/host-scope.js';
import type { AccessScope } from '../people/scope.js';

/** Most addresses an item names; `addressCount` tells how many there were. */
const ADDRESSES_SHOWN = 20;
/** The columns an item groups by: one item per day, operation, reason, key and `hostid` (addresses together). */
const GROUP_COLUMNS = ['day', 'operation', 'reason', 'key_id', 'host_id', 'folded'] as const;

/** The filters and page of the refusal list: the contract's `listRejections` query, its page given. */
export type RejectionQuery = NonNullable<ListRejectionsData['query']> & { limit: number; offset: number };

interface GroupRow {
  day: string;
  operation: string;
  reason: string;
  key_id: string;
  host_id: string;
  folded: boolean | number;
  count: number | string;
  first_at: Date | number | string;
  last_at: Date | number | string;
  address_count: number | string;
}

/**
 * One page of refused uploads and license checks, newest day first, then most recently refused first, each item
 * with the client addresses that sent them. Every filter is a bound parameter. A scoped reader sees only the refusals
 * whose `hostid` is a host's in its scope: the others name hosts it may not know of.
 */
export async function rejectionPage(database: Database, scope: AccessScope, query: RejectionQuery): Promise<RejectionPage> {
  const { limit, offset } = query;
  const knex = database.em.getKnex();
  const matching = () => {
    const qb = knex('rejection');
    limitToHostIds(knex, qb, scope);
    if (query.since !== undefined) qb.where('day', '>=', query.since);
    if (query.operation !== undefined) qb.where('operation', query.operation);
    if (query.reason !== undefined) qb.where('reason', query.reason);
    if (query.keyId !== undefined) qb.where('key_id', query.keyId.toLowerCase());
    if (query.hostId !== undefined) qb.where('host_id', query.hostId);
    return qb;
  };
  const grouped = matching()
    .select(...GROUP_COLUMNS)
    .sum({ count: 'count' })
    .min({ first_at: 'first_at' })
    .max({ last_at: 'last_at' })
    .select(knex.raw("sum(case when remote_address <> '' then 1 else 0 end) as address_count"))
    .groupBy(...GROUP_COLUMNS);
  const [rows, [{ total }]] = await Promise.all([
    grouped
      .clone()
      .orderBy([{ column: 'day', order: 'desc' }, { column: 'last_at', order: 'desc' }, 'operation', 'reason', 'key_id', 'host_id', 'folded'])
      .limit(limit)
      .offset(offset) as unknown as Promise<GroupRow[]>,
    knex.count({ total: '*' }).from(grouped.as('groups')) as unknown as Promise<[{ total: number | string }]>,
  ]);
  const addresses = await addressesOf(matching, rows);
  const result: RejectionPage = {
    items: rows.map((row) => toGroup(row, addresses.get(itemKey(row)) ?? [])),
    total: Number(total),
    limit,
    offset,
  };
  return result;
}

/** The addresses of the page's items, most refusals first. */
async function addressesOf(matching: () => Knex.QueryBuilder, rows: GroupRow[]): Promise<Map<string, string[]>> {
  const byItem = new Map<string, { address: string; count: number }[]>();
  if (rows.length === 0) return new Map();
  const found = (await matching()
    .select(...GROUP_COLUMNS, 'remote_address', 'count')
    .whereIn('day', [...new Set(rows.map((row) => row.day))])
    .whereIn('host_id', [...new Set(rows.map((row) => row.host_id))])
    .whereNot('remote_address', '')) as (GroupRow & { remote_address: string })[];
  for (const row of found) {
    const key = itemKey(row);
    byItem.set(key, [...(byItem.get(key) ?? []), { address: row.remote_address, count: Number(row.count) }]);
  }
  return new Map(
    [...byItem].map(([key, list]) => [
      key,
      list
        .sort((a, b) => b.count - a.count || (a.address < b.address ? -1 : 1))
        .slice(0, ADDRESSES_SHOWN)
        .map((a) => a.address),
    ]),
  );
}

const itemKey = (row: Pick<GroupRow, (typeof GROUP_COLUMNS)[number]>) =>
  JSON.stringify([row.day, row.operation, row.reason, row.key_id, row.host_id, Boolean(row.folded)]);

/** An item as the contract shows it: `''` in the table means not known, `null` here. */
function toGroup(row: GroupRow, remoteAddresses: string[]): RejectionGroup {
  return {
    day: row.day,
    operation: row.operation as RejectedOperation,
    reason: row.reason,
    keyId: row.key_id || null,
    hostId: row.host_id || null,
    folded: Boolean(row.folded),
    remoteAddresses,
    addressCount: Number(row.address_count),
    count: Number(row.count),
    firstAt: new Date(row.first_at).toISOString(),
    lastAt: new Date(row.last_at).toISOString(),
  };
}

/** Uploads refused per day (`YYYY-MM-DD`) since `firstDay` (up to `lastDay` when given), from the rejection log; of the hosts in `scope` only. */
export async function refusalsByDay(database: Database, scope: AccessScope, firstDay: string, lastDay?: string): Promise<Map<string, number>> {
  const knex = database.em.getKnex();
  const query = knex('rejection').select('day').sum({ refused: 'count' }).where('operation', 'uploadReport').andWhere('day', '>=', firstDay).groupBy('day');
  if (lastDay !== undefined) query.andWhere('day', '<=', lastDay);
  limitToHostIds(knex, query, scope);
  const rows = (await query) as { day: string; refused: number | string }[];
  return new Map(rows.map((row) => [row.day, Number(row.refused)]));
}

/** Narrows refusals to those naming the `hostid` of a host in `scope` (nothing to narrow unscoped). */
function limitToHostIds(knex: Knex, query: Knex.QueryBuilder, scope: AccessScope): void {
  const hostIds = scopedHostIdValues(knex, scope);
  if (hostIds) query.whereIn('host_id', hostIds);
}
