// Digest schedules and issued digests as stored (`digest_schedule`, `digest`), read as the contract shows them.
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { DigestRecord, DigestScheduleRecord } from '../database/entities.js';
import type { ReadRowOf } from '../database/rows.js';
import type { EnrollmentSettings } from '../enrollment/enrollment-settings.js';
import type { Digest, DigestCadence, DigestContent, DigestDeliveryStatus, DigestSchedule, DigestScheduleInput, DigestScope } from '../generated/types.gen.js';
import { isScoped, UNSCOPED, type AccessScope } from '../people/scope.js';
import { boundaryAfter } from './digest-periods.js';

export type ScheduleRow = ReadRowOf<DigestScheduleRecord>;
export type DigestRow = ReadRowOf<DigestRecord>;

/** The page of the printable digest for its id: absolute when the server knows its public address. */
export type DigestLink = (digestId: string) => string;

/** The link when the server does not know its public address: a path under the dashboard. */
export const digestPath: DigestLink = (digestId) => `/dashboard/digests/${digestId}`;

/** The link of a digest: absolute under the dashboard's URL when `--public-host` names the server, else a path. */
export function digestLinkOf(enrollment: Pick<EnrollmentSettings, 'hasPublicHost' | 'dashboardUrl'>, digestId: string): string {
  // With a public host, the request's host name is not asked for.
  return enrollment.hasPublicHost ? `${enrollment.dashboardUrl('')}digests/${digestId}` : digestPath(digestId);
}

const iso = (time: Date | number | string) => new Date(time).toISOString();
const isoOrNull = (time: Date | number | string | null) => (time === null ? null : iso(time));

/** A digest's scope, the fleet's when it names neither a group nor a customer. */
export const scopeOfColumns = (row: { scope_group: string | null; scope_customer: string | null }): DigestScope => ({
  group: row.scope_group,
  customer: row.scope_customer,
});

/** The hosts a digest's scope covers, as the reads of hosts take them. */
export const accessScopeOf = (scope: DigestScope): AccessScope => ({
  groups: scope.group ? [scope.group] : [],
  customers: scope.customer ? [scope.customer] : [],
});

/** How a scope reads in a subject line and a page: `group webservers`, `customer acme`, `the fleet`. */
export function scopeLabel(scope: DigestScope): string {
  if (scope.group) return `group ${scope.group}`;
  if (scope.customer) return `customer ${scope.customer}`;
  return 'the fleet';
}

/**
 * Recipients as `viewer` shows them: addresses are shown to admins only, the others see each one's domain (how many
 * there are, and where mail goes, without whom).
 */
export function recipientsFor(recipients: string[], showAddresses: boolean): string[] {
  return showAddresses ? recipients : recipients.map((address) => `***@${address.slice(address.lastIndexOf('@') + 1)}`);
}

/**
 * Only the schedules and digests an actor's scope covers: a scoped reader sees those of its own groups and
 * customers, never the fleet's (which counts hosts outside its scope).
 */
function limitToActor(query: Knex.QueryBuilder, scope: AccessScope): void {
  if (!isScoped(scope)) return;
  const groups = scope.groups.map((group) => group.toLowerCase());
  query.where((inScope) => {
    inScope.whereIn('scope_customer', scope.customers.length > 0 ? scope.customers : ['\u0001']);
    if (groups.length > 0) inScope.orWhereRaw(`lower(scope_group) in (${groups.map(() => '?').join(', ')})`, groups);
  });
}

function toSchedule(row: ScheduleRow, showAddresses: boolean): DigestSchedule {
  return {
    id: row.id,
    scope: scopeOfColumns(row),
    cadence: row.cadence as DigestCadence,
    recipients: recipientsFor(JSON.parse(row.recipients) as string[], showAddresses),
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
    lastIssuedAt: isoOrNull(row.last_issued_at),
    nextDueAt: iso(row.next_due_at),
  };
}

/** A digest as the contract shows it; its content only when asked for (one digest, not a list). */
export function toDigest(row: DigestRow, link: DigestLink, withContent: boolean): Digest {
  return {
    id: row.id,
    scheduleId: row.schedule_id,
    scope: scopeOfColumns(row),
    cadence: row.cadence as DigestCadence,
    periodStart: iso(row.period_start),
    periodEnd: iso(row.period_end),
    createdAt: iso(row.created_at),
    link: link(row.id),
    delivery: {
      status: row.status as DigestDeliveryStatus,
      attempts: Number(row.attempts),
      lastError: row.last_error,
      nextAttemptAt: isoOrNull(row.next_attempt_at),
      sentAt: isoOrNull(row.sent_at),
    },
    ...(withContent ? { content: JSON.parse(row.content) as DigestContent } : {}),
  };
}

/** Every schedule the actor's scope covers, oldest first. */
export async function listSchedules(database: Database, scope: AccessScope, showAddresses: boolean): Promise<DigestSchedule[]> {
  const query = database.em.getKnex()('digest_schedule').select('*').orderBy(['created_at', 'id']);
  limitToActor(query, scope);
  return ((await query) as ScheduleRow[]).map((row) => toSchedule(row, showAddresses));
}

/** Saves a schedule, next due at the end of the period under way. */
export async function createSchedule(database: Database, input: DigestScheduleInput, createdBy: string | null, now = new Date()): Promise<DigestSchedule> {
  const dialect = sqlDialectOf(database.em);
  const row = {
    id: randomUUID(),
    scope_group: input.scope.group ?? null,
    scope_customer: input.scope.customer ?? null,
    cadence: input.cadence,
    recipients: JSON.stringify(input.recipients),
    created_at: dialect.toDatabaseTime(now),
    created_by: createdBy,
    last_issued_at: null,
    next_due_at: dialect.toDatabaseTime(boundaryAfter(input.cadence, now)),
  };
  await database.em.getKnex()('digest_schedule').insert(row);
  return (await findSchedule(database, row.id, true))!;
}

/** One schedule as stored, when the actor's scope covers it; undefined when there is none. */
export async function scheduleRow(database: Database, scope: AccessScope, id: string): Promise<ScheduleRow | undefined> {
  const query = database.em.getKnex()('digest_schedule').select('*').where('id', id);
  limitToActor(query, scope);
  return (await query.first()) as ScheduleRow | undefined;
}

async function findSchedule(database: Database, id: string, showAddresses: boolean): Promise<DigestSchedule | undefined> {
  const row = await scheduleRow(database, UNSCOPED, id);
  return row && toSchedule(row, showAddresses);
}

/** Deletes a schedule; its digests stay, no longer naming it. Resolves with whether there was one. */
export async function deleteSchedule(database: Database, id: string): Promise<boolean> {
  return database.em.getKnex().transaction(async (trx) => {
    const deleted = await trx('digest_schedule').where('id', id).delete();
    if (deleted > 0) await trx('digest').where('schedule_id', id).update({ schedule_id: null });
    return deleted > 0;
  });
}

/** One page of the digests the actor's scope covers, newest first, without their content. */
export async function listDigests(
  database: Database,
  scope: AccessScope,
  link: DigestLink,
  filter: { status?: DigestDeliveryStatus; limit: number; offset: number },
): Promise<{ items: Digest[]; total: number }> {
  const matching = database.em.getKnex()('digest');
  limitToActor(matching, scope);
  if (filter.status !== undefined) matching.where('status', filter.status);
  const [rows, [{ total }]] = await Promise.all([
    matching
      .clone()
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(filter.limit)
      .offset(filter.offset) as Promise<DigestRow[]>,
    matching.clone().count({ total: '*' }) as unknown as Promise<[{ total: number | string }]>,
  ]);
  return { items: rows.map((row) => toDigest(row, link, false)), total: Number(total) };
}

/** One digest the actor's scope covers, with its content; undefined when there is none. */
export async function findDigest(database: Database, scope: AccessScope, id: string, link: DigestLink): Promise<Digest | undefined> {
  const query = database.em.getKnex()('digest').select('*').where('id', id);
  limitToActor(query, scope);
  const row = (await query.first()) as DigestRow | undefined;
  return row && toDigest(row, link, true);
}

/** Queues a digest's email for a new round of attempts, due now. */
export async function queueAgain(database: Database, id: string, now = new Date()): Promise<void> {
  await database.em
    .getKnex()('digest')
    .where('id', id)
    .update({ status: 'pending', attempts: 0, next_attempt_at: sqlDialectOf(database.em).toDatabaseTime(now), claimed_until: null });
}
