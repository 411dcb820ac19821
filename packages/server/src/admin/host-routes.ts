import type { SqlEntityManager } from '@mikro-orm/knex';
import type { Host, HostDetail, HostIdentityChange, HostPage, HostComplianceState } from '@org/audit-server-core';
import { acceptHostIdentity as acceptIdentity } from '../hosts/host-admission.js';
import { countBound, findBound } from '../database/bound-query.js';
import { sqlDialectOf } from '../database/dialects.js';
import { HostRecord, ReportRecord } from '../database/entities.js';
import type { LabelKind } from '../hosts/host-derivation.js';
import { hostCompliances } from '../policies/policy-results.js';
import type { AdminOperation } from './operation.js';
import { jsonResponse, problemResponse } from './responses.js';

/** The host property each `sort` of the contract orders by. */
const SORT_PROPERTIES = {
  lastSeen: 'lastSeen',
  hostname: 'hostname',
  hardeningIndex: 'latestHardeningIndex',
  warnings: 'latestWarningCount',
} as const satisfies Record<string, keyof HostRecord>;
/** Sorts whose column is never null: ordered plainly, so that the index on it serves either direction. */
const NEVER_NULL = new Set<string>(['lastSeen']);

/**
 * `GET /api/admin/hosts`: one page of hosts, most recently seen first unless `sort` says otherwise, filtered by host
 * name, key, `hostid`, group, tag, OS, a finding of the newest report and last seen. Every value is a bound parameter.
 */
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
  for (const [parameter, kind] of [['group', 'group'], ['tag', 'tag']] as const satisfies [string, LabelKind][]) {
    if (query[parameter] === undefined) continue;
    qb.andWhere('h.id in (select l.host_record_id from host_label l where l.kind = ? and l.value = ?)', [kind, query[parameter] as string]);
  }
  if (query['os'] !== undefined) qb.andWhere({ osName: query['os'] as string });
  if (query['finding'] !== undefined) {
    if (query['findingKind'] === undefined) {
      qb.andWhere('h.id in (select f.host_record_id from host_finding f where f.test_id = ?)', [query['finding'] as string]);
    } else {
      qb.andWhere('h.id in (select f.host_record_id from host_finding f where f.test_id = ? and f.kind = ?)', [query['finding'] as string, query['findingKind'] as string]);
    }
  }
  if (query['seenBefore'] !== undefined) qb.andWhere({ lastSeen: { $lt: new Date(query['seenBefore'] as string) } });
  const sort = (query['sort'] ?? 'lastSeen') as keyof typeof SORT_PROPERTIES;
  const order = (query['order'] ?? 'desc') as 'asc' | 'desc';
  const page = qb
    .clone()
    .orderBy({ [SORT_PROPERTIES[sort]]: NEVER_NULL.has(sort) ? order : `${order} nulls last`, id: 'asc' })
    .limit(limit)
    .offset(offset);
  const [records, total] = await Promise.all([findBound(em, HostRecord, page), countBound(qb)]);
  const result: HostPage = { items: await hostsOf(em, records), total, limit, offset };
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
  const [reports, [host]] = await Promise.all([findBound(em, ReportRecord, history), hostsOf(em, [record])]);
  const detail: HostDetail = {
    ...host!,
    hardeningHistory: reports.map((report) => ({
      reportId: report.id,
      receivedAt: report.receivedAt.toISOString(),
      hardeningIndex: report.hardeningIndex ?? null,
    })),
  };
  return jsonResponse(200, detail);
};

/** `POST /api/admin/hosts/{hostRecordId}/identity/accept`: the host, its flagged `hostid2` change accepted. */
export const acceptHostIdentity: AdminOperation = async ({ params, body, tokenId }, { database, logger }) => {
  const id = params['hostRecordId']!;
  const hostId2 = body['hostId2'] as string | null;
  const outcome = await acceptIdentity(database, id, hostId2);
  if (outcome === 'not-found') return problemResponse(404, `No host with id ${id}`);
  if (outcome === 'conflict') return problemResponse(409, 'The host has no identity change to this hostid2 waiting to be accepted');
  logger.info({ hostRecordId: id, adminTokenId: tokenId }, 'host identity accepted');
  const em = database.em.fork();
  const [record] = await findBound(em, HostRecord, em.createQueryBuilder(HostRecord, 'h').where({ id }).limit(1));
  const [host] = await hostsOf(em, [record!]);
  return jsonResponse(200, host);
};

/** Hosts as the contract shows them, in the order given, with the groups and tags of each (one query for all). */
export async function hostsOf(em: SqlEntityManager, records: HostRecord[]): Promise<Host[]> {
  const labels = new Map<string, { groups: string[]; tags: string[] }>(records.map((record) => [record.id, { groups: [], tags: [] }]));
  if (records.length > 0) {
    const rows = (await em
      .getKnex()('host_label')
      .select('host_record_id', 'kind', 'value')
      .whereIn('host_record_id', records.map((record) => record.id))
      .orderBy(['host_record_id', 'kind', 'position'])) as { host_record_id: string; kind: LabelKind; value: string }[];
    for (const row of rows) {
      const host = labels.get(row.host_record_id);
      if (host) (row.kind === 'group' ? host.groups : host.tags).push(row.value);
    }
  }
  const compliance = records.length > 0 ? await hostCompliances({ em }, records.map((record) => record.id)) : new Map<string, HostComplianceState>();
  return records.map((record) => toHost(record, labels.get(record.id)!, compliance.get(record.id)!));
}

/** A host as the contract shows it. */
function toHost(record: HostRecord, labels: { groups: string[]; tags: string[] }, compliance: HostComplianceState): Host {
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
    latestWarningCount: record.latestWarningCount ?? null,
    latestSuggestionCount: record.latestSuggestionCount ?? null,
    groups: labels.groups,
    tags: labels.tags,
    customerName: record.customerName ?? null,
    hostnameAlias: record.hostnameAlias ?? null,
    compliance,
    identityChange: identityChangeOf(record),
  };
}

/** The host's unaccepted `hostid2` change, as the contract shows it; null when there is none. */
function identityChangeOf(record: HostRecord): HostIdentityChange | null {
  if (!record.identityChangedAt) return null;
  return { previousHostId2: record.identityFrom ?? null, hostId2: record.identityTo ?? null, at: record.identityChangedAt.toISOString(), refused: record.identityRefused };
}
