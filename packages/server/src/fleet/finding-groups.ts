import type { Knex } from '@mikro-orm/knex';
import type { FindingCount, FindingGroupPage, FindingKind } from '../generated/types.gen.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { hostIdsAt } from '../compliance/hosts-at.js';
import { scopeCondition, scopedHostIds } from '../hosts/host-scope.js';
import type { AccessScope } from '../people/scope.js';
import type { ListFindingsData } from '../generated/types.gen.js';

/** Findings of each kind the overview names. */
const TOP_FINDINGS = 10;

/** The filters and page of the finding list: the contract's `listFindings` query, its page given. */
export type FindingGroupQuery = NonNullable<ListFindingsData['query']> & { limit: number; offset: number };

/** Whether lists leave out the findings about Lynis itself (`--lynis-own-findings hide`), unless asked for by test id. */
export interface FindingListOptions {
  hideLynis: boolean;
}

/** The test id of Lynis' findings about itself ("this release is more than 4 months old"). */
export const LYNIS_OWN_TEST = 'LYNIS';

/**
 * The warnings and suggestions of every host's newest report, one item per kind and test id with the hosts that
 * have it, most hosts first (ties by test id, then kind); `text` is the smallest of its texts. Of the hosts in
 * `scope` only.
 */
export async function findingGroups(database: Database, scope: AccessScope, query: FindingGroupQuery, options: FindingListOptions): Promise<FindingGroupPage> {
  const { limit, offset } = query;
  const knex = database.em.getKnex();
  const matching = () => {
    const qb = findingCounts(knex, scope);
    if (query.kind !== undefined) qb.where('c.kind', query.kind);
    return query.testId !== undefined ? qb.where('c.test_id', query.testId) : withoutLynis(qb, options);
  };
  const [rows, [{ total }]] = await Promise.all([
    withText(
      knex,
      scope,
      matching()
        .select('c.kind', 'c.test_id', 'c.hosts')
        .orderBy([{ column: 'c.hosts', order: 'desc' }, 'c.test_id', 'c.kind'])
        .limit(limit)
        .offset(offset),
    ),
    matching().count({ total: '*' }) as unknown as Promise<[{ total: number | string }]>,
  ]);
  return { items: rows, total: Number(total), limit, offset };
}

interface FindingRow {
  kind: FindingKind;
  test_id: string;
  hosts: number | string;
  text: string;
}

const toFindingCount = (row: FindingRow): FindingCount => ({ kind: row.kind, testId: row.test_id, text: row.text, hosts: Number(row.hosts) });

/** The ten warnings and the ten suggestions on the most hosts in `scope` (ties by test id), from the findings' counts. */
export async function topFindings(database: Database, scope: AccessScope, options: FindingListOptions): Promise<FindingCount[]> {
  const knex = database.em.getKnex();
  const top = (kind: FindingKind) =>
    withText(
      knex,
      scope,
      withoutLynis(findingCounts(knex, scope), options)
        .select('c.kind', 'c.test_id', 'c.hosts')
        .where('c.kind', kind)
        .orderBy([{ column: 'c.hosts', order: 'desc' }, 'c.test_id'])
        .limit(TOP_FINDINGS),
    );
  const [warnings, suggestions] = await Promise.all([top('warning'), top('suggestion')]);
  return [...warnings, ...suggestions];
}

/**
 * The ten warnings and the ten suggestions on the most hosts in `scope` at a past moment `at`, from the findings'
 * transitions: a finding counts when its latest transition by then left it in another state than `resolved` (the
 * hosts' reports had it), on the hosts counted then (`compliance/hosts-at.ts`). Its text is the newest one now.
 */
export async function topFindingsAt(database: Database, scope: AccessScope, options: FindingListOptions, at: Date): Promise<FindingCount[]> {
  const knex = database.em.getKnex();
  const time = sqlDialectOf(database.em).toDatabaseTime(at);
  const stateThen = knex('finding_transition as t')
    .select('t.to_state')
    .whereRaw('t.finding_id = f.id')
    .andWhere('t.at', '<=', time)
    .orderBy([
      { column: 't.at', order: 'desc' },
      { column: 't.id', order: 'desc' },
    ])
    .limit(1);
  const top = async (kind: FindingKind) => {
    const counts = knex('finding as f')
      .select('f.kind', 'f.test_id')
      .count({ hosts: '*' })
      .min({ text: 'f.text' })
      .where('f.kind', kind)
      .whereIn('f.host_record_id', hostIdsAt(knex, time, { scope }))
      .andWhereRaw("(?) <> 'resolved'", [stateThen])
      .groupBy('f.kind', 'f.test_id')
      .orderBy([{ column: 'hosts', order: 'desc' }, 'f.test_id'])
      .limit(TOP_FINDINGS);
    return (await (options.hideLynis ? counts.whereNot('f.test_id', LYNIS_OWN_TEST) : counts)) as FindingRow[];
  };
  const [warnings, suggestions] = await Promise.all([top('warning'), top('suggestion')]);
  return [...warnings, ...suggestions].map(toFindingCount);
}

/** The finding counts `c` without Lynis' own when they are hidden. */
const withoutLynis = (counts: Knex.QueryBuilder, options: FindingListOptions) => (options.hideLynis ? counts.whereNot('c.test_id', LYNIS_OWN_TEST) : counts);

/**
 * The hosts of each finding (`c`: `kind`, `test_id`, `hosts`): the counts kept for the fleet, or for a scope its
 * hosts' findings counted (one row per host, kind and test id).
 */
function findingCounts(knex: Knex, scope: AccessScope): Knex.QueryBuilder {
  const hosts = scopedHostIds(knex, scope);
  if (!hosts) return knex('finding_count as c');
  const counted = knex('host_finding').select('kind', 'test_id').count({ hosts: '*' }).whereIn('host_record_id', hosts).groupBy('kind', 'test_id');
  return knex.from(counted.as('c'));
}

/**
 * Counted findings with their smallest text, which a count cannot keep (the host holding it may drop it): one seek
 * per finding shown into the findings' index on test id, kind and text. A scope's text is the smallest its hosts have.
 */
async function withText(knex: Knex, scope: AccessScope, counts: Knex.QueryBuilder): Promise<FindingCount[]> {
  const inScope = scopeCondition(knex, scope, 'f.host_record_id');
  const text = 'select min(f.text) from host_finding f where f.test_id = c.test_id and f.kind = c.kind';
  const rows = await counts.select<FindingRow[]>(inScope ? knex.raw(`(${text} and ${inScope.sql}) as text`, inScope.bindings) : knex.raw(`(${text}) as text`));
  return rows.map(toFindingCount);
}
