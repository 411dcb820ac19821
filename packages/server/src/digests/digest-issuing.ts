// Issuing digests: the figures read and frozen, the digest written with its delivery's first state and the
// `digest.ready` event (in one transaction), for schedules that are due or on demand.
import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf, sqlDialectOfKnex } from '../database/dialects.js';
import type { Digest, DigestCadence } from '../generated/types.gen.js';
import { writeEvents } from '../webhooks/outbox.js';
import { digestContent } from './digest-content.js';
import { boundaryAfter, periodEndingAt, periodEndingBy, type DigestPeriod } from './digest-periods.js';
import { scopeOfColumns, toDigest, type DigestLink, type DigestRow, type ScheduleRow } from './digest-records.js';

/** What issuing needs besides the database. */
export interface DigestIssuing {
  link: DigestLink;
  /** Whether the server sends mail (`--smtp-url`): without, a digest's delivery is `skipped` from the start. */
  mailEnabled: boolean;
  /** Leave out Lynis' own findings (`--lynis-own-findings hide`). */
  hideLynis: boolean;
}

/** What the admin API knows of digests: their link, whether the server sends mail, and the work that sends them (woken after an issue or a resend). */
export type DigestServerSettings = Omit<DigestIssuing, 'hideLynis'> & { work?: { wake(): void }; now?: () => Date };

/** Issues a schedule's digest at once, over the cadence's period ending `now` (the scheduled one still comes on time). */
export async function issueNow(database: Database, schedule: ScheduleRow, issuing: DigestIssuing, now = new Date()): Promise<Digest> {
  const period = periodEndingAt(schedule.cadence as DigestCadence, now);
  const content = JSON.stringify(await digestContent(database, scopeOfColumns(schedule), period, { hideLynis: issuing.hideLynis, now }));
  const row = await sqlTransaction(database, async (trx) => {
    const digest = await writeDigest(trx, schedule, period, content, issuing, now);
    await trx('digest_schedule')
      .where('id', schedule.id)
      .update({ last_issued_at: sqlDialectOf(database.em).toDatabaseTime(now) });
    return digest;
  });
  return toDigest(row, issuing.link, true);
}

/**
 * Issues the digests of the schedules due by `now`, each for the complete period that ended last (one digest, however
 * long the server was down), and moves them to their next period. Each schedule is locked and checked again in the
 * transaction that issues its digest, so that servers sharing a database issue it once. Resolves with how many it issued.
 */
export async function issueDueDigests(database: Database, issuing: DigestIssuing, now = new Date()): Promise<number> {
  const knex = database.em.getKnex();
  const dialect = sqlDialectOf(database.em);
  const time = dialect.toDatabaseTime(now);
  const due = (query: Knex | Knex.Transaction) => query('digest_schedule').select('*').where('next_due_at', '<=', time);
  const schedules = (await due(knex).orderBy(['next_due_at', 'id'])) as ScheduleRow[];
  let issued = 0;
  for (const schedule of schedules) {
    const cadence = schedule.cadence as DigestCadence;
    const period = periodEndingBy(cadence, now);
    const content = JSON.stringify(await digestContent(database, scopeOfColumns(schedule), period, { hideLynis: issuing.hideLynis, now }));
    issued += await sqlTransaction(database, async (trx) => {
      const [still] = (await dialect.lockRows(due(trx).where('id', schedule.id))) as ScheduleRow[];
      if (!still) return 0;
      await writeDigest(trx, still, period, content, issuing, now);
      await trx('digest_schedule')
        .where('id', schedule.id)
        .update({ last_issued_at: time, next_due_at: dialect.toDatabaseTime(boundaryAfter(cadence, now)) });
      return 1;
    });
  }
  return issued;
}

/** A write transaction: on SQLite, the write lock taken first. */
function sqlTransaction<T>(database: Database, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return database.em.getKnex().transaction(async (trx) => {
    await sqlDialectOf(database.em).startWriting(trx);
    return work(trx);
  });
}

/** Writes a digest, its delivery pending (due now) or skipped, and its `digest.ready` event. */
async function writeDigest(
  trx: Knex.Transaction,
  schedule: ScheduleRow,
  period: DigestPeriod,
  content: string,
  issuing: DigestIssuing,
  now: Date,
): Promise<DigestRow> {
  const dialect = sqlDialectOfKnex(trx);
  const time = dialect.toDatabaseTime(now);
  const row = {
    id: randomUUID(),
    schedule_id: schedule.id,
    scope_group: schedule.scope_group,
    scope_customer: schedule.scope_customer,
    cadence: schedule.cadence,
    period_start: dialect.toDatabaseTime(period.start),
    period_end: dialect.toDatabaseTime(period.end),
    created_at: time,
    recipients: schedule.recipients,
    content,
    status: issuing.mailEnabled ? 'pending' : 'skipped',
    attempts: 0,
    last_error: null,
    next_attempt_at: issuing.mailEnabled ? time : null,
    claimed_until: null,
    sent_at: null,
  };
  await trx('digest').insert(row);
  const data = {
    digestId: row.id,
    scheduleId: schedule.id,
    scope: scopeOfColumns(row),
    cadence: row.cadence,
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
    link: issuing.link(row.id),
  };
  await writeEvents(trx, [{ type: 'digest.ready', data }], time);
  return (await trx('digest').select('*').where('id', row.id).first()) as DigestRow;
}
