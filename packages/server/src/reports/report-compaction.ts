import type { Logger } from 'pino';
import { describeFailure } from '@org/audit-server-core';
import { BackgroundPasses, BackgroundWorker } from '../ops/background-passes.js';
import type { Database } from '../database/dialect.js';
import { CONTENT_COLUMNS, DamagedReportError, packReport, reportBytesOf, type ContentColumns } from './report-content.js';

/** How a {@link ReportCompactor} paces itself. */
export interface ReportCompactorOptions {
  /** True while uploads are under way: the pass then compacts at most {@link busyBatch} and leaves the rest for later. */
  isBusy?: () => boolean;
  /** Most reports and bytes per transaction while uploads are quiet. Default 64 reports, 8 MiB. */
  batch?: { reports: number; bytes: number };
  /** Most reports and bytes per pass while uploads are under way. Default 8 reports, 1 MiB. */
  busyBatch?: { reports: number; bytes: number };
  /** A pass runs at least this often. Default one minute. */
  intervalMs?: number;
  /** How long after a wake (a commit of new reports) the pass runs, so that a burst makes few passes. Default 1 s. */
  wakeDelayMs?: number;
  logger?: Pick<Logger, 'error'>;
}

const BATCH = { reports: 64, bytes: 8 * 1024 * 1024 };
const BUSY_BATCH = { reports: 8, bytes: 1024 * 1024 };

/**
 * Compresses the reports uploads stored as received (`pending`), in the background: an upload's answer never waits
 * for a compression, and the database still ends compact. A pass reads a batch of pending reports one at a time
 * (checked against their SHA-256 like every read), compresses each on libuv's threadpool, and rewrites the batch in
 * one transaction, each row only if it is still pending (another server, or retention, may have been first). While
 * uploads are under way a pass does one small batch, so the backlog drains at a bounded rate until they are quiet.
 */
export class ReportCompactor extends BackgroundWorker {
  protected readonly passes: BackgroundPasses;
  private readonly isBusy: () => boolean;
  private readonly batch: { reports: number; bytes: number };
  private readonly busyBatch: { reports: number; bytes: number };
  private readonly logger: Pick<Logger, 'error'> | undefined;

  constructor(
    private readonly database: Database,
    options: ReportCompactorOptions = {},
  ) {
    super();
    this.isBusy = options.isBusy ?? (() => false);
    this.batch = options.batch ?? BATCH;
    this.busyBatch = options.busyBatch ?? BUSY_BATCH;
    this.logger = options.logger;
    this.passes = new BackgroundPasses((settling) => this.compactPending(settling), {
      intervalMs: options.intervalMs ?? 60_000,
      wakeDelayMs: options.wakeDelayMs ?? 1000,
      onError: (error) => options.logger?.error({ error: describeFailure(error) }, 'report compaction failed; retrying on the next pass'),
    });
  }

  private async compactPending(settling: boolean): Promise<void> {
    while (!this.passes.isStopped) {
      const busy = !settling && this.isBusy();
      const { reports, bytes } = busy ? this.busyBatch : this.batch;
      const moreLeft = await this.compactBatch(reports, bytes);
      if (busy || !moreLeft) return;
    }
  }

  /** Compacts up to `maxReports` pending reports, stopping after the one that passes `maxBytes`; tells whether more may be left. */
  private async compactBatch(maxReports: number, maxBytes: number): Promise<boolean> {
    const knex = this.database.em.getKnex();
    const ids = ((await knex('report').select('id').where('content_encoding', 'pending').limit(maxReports)) as { id: string }[]).map((row) => row.id);
    const packed: { id: string; contentEncoding: string; content?: Buffer }[] = [];
    let bytes = 0;
    for (const id of ids) {
      // One report in memory at a time before it is compressed: reports can be megabytes each.
      const [row] = (await knex('report')
        .select(...CONTENT_COLUMNS)
        .where({ id, content_encoding: 'pending' })) as ContentColumns[];
      if (!row) continue;
      const report = await reportBytesOf(row).catch((error: unknown) => {
        if (!(error instanceof DamagedReportError)) throw error;
        this.logger?.error({ reportId: id }, 'a stored report no longer matches its SHA-256; left as it is, and never served');
        return undefined;
      });
      // A damaged report stays as it is (`identity`, reads still refuse it), so that no pass picks it again.
      packed.push(report ? { id, ...(await packReport(report, row.contentSha256 ?? undefined)) } : { id, contentEncoding: 'identity' });
      bytes += row.content.length;
      if (bytes >= maxBytes) break;
    }
    if (packed.length > 0) {
      await knex.transaction(async (trx) => {
        for (const { id, contentEncoding, content } of packed) {
          await trx('report')
            .where({ id, content_encoding: 'pending' })
            .update({ ...(content && { content }), content_encoding: contentEncoding });
        }
      });
    }
    return ids.length === maxReports || packed.length < ids.length;
  }
}
