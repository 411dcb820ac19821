import { DomainError } from '../errors/domain-error.js';
import { changeFinding } from '../findings/finding-changes.js';
import { hostFindings, trackedFindingPage } from '../findings/finding-queries.js';
import { currentTimeToFix } from '../findings/time-to-fix-snapshot.js';
import { fieldChanges } from '../audit/audit-changes.js';
import { actorLabel, actorLogFields } from './actor.js';
import type { AdminActor, AdminHandler, AdminHandlers } from './operation.js';

/** `GET /api/admin/hosts/{hostRecordId}/findings`: a host of the actor's scope, else 404. */
const listHostFindings: AdminHandler<'listHostFindings'> = async ({ path, query, actor }, { database }) => ({
  status: 200,
  body: { items: await hostFindings(database, actor.scope, path.hostRecordId, query.state) },
});

/** `GET /api/admin/findings/tracked`: `owner=me` is the signed-in person (a token is none: 400). */
const listTrackedFindings: AdminHandler<'listTrackedFindings'> = async ({ query, actor }, { database, hideLynisFindings }) => {
  const page = await trackedFindingPage(database, actor.scope, {
    states: query.state,
    ownerUserId: query.owner === undefined ? undefined : ownerOf(query.owner, actor),
    group: query.group,
    kind: query.kind,
    testId: query.testId,
    minAgeDays: query.minAgeDays,
    hideLynis: hideLynisFindings,
    limit: query.limit,
    offset: query.offset,
  });
  return { status: 200, body: { ...page, limit: query.limit, offset: query.offset } };
};

/** The owner filter as a person's id: `me` resolved. */
function ownerOf(owner: string, actor: AdminActor): string {
  if (owner === 'me') {
    if (actor.kind !== 'user') throw new DomainError('invalid', 'owner=me names the signed-in person; a token has no findings of its own: give a user id');
    return actor.user.id;
  }
  return owner;
}

/** `PATCH /api/admin/findings/{findingId}`: acknowledged, reassigned, accepted or reopened, recorded in the audit trail. */
const updateFinding: AdminHandler<'updateFinding'> = async ({ path, body, actor, audit }, { database, logger, findingAcceptance, webhookDispatcher }) => {
  const requester = { userId: actor.kind === 'user' ? actor.user.id : null, label: await actorLabel(database, actor), role: actor.role, scope: actor.scope };
  const { before, after } = await changeFinding(database, path.findingId, body, requester, findingAcceptance);
  audit.changes = fieldChanges(before, after, ['state', 'ownerUserId', 'dueAt', 'acceptance']);
  logger.info({ findingId: after.id, hostRecordId: after.hostRecordId, state: after.state, ...actorLogFields(actor) }, 'finding changed');
  if (after.state === 'accepted') webhookDispatcher?.wake();
  return { status: 200, body: after };
};

/**
 * `GET /api/admin/findings/time-to-fix`: the window defaults to the last 90 days (the fleet's read as kept, up to 10
 * minutes old, when it is slow to compute); `from` after `to` is 400.
 */
const getTimeToFix: AdminHandler<'getTimeToFix'> = async ({ query, actor }, { database, hideLynisFindings }) => ({
  status: 200,
  body: await currentTimeToFix(database, actor.scope, { from: query.from, to: query.to, hideLynis: hideLynisFindings }),
});

export const findingRoutes = {
  listHostFindings,
  listTrackedFindings,
  updateFinding,
  getTimeToFix,
} satisfies AdminHandlers<'listHostFindings' | 'listTrackedFindings' | 'updateFinding' | 'getTimeToFix'>;
