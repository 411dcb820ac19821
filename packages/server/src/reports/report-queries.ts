import type { Knex } from '@mikro-orm/knex';
import type { ReportMeta, ReportPage } from '../generated/types.gen.js';
import { countBound, findBound } from '../database/bound-query.js';
import type { Database } from '../database/dialect.js';
import { ReportRecord } from '../database/entities.js';
import type { ListReportsData } from '../generated/types.gen.js';
import { limitToScope, scopeCondition } from '../hosts/host-scope.js';
import { isScoped, type AccessScope } from '../people/scope.js';

/** Every property but the stored report, read from the entity so that none is forgotten: what lists need. */
const META_FIELDS = Object.keys(ReportRecord.meta.properties).filter((name) => name !== 'content') as Exclude<keyof ReportRecord, 'content'>[];

/** What the contract shows of a report: neither its stored bytes nor how they are stored. */
type ReportRecordMeta = Omit<ReportRecord, 'content' | 'contentEncoding' | 'contentSha256'>;

/** The filters and page of a report list: the contract's `listReports` query, its page given. */
export type ReportQuery = NonNullable<ListReportsData['query']> & { limit: number; offset: number };

/** One page of the reports of the hosts in `scope`, newest first, without their content. */
export async function reportPage(database: Database, scope: AccessScope, query: ReportQuery): Promise<ReportPage> {
  const { limit, offset } = query;
  const em = database.em.fork();
  const qb = em.createQueryBuilder(ReportRecord, 'r');
  const inScope = scopeCondition(em.getKnex(), scope, 'r.host_record_id');
  if (inScope) qb.andWhere(inScope.sql, inScope.bindings);
  if (query.hostRecordId !== undefined) qb.andWhere({ hostRecord: query.hostRecordId });
  if (query.keyId !== undefined) qb.andWhere({ key: query.keyId });
  const page = qb.clone().select(META_FIELDS).orderBy({ receivedAt: 'desc', id: 'desc' }).limit(limit).offset(offset);
  const [records, total] = await Promise.all([findBound(em, ReportRecord, page), countBound(qb)]);
  return { items: records.map(reportMetaOf), total, limit, offset };
}

/** The report with this id, or null; null too when its host is not in `scope`. */
export async function findReport(database: Database, scope: AccessScope, id: string): Promise<ReportRecord | null> {
  const report = await database.em.fork().findOne(ReportRecord, { id });
  return report && (await reportInScope(database, scope, id)) ? report : null;
}

/** Only the stored bytes of the report with this id (and how they are stored), or null; null too when its host is not in `scope`. */
export async function findReportContent(database: Database, scope: AccessScope, id: string) {
  if (!(await reportInScope(database, scope, id))) return null;
  return database.em.fork().findOne(ReportRecord, { id }, { fields: ['content', 'contentEncoding', 'contentSha256'] });
}

/** Whether the report's host is in `scope` (always, unscoped: nothing is read): a report of a host out of scope does not exist for its reader. */
async function reportInScope(database: Database, scope: AccessScope, id: string): Promise<boolean> {
  if (!isScoped(scope)) return true;
  const knex = database.em.getKnex();
  const query = knex('report').select('id').where('id', id);
  limitToScope(knex, query, 'host_record_id', scope);
  return ((await query) as unknown[]).length > 0;
}

/** The report its host sent just before `report` (ties broken by id, as the report lists order them), or null. */
export async function previousReport(database: Database, report: ReportRecord): Promise<ReportRecord | null> {
  return database.em
    .fork()
    .findOne(
      ReportRecord,
      { hostRecord: report.hostRecord.id, $or: [{ receivedAt: { $lt: report.receivedAt } }, { receivedAt: report.receivedAt, id: { $lt: report.id } }] },
      { orderBy: { receivedAt: 'desc', id: 'desc' } },
    );
}

/**
 * Narrows a query of `report` rows to those received before `report` (ties broken by id, as the report lists order
 * them). A block, not an arrow returning the builder: knex would take the returned builder for a promise.
 */
export function receivedBefore(query: Knex.QueryBuilder, report: { received_at: Date | number; id: string }): void {
  query.where('received_at', '<', report.received_at).orWhere((same) => {
    same.where('received_at', report.received_at).andWhere('id', '<', report.id);
  });
}

/** A report's metadata as the contract shows it. */
export function reportMetaOf(record: ReportRecordMeta): ReportMeta {
  return {
    id: record.id,
    hostRecordId: record.hostRecord.id,
    keyId: record.key.id,
    hostId: record.hostId,
    hostId2: record.hostId2 ?? null,
    receivedAt: record.receivedAt.toISOString(),
    encoding: record.encoding as ReportMeta['encoding'],
    size: record.size,
    sha256: record.sha256,
    hostname: record.hostname ?? null,
    lynisVersion: record.lynisVersion ?? null,
    hardeningIndex: record.hardeningIndex ?? null,
    warningCount: record.warningCount ?? null,
    suggestionCount: record.suggestionCount ?? null,
  };
}
