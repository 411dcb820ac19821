// A newcomer's first look: `audit-server seed-demo` on a fresh data directory, then the server on it, whose
// admin API shows the demo fleet.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

const HOSTS = 50;

/** What this test reads of the overview. */
interface Overview {
  hosts: { total: number; stale: number };
  topWarnings: unknown[];
  uploadsPerDay: { refused: number }[];
}
let dataDir: string;
let removeDataDir: () => Promise<void>;
let server: ServerProcess | undefined;

beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
});
afterAll(async () => {
  await server?.stop();
  await removeDataDir?.();
});

it('seeds a demo fleet the running server shows, and refuses to seed it twice without --force', async () => {
  const seeded = await runCli(['seed-demo', '--hosts', String(HOSTS), '--data-dir', dataDir], dataDir);
  expect(seeded).toMatchObject({ code: 0, stdout: expect.stringContaining(`${HOSTS} hosts`) });
  expect(seeded.stdout).toContain('license key labelled "demo"');
  expect(seeded.stdout).toContain(`audit-server start --data-dir ${dataDir}`);

  const again = await runCli(['seed-demo', '--hosts', String(HOSTS), '--data-dir', dataDir], dataDir);
  expect(again).toMatchObject({ code: 1, stderr: expect.stringMatching(/already holds \d+ reports.*--force/) });

  const token = (await runCli(['admin-tokens', 'create', '--label', 'demo'], dataDir)).stdout.trim();
  server = await startServerProcess(dataDir, ['--plain-http']);
  const answer = await fetch(`${server.adminUrl}/api/admin/overview`, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  const overview = (await answer.json()) as Overview;
  expect(overview.hosts.total).toBe(HOSTS);
  expect(overview.hosts.stale).toBeGreaterThan(0);
  expect(overview.topWarnings.length).toBeGreaterThan(0);
  expect(overview.uploadsPerDay.some((day) => day.refused > 0)).toBe(true);
  // Four processes (seed, seed again, a token, the server), each starting Node and opening the database: more than
  // the default 20 s on a busy machine.
}, 60_000);
