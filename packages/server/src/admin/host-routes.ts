import type { Host, HostDetail, HostPage } from '@org/audit-server-core';
import { countBound, findBound } from '../database/bound-query.js';
import { sqlDialectOf } from '../database/dialects.js';
import { HostRecord, ReportRecord } from '../database/entities.js';
import type { AdminOperation } from './operation.js';
import { jsonResponse, problemResponse } from './responses.js';

/** `GET /api/admin/hosts`: one page of hosts, most recently seen first, filtered by host name, key and `hostid`. */
export const listHosts: AdminOperation = async ({ query }, { database }) => {
  const limit = query['limit'] as number;
  const offset = query['offset'] as number;
  const em = database.em.fork();
  const qb = em.createQueryBuilder(HostRecord, 'h');
  if (query['keyId'] !== undefined) qb.andWhere({ key: query['keyId'] as string });
  if (query['hostId'] !== undefined) qb.andWhere({ hostId: query['hostId'] as string });
  if (query['hostname'] !== undefined) {
    const { sql, bindings } = sqlDialectOf(em).containsIgnoringCase('h.hostname', query['hostname'] as string);
    qb.andWhere(sql, bindings);
  }
  const page = qb.clone().orderBy({ lastSeen: 'desc', id: 'asc' }).limit(limit).offset(offset);
  const [records, total] = await Promise.all([findBound(em, HostRecord, page), countBound(qb)]);
  const result: HostPage = { items: records.map(toHost), total, limit, offset };
  return jsonResponse(200, result);
};

/** `GET /api/admin/hosts/{hostRecordId}`: a host, with the hardening index of its newest reports. */
export const getHost: AdminOperation = async ({ params, query }, { database }) => {
  const id = params['hostRecordId']!;
  const em = database.em.fork();
  const [record] = await findBound(em, HostRecord, em.createQueryBuilder(HostRecord, 'h').where({ id }).limit(1));
  if (!record) return problemResponse(404, `No host with id ${id}`);
  const history = em
    .createQueryBuilder(ReportRecord, 'r')
    .select(['id', 'receivedAt', 'hardeningIndex'])
    .where({ hostRecord: id })
    .orderBy({ receivedAt: 'desc', id: 'desc' })
    .limit(query['historyLimit'] as number);
  const reports = await findBound(em, ReportRecord, history);
  const detail: HostDetail = {
    ...toHost(record),
    hardeningHistory: reports.map((report) => ({
      reportId: report.id,
      receivedAt: report.receivedAt.toISOString(),
      hardeningIndex: report.hardeningIndex ?? null,
    })),
  };
  return jsonResponse(200, detail);
};

/** A host as the contract shows it. */
function toHost(record: HostRecord): Host {
  return {
    id: record.id,
    keyId: record.key.id,
    hostId: record.hostId,
    hostId2: record.hostId2 ?? null,
    hostname: record.hostname ?? null,
    os: record.osName ?? null,
    lynisVersion: record.lynisVersion ?? null,
    firstSeen: record.firstSeen.toISOString(),
    lastSeen: record.lastSeen.toISOString(),
    reportCount: record.reportCount,
    latestReportId: record.latestReportId ?? null,
    latestHardeningIndex: record.latestHardeningIndex ?? null,
  };
}
