import { enrollCommand } from '../enrollment/enroll-command.js';
import {
  createEnrollment as storeEnrollment,
  findEnrollmentOrFail,
  listEnrollments as readEnrollments,
  revokeEnrollmentOrFail,
} from '../enrollment/enrollments.js';
import { DomainError } from '../errors/domain-error.js';
import { actorLabel, actorLogFields } from './actor.js';
import type { AdminHandler, AdminHandlers } from './operation.js';

/** `GET /api/admin/enrollments`: every enrollment, newest first; never a secret. */
const listEnrollments: AdminHandler<'listEnrollments'> = async (_input, { database }) => ({ status: 200, body: { items: await readEnrollments(database) } });

/**
 * `POST /api/admin/enrollments`: a new enrollment, its secret and its one-line command, shown this once. The
 * command names the intake by `--public-host`, else by the host name this request was sent to.
 */
const createEnrollment: AdminHandler<'createEnrollment'> = async ({ body, actor, client, audit }, { database, logger, enrollment: settings }) => {
  if (!settings) throw new DomainError('conflict', 'This server does not say where hosts reach its intake: enrollments cannot be made here');
  const requestHost = client.origin ? new URL(client.origin).hostname : '';
  const intake = settings.intakeAddress(requestHost);
  const { id, secret } = await storeEnrollment(database, {
    licenseKeyId: body.licenseKeyId,
    systemGroups: body.systemGroups,
    tags: body.tags,
    customer: body.customer,
    expiresAt: new Date(body.expiresAt),
    maxHosts: body.maxHosts,
    createdBy: await actorLabel(database, actor),
  });
  audit.target = { type: 'enrollment', id };
  logger.info({ enrollmentId: id, licenseKeyId: body.licenseKeyId, ...actorLogFields(actor) }, 'enrollment created');
  return { status: 201, body: { enrollment: await findEnrollmentOrFail(database, id), secret, command: enrollCommand(intake, secret) } };
};

/** `POST /api/admin/enrollments/{enrollmentId}/revoke`: its script is refused from now on; enrolled hosts keep reporting. */
const revokeEnrollment: AdminHandler<'revokeEnrollment'> = async ({ path, actor, audit }, { database, logger }) => {
  audit.target = { type: 'enrollment', id: path.enrollmentId };
  await revokeEnrollmentOrFail(database, path.enrollmentId);
  logger.info({ enrollmentId: path.enrollmentId, ...actorLogFields(actor) }, 'enrollment revoked');
  return { status: 204 };
};

export const enrollmentRoutes = { listEnrollments, createEnrollment, revokeEnrollment } satisfies AdminHandlers<
  'listEnrollments' | 'createEnrollment' | 'revokeEnrollment'
>;
