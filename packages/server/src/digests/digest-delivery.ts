// Sending issued digests by email: each pending digest that is due is claimed (so that servers sharing a database
// send it once), sent, and marked `sent`; a failed attempt is retried after 1 minute, 5 minutes, 30 minutes and
// 2 hours, then the digest is `failed`, its last error kept and logged. None is dropped silently.
import type { AuditLogger } from '@org/audit-server-core';
import type { Knex } from '@mikro-orm/knex';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import type { DigestContent } from '../generated/types.gen.js';
import { digestMail } from './digest-mail.js';
import { toDigest, type DigestLink, type DigestRow } from './digest-records.js';
import type { SendMail } from './mail-transport.js';

/** The waits after the first, second, third and fourth failed attempts; the fifth failure is final. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** How long a claim holds: longer than an attempt can take (the transport gives up after 30 s without an answer). */
const CLAIM_MS = 5 * 60_000;
const BATCH = 20;
const MAX_ERROR = 500;

/** What sending needs. */
export interface DigestSending {
  send: SendMail;
  link: DigestLink;
  logger: AuditLogger;
}

/** Claims the digests due by `now` and sends each once; resolves with how many it attempted. */
export async function sendDueDigests(database: Database, sending: DigestSending, now = new Date()): Promise<number> {
  const dialect = sqlDialectOf(database.em);
  const time = dialect.toDatabaseTime(now);
  const due = (knex: Knex) =>
    knex('digest')
      .where('status', 'pending')
      .andWhere('next_attempt_at', '<=', time)
      .andWhere((free) => {
        free.whereNull('claimed_until').orWhere('claimed_until', '<', time);
      });
  // Looked for outside a transaction first: most passes find nothing.
  if (!(await due(database.em.getKnex()).first('id'))) return 0;
  const claimed = await database.em.getKnex().transaction(async (trx) => {
    await dialect.startWriting(trx);
    const rows = (await dialect.lockSkippingLocked(due(trx).select('*').orderBy(['next_attempt_at', 'id']).limit(BATCH))) as DigestRow[];
    if (rows.length > 0) {
      await trx('digest')
        .whereIn(
          'id',
          rows.map((row) => row.id),
        )
        .update({ claimed_until: dialect.toDatabaseTime(new Date(now.getTime() + CLAIM_MS)) });
    }
    return rows;
  });
  for (const row of claimed) await attempt(database, row, sending, now);
  return claimed.length;
}

/** One attempt at one digest's email, and its outcome written. */
async function attempt(database: Database, row: DigestRow, sending: DigestSending, now: Date): Promise<void> {
  const dialect = sqlDialectOf(database.em);
  const digest = toDigest(row, sending.link, true);
  let error: string | null = null;
  try {
    await sending.send({ to: JSON.parse(row.recipients) as string[], ...digestMail({ ...digest, content: digest.content as DigestContent }) });
  } catch (caught) {
    error = (caught instanceof Error ? caught.message : String(caught)).slice(0, MAX_ERROR);
  }
  const attempts = Number(row.attempts) + 1;
  const outcome =
    error === null
      ? { status: 'sent', sent_at: dialect.toDatabaseTime(now), next_attempt_at: null, last_error: null }
      : attempts >= MAX_ATTEMPTS
        ? { status: 'failed', next_attempt_at: null, last_error: error }
        : { status: 'pending', next_attempt_at: dialect.toDatabaseTime(new Date(now.getTime() + RETRY_DELAYS_MS[attempts - 1]!)), last_error: error };
  const fields = { component: 'digests', digestId: row.id, attempts };
  if (error === null) sending.logger.info(fields, 'digest sent');
  else if (outcome.status === 'failed') sending.logger.error({ ...fields, error }, 'digest email failed for good; resend it once the SMTP server works');
  else sending.logger.warn({ ...fields, error }, 'digest email failed; trying again later');
  await database.em
    .getKnex()('digest')
    .where('id', row.id)
    .update({ ...outcome, attempts, claimed_until: null });
}
