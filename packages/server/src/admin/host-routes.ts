import { notFound } from '../errors/domain-error.js';
import { acceptHostIdentity as acceptIdentity } from '../hosts/host-admission.js';
import { hostFacets } from '../hosts/host-facets.js';
import { hostById, hostDetail, hostPage } from '../hosts/host-queries.js';
import { hostPageAsOf, refuseCurrentOnlyFilters } from '../hosts/hosts-as-of.js';
import { asOfMoment } from './as-of.js';
import { actorLogFields } from './actor.js';
import type { AdminHandler, AdminHandlers } from './operation.js';

/** `GET /api/admin/hosts`: one page of hosts, filtered and sorted as the query says, now or as of `at`. */
const listHosts: AdminHandler<'listHosts'> = async ({ query: { at, ...query }, actor }, { database }) => {
  const moment = asOfMoment(at);
  if (!moment) return { status: 200, body: await hostPage(database, actor.scope, query) };
  refuseCurrentOnlyFilters(query);
  return { status: 200, body: await hostPageAsOf(database, actor.scope, query, moment) };
};

/** `GET /api/admin/hosts/{hostRecordId}`: a host, with the hardening index of its newest reports. */
const getHost: AdminHandler<'getHost'> = async ({ path, query, actor }, { database }) => {
  const detail = await hostDetail(database, actor.scope, path.hostRecordId, query.historyLimit);
  if (!detail) throw notFound('host', path.hostRecordId);
  return { status: 200, body: detail };
};

/** `POST /api/admin/hosts/{hostRecordId}/identity/accept`: the host, its flagged `hostid2` change accepted. */
const acceptHostIdentity: AdminHandler<'acceptHostIdentity'> = async ({ path, body, actor, audit }, { database, logger }) => {
  const id = path.hostRecordId;
  const before = await hostById(database, actor.scope, id);
  if (!before) throw notFound('host', id);
  await acceptIdentity(database, id, body.hostId2);
  audit.changes = { hostId2: { before: before.hostId2, after: body.hostId2 } };
  logger.info({ hostRecordId: id, ...actorLogFields(actor) }, 'host identity accepted');
  const host = await hostById(database, actor.scope, id);
  if (!host) throw notFound('host', id);
  return { status: 200, body: host };
};

/** `GET /api/admin/facets`: the known values of the host filters, with their host counts. */
const listFacets: AdminHandler<'listFacets'> = async ({ query, actor }, { database }) => ({
  status: 200,
  body: await hostFacets(database, actor.scope, query),
});

export const hostRoutes = { listHosts, getHost, acceptHostIdentity, listFacets } satisfies AdminHandlers<
  'listHosts' | 'getHost' | 'acceptHostIdentity' | 'listFacets'
>;
