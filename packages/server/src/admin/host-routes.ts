import { acceptHostIdentity as acceptIdentity } from '../hosts/host-admission.js';
import { hostById, hostDetail, hostPage, type HostQuery } from '../hosts/host-queries.js';
import type { AdminOperation } from './operation.js';
import { jsonResponse, problemResponse } from './responses.js';

/** `GET /api/admin/hosts`: one page of hosts, filtered and sorted as the query says. */
export const listHosts: AdminOperation = async ({ query }, { database }) => jsonResponse(200, await hostPage(database, query as unknown as HostQuery));

/** `GET /api/admin/hosts/{hostRecordId}`: a host, with the hardening index of its newest reports. */
export const getHost: AdminOperation = async ({ params, query }, { database }) => {
  const id = params['hostRecordId']!;
  const detail = await hostDetail(database, id, query['historyLimit'] as number);
  return detail ? jsonResponse(200, detail) : problemResponse(404, `No host with id ${id}`);
};

/** `POST /api/admin/hosts/{hostRecordId}/identity/accept`: the host, its flagged `hostid2` change accepted. */
export const acceptHostIdentity: AdminOperation = async ({ params, body, tokenId }, { database, logger }) => {
  const id = params['hostRecordId']!;
  const hostId2 = body['hostId2'] as string | null;
  const outcome = await acceptIdentity(database, id, hostId2);
  if (outcome === 'not-found') return problemResponse(404, `No host with id ${id}`);
  if (outcome === 'conflict') return problemResponse(409, 'The host has no identity change to this hostid2 waiting to be accepted');
  logger.info({ hostRecordId: id, adminTokenId: tokenId }, 'host identity accepted');
  return jsonResponse(200, await hostById(database, id));
};
