import type { Knex } from '@mikro-orm/knex';
import type { Logger } from 'pino';
import { describeFailure, readReportBytes } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { sqlDialectOf } from '../database/dialects.js';
import { DERIVED_VERSION, deriveFromReport, replaceDerivations, type HostDerivation } from './host-derivation.js';
import { CONTENT_COLUMNS, reportBytesOf, type ContentColumns } from '../reports/report-content.js';

/** Hosts derived per transaction: short transactions, so that uploads never wait long behind one. */
const BATCH_SIZE = 100;
/** Pause between batches, leaving the database to uploads and the admin API. */
const PAUSE_MS = 20;
/** Wait before trying again after a failure (the database unavailable, say). */
const RETRY_MS = 60_000;

/** How {@link deriveStoredHosts} works through the hosts. */
export interface DeriveOptions {
  batchSize?: number;
  pauseMs?: number;
  /** Asked before each batch: true stops the work there. */
  stopped?: () => boolean;
}

/**
 * Derives the labels, findings and latest counts of every host whose row predates the current derivation
 * (`derived_version` below {@link DERIVED_VERSION}) from its newest report, a batch of hosts per transaction, by
 * host id. A host whose newest report changed meanwhile is left alone: the upload that changed it derived it. Safe
 * beside uploads and on several servers at once. Resolves with how many hosts it derived.
 */
export async function deriveStoredHosts(orm: Database, options: DeriveOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const knex = orm.em.getKnex();
  const dialect = sqlDialectOf(orm.em);
  let after: string | undefined;
  let derived = 0;
  while (!options.stopped?.()) {
    // Decommissioned hosts hold no findings (see `host-lifecycle.ts`): they are derived when they are back.
    const query = knex('host')
      .select('id', 'latest_report_id')
      .where('derived_version', '<', DERIVED_VERSION)
      .andWhere('state', '<>', 'decommissioned')
      .orderBy('id')
      .limit(batchSize);
    if (after !== undefined) query.andWhere('id', '>', after);
    const hosts = (await query) as { id: string; latest_report_id: string | null }[];
    if (hosts.length === 0) break;
    after = hosts.at(-1)!.id;
    const readings = await deriveLatestReports(knex, hosts);
    await knex.transaction(async (trx) => {
      const derivations = new Map<string, HostDerivation>();
      for (const {
        id,
        reportId,
        derived: { columns, derivation },
      } of readings) {
        const newest = trx('host').where('id', id).andWhere('derived_version', '<', DERIVED_VERSION).andWhere('state', '<>', 'decommissioned');
        if (reportId === null) newest.whereNull('latest_report_id');
        else newest.andWhere('latest_report_id', reportId);
        if ((await newest.update(columns)) > 0) derivations.set(id, derivation);
      }
      // Read once the updates hold the rows, like the upload's transaction does.
      const digests =
        derivations.size === 0
          ? []
          : ((await trx('host')
              .select('id', 'derived_digest')
              .whereIn('id', [...derivations.keys()])) as { id: string; derived_digest: string | null }[]);
      await replaceDerivations(
        trx,
        dialect,
        digests.map((host) => ({ id: host.id, storedDigest: host.derived_digest, derivation: derivations.get(host.id)! })),
      );
      derived += derivations.size;
    });
    if (hosts.length < batchSize) break;
    if (options.pauseMs ?? PAUSE_MS) await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? PAUSE_MS));
  }
  return derived;
}

/** What a host's newest report gives it, read from that report (`reportId`: which one it was). */
export interface LatestReading {
  id: string;
  reportId: string | null;
  derived: ReturnType<typeof deriveFromReport>;
}

/** Reads each host's newest report and derives what it gives the host, one report in memory at a time (reports can be megabytes each). */
export async function deriveLatestReports(knex: Knex, hosts: { id: string; latest_report_id: string | null }[]): Promise<LatestReading[]> {
  const readings: LatestReading[] = [];
  for (const host of hosts) {
    const [report] =
      host.latest_report_id === null
        ? []
        : ((await knex('report')
            .select(...CONTENT_COLUMNS)
            .where('id', host.latest_report_id)) as ContentColumns[]);
    const reading = report ? readReportBytes(await reportBytesOf(report)) : null;
    readings.push({ id: host.id, reportId: host.latest_report_id, derived: deriveFromReport(reading?.summary ?? null, reading?.labels ?? null) });
  }
  return readings;
}

/** A running background derivation. */
export interface HostBackfill {
  /** Stops after the batch under way, and waits for it. */
  stop(): Promise<void>;
}

/**
 * Starts deriving the hosts stored before the current derivation in the background (the server serves meanwhile;
 * their groups, tags, findings and latest counts appear as they are derived), logging what it did. A failure is
 * logged and the work tried again a minute later.
 */
export function startHostBackfill(
  orm: Database,
  logger: Pick<Logger, 'info' | 'error'>,
  options: Omit<DeriveOptions, 'stopped'> & { retryMs?: number } = {},
): HostBackfill {
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const run = () => {
    running = deriveStoredHosts(orm, { ...options, stopped: () => stopped }).then(
      (derived) => {
        if (derived > 0) logger.info({ component: 'backfill', derived, version: DERIVED_VERSION }, 'derived the labels and findings of hosts stored before');
      },
      (error: unknown) => {
        if (stopped) return;
        logger.error({ component: 'backfill', error: describeFailure(error) }, 'deriving stored hosts failed; trying again in a minute');
        retry = setTimeout(run, options.retryMs ?? RETRY_MS);
        retry.unref();
      },
    );
  };
  run();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await running;
    },
  };
}
