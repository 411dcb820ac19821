// A demo fleet of thousands of hosts behind a running server: what the dashboard's tests at scale start from.
import type { Policy } from '@org/audit-client/sdk';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './server-process.js';

/** Hosts the fleet tests seed unless told otherwise: a fleet whose lists run to many pages. */
export const FLEET_HOSTS = 2000;

/** A running server on a freshly seeded demo fleet, with an admin token to sign in with. */
export interface SeededFleet {
  server: ServerProcess;
  /** The dashboard's address, for `signIn(page, fleet.dashboardUrl, fleet.adminToken)`. */
  dashboardUrl: string;
  adminToken: string;
  /** Hosts seeded. */
  hosts: number;
  /** How long `seed-demo` took, as the CLI ran it (ms). */
  seedMs: number;
  /** Calls the admin API with the fleet's token: the status and the JSON body (undefined when there is none). */
  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Seeds a demo fleet with `audit-server seed-demo --hosts <hosts>` (the same fleet for the same `seed`: groups such
 * as `webservers`, `databases` and `kubernetes`, tags `prod`/`staging`/`dev` and `eu`/`us`/`ap`, a few stale hosts)
 * into a fresh SQLite data directory, creates an admin token, and starts the server on it.
 *
 * Seeding 2,000 hosts takes about 9 s on an idle machine (15–20 s while other tests run), and evaluating the Baseline
 * on them about 15 s more, so do it once per test file, in `beforeAll` with a long enough timeout:
 *
 * ```ts
 * let fleet: SeededFleet;
 * beforeAll(async () => {
 *   fleet = await startSeededFleet();
 *   await enableBaseline(fleet); // when the test needs compliance: every host evaluated on the Baseline policy
 * }, 120_000);
 * afterAll(() => fleet?.stop());
 * // then: await signIn(page, fleet.dashboardUrl, fleet.adminToken); await fleet.admin('GET', '/api/admin/hosts?limit=1')
 * ```
 *
 * Tests that share a fleet should leave it as they found it, or change only what no other test of the file reads
 * (contract-tests/dashboard-fleet.test.ts runs its waiving scenario last for that reason; a scenario added there that
 * waives hosts should pick other hosts or rules, or come after it knowing what it waived).
 */
export async function startSeededFleet(options: { hosts?: number; seed?: number } = {}): Promise<SeededFleet> {
  const hosts = options.hosts ?? FLEET_HOSTS;
  const { dataDir, remove } = await makeDataDir();
  try {
    const started = performance.now();
    const seedArgs = ['seed-demo', '--hosts', String(hosts), '--data-dir', dataDir, ...(options.seed === undefined ? [] : ['--seed', String(options.seed)])];
    const seeded = await runCli(seedArgs, dataDir);
    if (seeded.code !== 0) throw new Error(`seed-demo failed (${seeded.code}): ${seeded.stderr}`);
    const seedMs = performance.now() - started;
    const created = await runCli(['admin-tokens', 'create', '--label', 'fleet tests', '--data-dir', dataDir], dataDir);
    if (created.code !== 0) throw new Error(`admin-tokens create failed (${created.code}): ${created.stderr}`);
    const adminToken = created.stdout.trim();
    const server = await startServerProcess(dataDir, ['--plain-http']);
    const admin = async <T>(method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${server.adminUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, body: (text ? JSON.parse(text) : undefined) as T };
    };
    const stop = async () => {
      await server.stop();
      await remove();
    };
    return { server, dashboardUrl: `${server.url}/dashboard/`, adminToken, hosts, seedMs, admin, stop };
  } catch (error) {
    await remove();
    throw error;
  }
}

/**
 * Enables the Baseline policy on the fleet and waits until the evaluator has a result for every host (about half of
 * the demo fleet fails one of its rules or more), so that the hosts' `compliance` and the `failingPolicy` filter are
 * settled. Resolves with the policy, its counts as evaluated.
 */
export async function enableBaseline(fleet: SeededFleet, timeoutMs = 60_000): Promise<Policy> {
  const enabled = await fleet.admin<Policy>('POST', '/api/admin/policies/baseline');
  if (enabled.status !== 201 && enabled.status !== 200) throw new Error(`enabling the baseline answered ${enabled.status}: ${JSON.stringify(enabled.body)}`);
  return evaluated(fleet, enabled.body.id, timeoutMs);
}

/** The policy once every host of the fleet has a result on it (its counts add up to the fleet), polled. */
export async function evaluated(fleet: SeededFleet, policyId: string, timeoutMs = 60_000): Promise<Policy> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body: policy } = await fleet.admin<Policy>('GET', `/api/admin/policies/${policyId}`);
    const { pass, fail, error, waived } = policy.hosts;
    if (pass + fail + error + waived >= fleet.hosts) return policy;
    if (Date.now() > deadline) throw new Error(`policy ${policyId}: ${pass + fail + error + waived} of ${fleet.hosts} hosts evaluated after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
