import type { Knex } from '@mikro-orm/knex';
import { sqlDialectOfKnex } from '../database/dialects.js';
import type { WebhookEventType } from '../generated/types.gen.js';
import { writeEvents } from '../webhooks/outbox.js';
import { wantedEventTypes } from '../webhooks/webhook-records.js';
import { readTrackedFindings } from './finding-records.js';

/** The findings that made one kind of event. */
export interface FindingEvents {
  type: Extract<WebhookEventType, `finding.${string}`>;
  ids: readonly string[];
}

/**
 * Writes one event per finding (`data`: the finding as changed, a `TrackedFinding`) in the caller's transaction,
 * after the changes. Findings are read for them only when a subscription wants their kind of event: a fleet with
 * none pays one small query.
 */
export async function writeFindingEvents(trx: Knex.Transaction, batches: FindingEvents[], now: Date = new Date()): Promise<void> {
  const pending = batches.filter((batch) => batch.ids.length > 0);
  if (pending.length === 0) return;
  const wanted = await wantedEventTypes(trx);
  const told = pending.filter((batch) => wanted.has(batch.type));
  if (told.length === 0) return;
  const findings = new Map((await readTrackedFindings(trx, [...new Set(told.flatMap((batch) => batch.ids))])).map((finding) => [finding.id, finding]));
  const events = told.flatMap((batch) => batch.ids.flatMap((id) => (findings.has(id) ? [{ type: batch.type, data: { ...findings.get(id)! } }] : [])));
  await writeEvents(trx, events, sqlDialectOfKnex(trx).toDatabaseTime(now));
}
