// Gauges of the fleet's posture on `/metrics`, read from the database when scraped. Their labels are bounded sets
// (lifecycle states, statuses, kinds, and policy names an administrator chose), never host names.
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../database/dialect.js';
import { complianceByPolicyName, findingsByKindAndState, hostsByState, oldestUnhandledFindingAge } from './posture-counts.js';

/** What the posture gauges read, and where they say a read failed. */
export interface PostureSources {
  database: Database;
  logger: Logger;
  /** Leave Lynis' own finding out of the finding gauges, as the fleet's lists do (`--lynis-own-findings hide`). */
  hideLynisFindings: boolean;
}

const HOST_STATES = ['active', 'stale', 'decommissioned'] as const;
const COMPLIANCE_STATUSES = ['pass', 'fail', 'error', 'waived'] as const;
const FINDING_KINDS = ['warning', 'suggestion'] as const;
const FINDING_STATES = ['open', 'acknowledged', 'accepted', 'resolved', 'regressed'] as const;

/**
 * Registers `audit_hosts`, `audit_hosts_compliance`, `audit_findings` and `audit_oldest_open_finding_age_seconds`.
 * A read that fails (the database down) is logged and its gauge keeps the values of the last scrape that read it:
 * the rest of the scrape, process and request metrics included, is answered as usual.
 */
export function registerPostureGauges(registry: Registry, { database, logger, hideLynisFindings }: PostureSources): void {
  const registers = [registry];
  const findingOptions = { hideLynis: hideLynisFindings };
  /** Runs a gauge's read; a failure leaves the gauge as it was. */
  const kept = async (name: string, read: () => Promise<void>) => {
    try {
      await read();
    } catch (error) {
      logger.warn({ err: error, metric: name }, 'posture metric not read: it keeps the values of the last scrape');
    }
  };
  new Gauge({
    name: 'audit_hosts',
    help: 'Hosts by lifecycle state',
    labelNames: ['state'],
    registers,
    async collect() {
      await kept('audit_hosts', async () => {
        const counts = await hostsByState(database);
        for (const state of HOST_STATES) this.set({ state }, counts.get(state) ?? 0);
      });
    },
  });
  new Gauge({
    name: 'audit_hosts_compliance',
    help: 'Hosts by status on each policy as a whole (a waiver covering its failures counts as waived)',
    labelNames: ['policy', 'status'],
    registers,
    async collect() {
      await kept('audit_hosts_compliance', async () => {
        const counts = await complianceByPolicyName(database);
        // Policies deleted since the last scrape go.
        this.reset();
        for (const [policy, statuses] of counts) for (const status of COMPLIANCE_STATUSES) this.set({ policy, status }, statuses[status]);
      });
    },
  });
  new Gauge({
    name: 'audit_findings',
    help: 'Findings of the hosts not decommissioned, by kind and lifecycle state',
    labelNames: ['kind', 'state'],
    registers,
    async collect() {
      await kept('audit_findings', async () => {
        const counts = await findingsByKindAndState(database, findingOptions);
        for (const kind of FINDING_KINDS) for (const state of FINDING_STATES) this.set({ kind, state }, counts.get(`${kind} ${state}`) ?? 0);
      });
    },
  });
  new Gauge({
    name: 'audit_oldest_open_finding_age_seconds',
    help: 'Seconds since the oldest open, acknowledged or regressed finding of a host not decommissioned was first seen; 0 when there is none',
    registers,
    async collect() {
      await kept('audit_oldest_open_finding_age_seconds', async () => this.set(await oldestUnhandledFindingAge(database, findingOptions)));
    },
  });
}
