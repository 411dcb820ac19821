// The server's digest work: a pass every minute (and when woken) issues the digests of due schedules and sends the
// pending ones whose attempt is due.
import { describeFailure, type AuditLogger } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { BackgroundPasses, BackgroundWorker } from '../ops/background-passes.js';
import { sendDueDigests } from './digest-delivery.js';
import { issueDueDigests, type DigestIssuing } from './digest-issuing.js';
import type { SendMail } from './mail-transport.js';

/** How {@link DigestWork} runs. */
export interface DigestWorkOptions extends Omit<DigestIssuing, 'mailEnabled'> {
  /** Sends the emails; undefined when the server has no SMTP settings (deliveries are `skipped`). */
  send?: SendMail;
  logger: AuditLogger;
  /** Told when digests were issued: their `digest.ready` events wait in the webhook outbox. */
  onIssued?: () => void;
  intervalMs?: number;
  /** The clock (tests move it). */
  now?: () => Date;
}

export class DigestWork extends BackgroundWorker {
  protected readonly passes: BackgroundPasses;

  constructor(database: Database, options: DigestWorkOptions) {
    super();
    const now = options.now ?? (() => new Date());
    const { send } = options;
    this.passes = new BackgroundPasses(
      async () => {
        const issued = await issueDueDigests(database, { ...options, mailEnabled: send !== undefined }, now());
        if (issued > 0) {
          options.logger.info({ component: 'digests', issued }, 'scheduled digests issued');
          options.onIssued?.();
        }
        if (!send) return;
        while ((await sendDueDigests(database, { send, link: options.link, logger: options.logger }, now())) > 0 && !this.passes.isStopped);
      },
      {
        intervalMs: options.intervalMs ?? 60_000,
        wakeDelayMs: 50,
        onError: (error) => options.logger.error({ component: 'digests', error: describeFailure(error) }, 'digest pass failed; trying again later'),
      },
    );
  }
}
