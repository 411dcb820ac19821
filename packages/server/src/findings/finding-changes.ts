// What people do with a finding: acknowledge it (take ownership), reassign it, accept its risk, or reopen it. Each
// change is made on the locked row, with a transition for every change of state and the `finding.accepted` event.
import type { Knex } from '@mikro-orm/knex';
import type { Database, DatabaseTime } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { isRecordId } from '../database/entities.js';
import { DomainError, notFound } from '../errors/domain-error.js';
import type { FindingUpdate } from '../generated/types.gen.js';
import { hostInScope } from '../hosts/host-scope.js';
import { roleAllows, type AdminRole } from '../people/roles.js';
import type { AccessScope } from '../people/scope.js';
import { writeFindingEvents } from './finding-events.js';
import { readTrackedFindings, writeTransitions, type FindingRow, type FindingState, type TrackedFinding } from './finding-records.js';
import type { FindingAcceptanceSettings } from './finding-settings.js';

/** Who asks for a change: the person's id (none for a token), its label as kept with the change, role and scope. */
export interface FindingRequester {
  userId: string | null;
  label: string | null;
  role: AdminRole;
  scope: AccessScope;
}

type LockedFinding = Pick<FindingRow, 'id' | 'host_record_id' | 'state' | 'owner_user_id'>;
type FindingColumns = Partial<Omit<FindingRow, 'id' | 'host_record_id'>>;

/** A change worked out from the request and the finding as it is: the columns to write and the state it moves to. */
interface PlannedChange {
  columns: FindingColumns;
  to: FindingState | undefined;
  reason: string | null;
}

const NO_ACCEPTANCE = { accept_reason: null, accept_requested_by: null, accept_approver_id: null, accept_expires_at: null } as const;

/**
 * Changes the finding `id` as `update` asks, in one transaction that locks it; resolves with the finding before and
 * after. A finding of a host out of the requester's scope is not found; a resolved one cannot change (conflict).
 */
export async function changeFinding(
  database: Database,
  id: string,
  update: FindingUpdate,
  requester: FindingRequester,
  settings: FindingAcceptanceSettings,
  now: Date = new Date(),
): Promise<{ before: TrackedFinding; after: TrackedFinding }> {
  if (!isRecordId(id)) throw notFound('finding', id);
  checkShape(update, requester, settings, now);
  const dialect = sqlDialectOf(database.em);
  const time = dialect.toDatabaseTime(now);
  return database.em.getKnex().transaction(async (trx) => {
    await dialect.startWriting(trx);
    const [finding] = (await dialect.lockRows(trx('finding').select('id', 'host_record_id', 'state', 'owner_user_id').where('id', id))) as LockedFinding[];
    if (!finding || !(await hostInScope(trx, requester.scope, finding.host_record_id))) throw notFound('finding', id);
    const [before] = await readTrackedFindings(trx, [id]);
    const change = plannedChange(finding, update, requester, dialect.toDatabaseTime, now);
    await checkPeople(trx, update, change.columns);
    await trx('finding').where('id', id).update(change.columns);
    if (change.to) {
      await writeTransitions(trx, [
        { findingId: id, from: finding.state as FindingState, to: change.to, at: time, actor: requester.label, reason: change.reason },
      ]);
    }
    if (change.to === 'accepted') await writeFindingEvents(trx, [{ type: 'finding.accepted', ids: [id] }], now);
    const [after] = await readTrackedFindings(trx, [id]);
    return { before: before!, after: after! };
  });
}

/** What the request must hold whatever the finding's state: the fields of its kind of change, the settings' rules. */
function checkShape(update: FindingUpdate, requester: FindingRequester, settings: FindingAcceptanceSettings, now: Date): void {
  const acceptance = update.reason !== undefined || update.expiresAt !== undefined || update.approverUserId !== undefined;
  if (update.state !== 'accepted' && acceptance) throw invalid('reason, expiresAt and approverUserId go with state accepted');
  if (update.state === undefined && update.ownerUserId === undefined && update.dueAt === undefined) {
    throw invalid('Give a state (acknowledged, accepted or open), or ownerUserId or dueAt to reassign the finding');
  }
  if (update.state === 'acknowledged' && update.ownerUserId === undefined && requester.userId === null) {
    throw invalid('A token is no person to own a finding: name its owner in ownerUserId');
  }
  if (update.state === 'acknowledged' && update.ownerUserId === null) throw invalid('An acknowledged finding has an owner: give ownerUserId');
  if (update.state !== 'accepted') return;
  if (!roleAllows(requester.role, settings.acceptRole)) {
    throw new DomainError(
      'forbidden',
      `Accepting a finding's risk requires the ${settings.acceptRole} role on this server (--finding-accept-role); you have the ${requester.role} role`,
    );
  }
  if (update.reason === undefined || update.expiresAt === undefined || update.approverUserId === undefined) {
    throw invalid('Accepting a finding needs reason, expiresAt and approverUserId');
  }
  if (new Date(update.expiresAt).getTime() <= now.getTime()) throw invalid('expiresAt must be in the future');
  if (settings.approval === 'distinct' && update.approverUserId === requester.userId) {
    throw invalid('The approver must be another person than the one asking (--finding-approval distinct)');
  }
}

/** The columns and state the request gives the finding as it is. */
function plannedChange(
  finding: LockedFinding,
  update: FindingUpdate,
  requester: FindingRequester,
  toTime: (time: Date) => DatabaseTime,
  now: Date,
): PlannedChange {
  const state = finding.state as FindingState;
  if (state === 'resolved') throw new DomainError('conflict', 'A resolved finding cannot change: it reopens, as regressed, when a report has it again');
  const columns: FindingColumns = {};
  if (update.ownerUserId !== undefined) columns.owner_user_id = update.ownerUserId;
  if (update.dueAt !== undefined) columns.due_at = update.dueAt === null ? null : toTime(new Date(update.dueAt));
  const moved = (to: FindingState, extra: FindingColumns, reason: string | null = null): PlannedChange => ({
    columns: { ...columns, ...extra, state: to, state_since: toTime(now) },
    to,
    reason,
  });
  switch (update.state) {
    case undefined:
      return { columns, to: undefined, reason: null };
    case 'acknowledged':
      if (state === 'acknowledged')
        return { columns: { ...columns, owner_user_id: columns.owner_user_id ?? finding.owner_user_id ?? requester.userId }, to: undefined, reason: null };
      return moved('acknowledged', { ...NO_ACCEPTANCE, owner_user_id: columns.owner_user_id ?? requester.userId });
    case 'accepted':
      return moved(
        'accepted',
        {
          accept_reason: update.reason!,
          accept_requested_by: requester.label,
          accept_approver_id: update.approverUserId!,
          accept_expires_at: toTime(new Date(update.expiresAt!)),
        },
        update.reason,
      );
    case 'open':
      if (state !== 'acknowledged' && state !== 'accepted')
        throw new DomainError('conflict', `Only an acknowledged or accepted finding reopens; this one is ${state}`);
      return moved('open', NO_ACCEPTANCE);
  }
}

/** The owner and approver the change names are existing people who may sign in. */
async function checkPeople(knex: Knex, update: FindingUpdate, columns: FindingColumns): Promise<void> {
  const named: [string, string | null | undefined][] = [
    ['ownerUserId', columns.owner_user_id],
    ['approverUserId', update.approverUserId],
  ];
  for (const [field, userId] of named) {
    if (userId == null) continue;
    const [user] = (await knex('app_user').select('disabled_at').where('id', userId)) as { disabled_at: DatabaseTime | null }[];
    if (!user) throw invalid(`${field}: no person with id ${userId}`);
    if (user.disabled_at !== null) throw invalid(`${field}: the account ${userId} is disabled`);
  }
}

const invalid = (detail: string) => new DomainError('invalid', detail);
