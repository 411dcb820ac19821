import type { Logger } from 'pino';
import { AuditRetention } from '../audit/audit-retention.js';
import { ComplianceSnapshots } from '../compliance/compliance-snapshots.js';
import type { ServerConfig } from '../config.js';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { FindingLifecycleWork } from '../findings/finding-expiry.js';
import { TimeToFixSnapshots } from '../findings/time-to-fix-snapshot.js';
import { HostLifecycleSweep } from '../hosts/host-lifecycle-sweep.js';
import { lifecycleSettings } from '../hosts/lifecycle-settings.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { RejectionLog } from '../refusals/rejection-log.js';
import { ReportCompactor } from '../reports/report-compaction.js';
import { schedulePruning, type PruneSchedule } from '../reports/retention.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { DigestWork } from '../digests/digest-work.js';
import { digestPath, type DigestLink } from '../digests/digest-records.js';
import { smtpSender } from '../digests/mail-transport.js';
import { writeRefusedUploadEvents } from '../webhooks/refused-uploads.js';

/** The server's work besides answering requests. */
export interface BackgroundWork {
  /** Retention's schedule; undefined when no rule is set. */
  pruning: PruneSchedule | undefined;
  /** Refused requests, counted in memory and written in batches. */
  rejections: RejectionLog;
  webhookDispatcher: WebhookDispatcher;
  policyEvaluator: PolicyEvaluator;
  /** Not started here: the caller starts it once `isBusy` can be asked. */
  compactor: ReportCompactor;
  /** Deletes the audit trail's entries older than `--audit-retention-days`. */
  auditRetention: AuditRetention;
  /** Marks hosts stale and decommissions expired ones (`--stale-days` and the rest). */
  hostLifecycle: HostLifecycleSweep;
  /** Reopens findings whose accepted risk expired; adopts the findings held before lifecycles were kept. */
  findingLifecycle: FindingLifecycleWork;
  /** Takes the daily compliance snapshots of the days over, and today's provisional one every 5 minutes. */
  complianceSnapshots: ComplianceSnapshots;
  /** Takes the default time-to-fix answer (the fleet's last 90 days) every 5 minutes. */
  timeToFixSnapshots: TimeToFixSnapshots;
  /** Issues scheduled digests and sends them. Not started here: the caller starts it once the digests' link works. */
  digests: DigestWork;
}

/**
 * Starts retention, the rejection log, webhook delivery, policy evaluation and the host and finding lifecycles, and builds the report compactor,
 * which yields while `isBusy` (uploads in flight).
 */
export function startBackgroundWork(
  database: Database,
  config: ServerConfig,
  logger: Logger,
  isBusy: () => boolean,
  digestLink: DigestLink = digestPath,
): BackgroundWork {
  const pruning = schedulePruning(
    database,
    { keepLast: config.retentionKeepLast, maxAgeDays: config.retentionMaxAgeDays },
    config.pruneIntervalMinutes,
    logger,
  );
  const rejections = new RejectionLog(database, logger, {
    flushIntervalMs: config.rejectionsFlushMs,
    keepDays: config.rejectionsKeepDays,
    onWrite: (trx, groups, now) => writeRefusedUploadEvents(trx, groups, now, sqlDialectOf(database.em).toDatabaseTime),
  }).start();
  const webhookDispatcher = new WebhookDispatcher(database, { logger, allowPrivate: config.webhookAllowPrivate }).start();
  const policyEvaluator = new PolicyEvaluator(database, { logger, onEvents: () => webhookDispatcher.wake() }).start();
  const compactor = new ReportCompactor(database, { logger, isBusy });
  const auditRetention = new AuditRetention(database, config.auditRetentionDays, logger).start();
  const hostLifecycle = new HostLifecycleSweep(database, lifecycleSettings(config), logger, { onChanged: () => webhookDispatcher.wake() }).start();
  const findingLifecycle = new FindingLifecycleWork(database, logger, { onChanged: () => webhookDispatcher.wake() }).start();
  const complianceSnapshots = new ComplianceSnapshots(database, logger).start();
  const timeToFixSnapshots = new TimeToFixSnapshots(database, config.lynisOwnFindings === 'hide', logger).start();
  const digests = new DigestWork(database, {
    link: digestLink,
    send: config.smtpUrl && config.mailFrom ? smtpSender({ smtpUrl: config.smtpUrl, from: config.mailFrom }) : undefined,
    hideLynis: config.lynisOwnFindings === 'hide',
    logger,
    onIssued: () => webhookDispatcher.wake(),
  });
  return {
    pruning,
    rejections,
    webhookDispatcher,
    policyEvaluator,
    compactor,
    auditRetention,
    hostLifecycle,
    findingLifecycle,
    complianceSnapshots,
    timeToFixSnapshots,
    digests,
  };
}

/** Wakes what follows a committed upload: policy evaluation, webhook delivery and compaction. */
export function wakeAfterCommit(work: BackgroundWork): void {
  work.policyEvaluator.wake();
  work.webhookDispatcher.wake();
  work.compactor.wake();
}

/** Stops the background work, each part waiting for its pass under way; the rejection log writes the counts it holds. */
export async function stopBackgroundWork(work: BackgroundWork): Promise<void> {
  await work.pruning?.stop();
  await work.policyEvaluator.stop();
  await work.webhookDispatcher.stop();
  await work.compactor.stop();
  await work.auditRetention.stop();
  await work.hostLifecycle.stop();
  await work.findingLifecycle.stop();
  await work.complianceSnapshots.stop();
  await work.timeToFixSnapshots.stop();
  await work.digests.stop();
  await work.rejections.close();
}
