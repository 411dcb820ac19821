import { DomainError, notFound } from '../errors/domain-error.js';
import { changeStates, deleteHostRecord, type StateAction } from '../hosts/host-lifecycle.js';
import { mergeHostRecords } from '../hosts/host-merge.js';
import { hostById } from '../hosts/host-queries.js';
import { selectHosts } from '../hosts/host-selection.js';
import { actorLogFields } from './actor.js';
import type { AdminContext, AdminHandler, AdminHandlers, AdminInput } from './operation.js';

/** Most hosts one bulk change of state takes, as many as a bulk waiver. */
const MAX_BULK_HOSTS = 10_000;

/** `POST /api/admin/hosts/{hostRecordId}/decommission` and `…/reactivate`: one host's state changed, answered with the host. */
function stateRoute(action: StateAction): AdminHandler<'decommissionHost' | 'reactivateHost'> {
  return async ({ path, actor, audit }: AdminInput<'decommissionHost'>, { database, logger, lifecycle, policyEvaluator }: AdminContext) => {
    const before = await hostById(database, actor.scope, path.hostRecordId);
    if (!before) throw notFound('host', path.hostRecordId);
    const changed = await changeStates(database, [before.id], action, lifecycle);
    const host = (await hostById(database, actor.scope, before.id))!;
    if (changed.length > 0) {
      audit.changes = { state: { before: before.state, after: host.state } };
      logger.info({ hostRecordId: host.id, state: host.state, ...actorLogFields(actor) }, `host ${action}d`);
      if (action === 'reactivate') policyEvaluator?.wake();
    }
    return { status: 200, body: host };
  };
}

/** `POST /api/admin/hosts/bulk-state`: hosts selected by id or by the list's filters, decommissioned or reactivated at once. */
const changeHostStates: AdminHandler<'changeHostStates'> = async ({ body, actor, audit }, { database, logger, lifecycle, policyEvaluator }) => {
  const ids = await selectHosts(database, actor.scope, body.hosts, {
    maxHosts: MAX_BULK_HOSTS,
    tooMany: 'narrow the filters, or change them in several steps',
  });
  const changed = await changeStates(database, ids, body.action, lifecycle);
  audit.changes = { action: body.action, hosts: ids.length, changed: changed.length };
  logger.info({ action: body.action, hosts: ids.length, changed: changed.length, ...actorLogFields(actor) }, 'host states changed');
  if (body.action === 'reactivate' && changed.length > 0) policyEvaluator?.wake();
  return { status: 200, body: { changed: changed.length, hosts: ids.length } };
};

/** `DELETE /api/admin/hosts/{hostRecordId}`: the host and all its reports purged; the audit trail keeps who and when. */
const deleteHost: AdminHandler<'deleteHost'> = async ({ path, actor, audit }, { database, logger }) => {
  const host = await hostById(database, actor.scope, path.hostRecordId);
  if (!host) throw notFound('host', path.hostRecordId);
  if (!(await deleteHostRecord(database, host.id))) throw notFound('host', path.hostRecordId);
  // What the entry keeps of a host that is gone: enough to say which it was.
  audit.changes = { hostId: host.hostId, hostname: host.hostname, keyId: host.keyId, reports: host.reportCount };
  logger.info({ hostRecordId: host.id, reports: host.reportCount, ...actorLogFields(actor) }, 'host deleted');
  return { status: 204 };
};

/**
 * `POST /api/admin/hosts/{hostRecordId}/merge`: the body's host merged into the path's (both in the actor's scope),
 * answered with the surviving host; the policy evaluator then evaluates it again.
 */
const mergeHosts: AdminHandler<'mergeHosts'> = async ({ path, body, actor, audit }, { database, logger, policyEvaluator }) => {
  if (path.hostRecordId === body.hostRecordId) throw new DomainError('invalid', 'A host cannot be merged into itself: name another host');
  const survivor = await hostById(database, actor.scope, path.hostRecordId);
  if (!survivor) throw notFound('host', path.hostRecordId);
  const other = await hostById(database, actor.scope, body.hostRecordId);
  if (!other) throw notFound('host', body.hostRecordId);
  const merge = await mergeHostRecords(database, survivor.id, other.id, { automatic: false });
  if (!merge) throw notFound('host', survivor.id);
  audit.changes = { merged: { id: other.id, hostId: other.hostId, hostname: other.hostname, reportsMoved: merge.reportsMoved } };
  logger.info({ hostRecordId: survivor.id, mergedHostRecordId: other.id, reportsMoved: merge.reportsMoved, ...actorLogFields(actor) }, 'hosts merged');
  policyEvaluator?.wake();
  return { status: 200, body: (await hostById(database, actor.scope, survivor.id))! };
};

export const hostLifecycleRoutes = {
  decommissionHost: stateRoute('decommission'),
  reactivateHost: stateRoute('reactivate'),
  changeHostStates,
  deleteHost,
  mergeHosts,
} satisfies AdminHandlers<'decommissionHost' | 'reactivateHost' | 'changeHostStates' | 'deleteHost' | 'mergeHosts'>;
