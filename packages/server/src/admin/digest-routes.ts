import { DomainError, notFound } from '../errors/domain-error.js';
import type { Digest, DigestScheduleInput } from '../generated/types.gen.js';
import { issueNow } from '../digests/digest-issuing.js';
import {
  createSchedule,
  deleteSchedule,
  findDigest,
  listDigests as readDigests,
  listSchedules,
  queueAgain,
  scheduleRow,
  type DigestLink,
} from '../digests/digest-records.js';
import type { Database } from '../database/dialect.js';
import { roleAllows } from '../people/roles.js';
import { actorLabel, actorLogFields } from './actor.js';
import type { AdminActor, AdminHandler, AdminHandlers } from './operation.js';

/** Recipients' addresses are shown to admins only. */
const showsAddresses = (actor: AdminActor) => roleAllows(actor.role, 'admin');

/** `GET /api/admin/digest-schedules`. */
const listDigestSchedules: AdminHandler<'listDigestSchedules'> = async ({ actor }, { database }) => ({
  status: 200,
  body: { items: await listSchedules(database, actor.scope, showsAddresses(actor)) },
});

/** `POST /api/admin/digest-schedules`. */
const createDigestSchedule: AdminHandler<'createDigestSchedule'> = async ({ body, actor, audit }, { database, logger, digests }) => {
  const schedule = await createSchedule(database, checkedSchedule(body), await actorLabel(database, actor), digests.now?.());
  logger.info({ scheduleId: schedule.id, cadence: schedule.cadence, ...actorLogFields(actor) }, 'digest scheduled');
  audit.target = { type: 'digest-schedule', id: schedule.id };
  return { status: 201, body: schedule };
};

/** `DELETE /api/admin/digest-schedules/{scheduleId}`: its digests stay. */
const deleteDigestSchedule: AdminHandler<'deleteDigestSchedule'> = async ({ path, actor }, { database, logger }) => {
  if (!(await deleteSchedule(database, path.scheduleId))) throw notFound('digest schedule', path.scheduleId);
  logger.info({ scheduleId: path.scheduleId, ...actorLogFields(actor) }, 'digest schedule deleted');
  return { status: 204 };
};

/** `POST /api/admin/digest-schedules/{scheduleId}/issue`: the digest over the period ending now, sent as a scheduled one. */
const issueDigest: AdminHandler<'issueDigest'> = async ({ path, actor }, { database, logger, digests, hideLynisFindings }) => {
  const schedule = await scheduleRow(database, actor.scope, path.scheduleId);
  if (!schedule) throw notFound('digest schedule', path.scheduleId);
  const digest = await issueNow(database, schedule, { ...digests, hideLynis: hideLynisFindings }, digests.now?.());
  logger.info({ scheduleId: schedule.id, digestId: digest.id, ...actorLogFields(actor) }, 'digest issued on demand');
  digests.work?.wake();
  return { status: 201, body: digest };
};

/** `GET /api/admin/digests`. */
const listDigests: AdminHandler<'listDigests'> = async ({ query, actor }, { database, digests }) => {
  const { status, limit, offset } = query;
  const page = await readDigests(database, actor.scope, digests.link, { status, limit, offset });
  return { status: 200, body: { ...page, limit, offset } };
};

/** `GET /api/admin/digests/{digestId}`. */
const getDigest: AdminHandler<'getDigest'> = async ({ path, actor }, { database, digests }) => ({
  status: 200,
  body: await existingDigest(database, actor, path.digestId, digests.link),
});

/** `POST /api/admin/digests/{digestId}/resend`: a new round of attempts, due now. */
const resendDigest: AdminHandler<'resendDigest'> = async ({ path, actor }, { database, logger, digests }) => {
  await existingDigest(database, actor, path.digestId, digests.link);
  if (!digests.mailEnabled) throw new DomainError('conflict', 'This server sends no email: start it with --smtp-url and --mail-from');
  await queueAgain(database, path.digestId, digests.now?.());
  logger.info({ digestId: path.digestId, ...actorLogFields(actor) }, 'digest queued to be sent again');
  digests.work?.wake();
  return { status: 200, body: await existingDigest(database, actor, path.digestId, digests.link) };
};

export const digestRoutes = {
  listDigestSchedules,
  createDigestSchedule,
  deleteDigestSchedule,
  issueDigest,
  listDigests,
  getDigest,
  resendDigest,
} satisfies AdminHandlers<
  'listDigestSchedules' | 'createDigestSchedule' | 'deleteDigestSchedule' | 'issueDigest' | 'listDigests' | 'getDigest' | 'resendDigest'
>;

async function existingDigest(database: Database, actor: AdminActor, id: string, link: DigestLink): Promise<Digest> {
  const digest = await findDigest(database, actor.scope, id, link);
  if (!digest) throw notFound('digest', id);
  return digest;
}

/** An address as a digest's recipient takes it: one mailbox, no display name, no spaces. */
const EMAIL = /^[^\s@<>()[\]",;:\\]+@[^\s@<>()[\]",;:\\]+\.[^\s@<>()[\]",;:\\]+$/;

/** A schedule's input checked beyond the contract: a group or a customer (not both, not blank) and plain addresses. */
function checkedSchedule(input: DigestScheduleInput): DigestScheduleInput {
  const group = input.scope.group?.trim() || null;
  const customer = input.scope.customer?.trim() || null;
  if (input.scope.group != null && !group) throw new DomainError('invalid', 'scope.group: must not be blank');
  if (input.scope.customer != null && !customer) throw new DomainError('invalid', 'scope.customer: must not be blank');
  if (group && customer) throw new DomainError('invalid', 'scope: a group or a customer, not both (neither: the fleet)');
  const wrong = input.recipients.find((address) => !EMAIL.test(address));
  if (wrong !== undefined) throw new DomainError('invalid', `recipients: not an email address: ${JSON.stringify(wrong.slice(0, 80))}`);
  return { ...input, scope: { group, customer }, recipients: [...new Set(input.recipients)] };
}
