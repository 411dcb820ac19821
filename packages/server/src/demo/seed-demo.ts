// `audit-server seed-demo`: fills a database with a demo fleet through the stores uploads use, so that the hosts,
// labels, findings, counts and policy inputs are exactly what real uploads of those reports would have made.
import { sweepHostLifecycle } from '../hosts/host-lifecycle-sweep.js';
import { DEFAULT_LIFECYCLE } from '../hosts/lifecycle-settings.js';
import { pino } from 'pino';
import { incompleteReportReason, reportToStore, type ReportToStore } from '@org/audit-server-core';
import type { Database } from '../database/dialect.js';
import { DomainError } from '../errors/domain-error.js';
import { DEFAULT_NEW_HOSTS_PER_DAY } from '../hosts/host-admission.js';
import { RejectionLog } from '../refusals/rejection-log.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey } from '../secrets/license-keys.js';
import { planFleet, planRefusals, type DemoHost } from './demo-fleet.js';
import { demoReport, findingIndexes, type DemoReportLines } from './demo-report.js';

/** Hosts of a demo fleet unless told otherwise, and the most it may have. */
export const DEMO_DEFAULT_HOSTS = 300;
export const DEMO_MAX_HOSTS = 20_000;
/** The seed unless told otherwise: the same fleet every time. */
export const DEMO_DEFAULT_SEED = 1;
/** The label of the license key the demo fleet's reports are stored under. */
export const DEMO_KEY_LABEL = 'demo';
/** Hosts whose reports are handed to the store at once: enough for its group commit, few enough to bound memory. */
const HOSTS_AT_ONCE = 256;

export interface SeedDemoOptions {
  hosts?: number;
  seed?: number;
  /** Seed a database that already holds reports (the fleet is added beside them; nothing is deleted). */
  force?: boolean;
  /** The time the fleet's newest reports are counted back from; default now. */
  now?: Date;
}

/** What a seeding created. */
export interface SeededDemo {
  hosts: number;
  staleHosts: number;
  reports: number;
  refusals: number;
  keyId: string;
  keyLabel: string;
  elapsedMs: number;
}

/** Checks a `--hosts` count: a whole number from 1 to {@link DEMO_MAX_HOSTS}. */
export function checkDemoHosts(hosts: number): number {
  if (!Number.isInteger(hosts) || hosts < 1 || hosts > DEMO_MAX_HOSTS) {
    throw new DomainError('invalid', `--hosts must be a whole number from 1 to ${DEMO_MAX_HOSTS}`);
  }
  return hosts;
}

/** Checks a `--seed`: a whole number from 0 to 2^32 - 1 (the generator's state). */
export function checkDemoSeed(seed: number): number {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffff_ffff) throw new DomainError('invalid', '--seed must be a whole number from 0 to 4294967295');
  return seed;
}

/**
 * Creates a license key labelled `demo`, stores the fleet's reports under it through {@link OrmReportStore}
 * (back-dated: a report's `receivedAt` is the store's input), and records its refused uploads through the
 * {@link RejectionLog}, each at its own time. Refuses a database that already holds reports unless `force`.
 */
export async function seedDemo(database: Database, options: SeedDemoOptions = {}): Promise<SeededDemo> {
  const started = performance.now();
  const hosts = checkDemoHosts(options.hosts ?? DEMO_DEFAULT_HOSTS);
  const seed = checkDemoSeed(options.seed ?? DEMO_DEFAULT_SEED);
  const now = options.now ?? new Date();
  if (!options.force) await refuseStoredReports(database);
  const fleet = planFleet(hosts, seed, now, findingIndexes());
  const { id: keyId } = await createKey(database, { label: DEMO_KEY_LABEL });
  // The whole fleet enrolls today: the store's quota of new hosts per key and day must not refuse part of it.
  const store = new OrmReportStore(database, { admission: { newHostsPerDay: Math.max(DEFAULT_NEW_HOSTS_PER_DAY, hosts) } });
  // One report of each host at a time, oldest first: each report is its host's newest when stored, so that its
  // findings open, resolve and regress on the days they did, as uploads of those reports would have made them (the
  // history and time to fix follow); a host's reports stored together would keep only the newest one's findings.
  let reports = 0;
  const rounds = Math.max(...fleet.map((host) => host.reports.length));
  for (let round = 0; round < rounds; round += 1) {
    const due = fleet.filter((host) => round < host.reports.length);
    for (let start = 0; start < due.length; start += HOSTS_AT_ONCE) {
      await Promise.all(due.slice(start, start + HOSTS_AT_ONCE).map((host) => store.save(toStore(keyId, host, host.reports[round]!))));
    }
    reports += due.length;
  }
  const refusals = await recordRefusals(database, fleet, seed, now, keyId);
  // The hosts back-dated past the stale threshold are stale at once, as the server's first sweep would make them.
  await sweepHostLifecycle(database, DEFAULT_LIFECYCLE, now);
  return {
    hosts,
    staleHosts: fleet.filter((host) => host.stale).length,
    reports,
    refusals,
    keyId,
    keyLabel: DEMO_KEY_LABEL,
    elapsedMs: performance.now() - started,
  };
}

async function refuseStoredReports(database: Database): Promise<void> {
  const [row] = await database.em.getKnex()('report').count({ reports: '*' });
  const stored = Number(row?.reports ?? 0);
  if (stored > 0) {
    throw new DomainError(
      'conflict',
      `the database already holds ${stored} report${stored === 1 ? '' : 's'}: a demo fleet is meant for an empty one. ` +
        'Give another --data-dir (or --database-url), or --force to add the demo fleet beside them (nothing is deleted)',
    );
  }
}

/**
 * The report as the upload operation hands it to the store (core's `reportToStore`: size and SHA-256 of what was
 * sent, license key lines redacted, summary and labels read by core's parser), received a few seconds after the
 * audit ended. A demo report that uploads would refuse is a bug here.
 */
function toStore(keyId: string, host: DemoHost, lines: DemoReportLines): ReportToStore {
  const bytes = Buffer.from(demoReport(lines), 'utf8');
  const incomplete = incompleteReportReason(bytes);
  if (incomplete !== null) throw new Error(`a demo report is not one uploads accept: ${incomplete}`);
  const report = reportToStore(keyId, { hostId: host.hostId, hostId2: host.hostId2 }, { encoding: 'raw', bytes });
  return { ...report, receivedAt: new Date(lines.finishedAt.getTime() + 3000) };
}

/**
 * Records the refused uploads through the rejection log the server uses, its clock set to each refusal's time so
 * that each lands on its own day, then writes them. No `uploads.refused` webhook events: they are not real refusals.
 */
async function recordRefusals(database: Database, fleet: DemoHost[], seed: number, now: Date, keyId: string): Promise<number> {
  const refusals = planRefusals(fleet, seed, now);
  let clock = now;
  const log = new RejectionLog(database, pino({ enabled: false }), { now: () => clock });
  for (const refusal of refusals) {
    clock = refusal.at;
    log.record({
      operation: refusal.operation,
      reason: refusal.reason,
      status: refusal.status,
      keyId: refusal.withDemoKey ? keyId : 'unknown',
      hostId: refusal.hostId,
      remoteAddress: refusal.remoteAddress,
    });
  }
  await log.flush();
  if (log.pendingGroups > 0) throw new Error("the demo fleet's refused uploads could not be written");
  return refusals.length;
}

/** Where the seeded database is, as `audit-server start` must be told: never the URL itself, which may hold a password. */
export interface SeededWhere {
  dataDir: string;
  postgresql: boolean;
  port: number;
}

/** What a seeding says when done: what it created, how long it took, and how to look at it. */
export function seededDemoText(seeded: SeededDemo, where: SeededWhere): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const location = where.postgresql ? '--database-url <the same URL>' : `--data-dir ${where.dataDir}`;
  return [
    `Seeded a demo fleet in ${(seeded.elapsedMs / 1000).toFixed(1)} s: ${count(seeded.hosts)} hosts (${count(seeded.staleHosts)} stale), ` +
      `${count(seeded.reports)} reports, ${count(seeded.refusals)} refused uploads and license checks, under the license key labelled "${seeded.keyLabel}" (id ${seeded.keyId}).`,
    'To look at it, start the server and create an admin token for the dashboard:',
    `  npx audit-server start ${location}`,
    `  npx audit-server admin-tokens create --label dashboard ${location}    # prints the token, once`,
    `then open https://localhost:${where.port}/dashboard/ and sign in with the token.`,
    '',
  ].join('\n');
}
