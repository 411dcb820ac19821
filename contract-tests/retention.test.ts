// Retention as an operator uses it: `audit-server prune` once, and the running server's schedule.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { storedReports } from './support/reports.js';
import { logLine, makeDataDir, runCli, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';

const KEY = 'deadbeef-0000-0000-0000-00000000a11c';
const report = readFileSync(lynisFixturePath('report.dat'), 'utf8');

let dataDir: string;
let removeDataDir: () => Promise<void>;
beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  await seedKeys(dataDir, { valid: [KEY] });
});
afterAll(() => removeDataDir?.());

async function upload(server: ServerProcess, hostid: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const body = new URLSearchParams({ licensekey: KEY, hostid, data: `${report}retention_test=${i}\n` });
    const answer = await fetch(`${server.url}/api/audit/upload/`, { method: 'POST', body });
    expect(answer.status).toBe(200);
  }
}

it('prune deletes what no rule keeps, or only counts it on a dry run, and wants a rule', async () => {
  const server = await startServerProcess(dataDir, ['--plain-http']);
  await upload(server, 'prune-cli-a', 4);
  await upload(server, 'prune-cli-b', 1);
  await server.stop();

  expect(await runCli(['prune'], dataDir)).toMatchObject({
    code: 1,
    stderr: expect.stringContaining('no retention rule: give --keep-last and/or --max-age-days'),
  });
  expect(await runCli(['prune', '--keep-last', '0'], dataDir)).toMatchObject({ code: 1, stderr: expect.stringContaining('retentionKeepLast') });
  expect(await runCli(['prune', '--keep-last', '1', '--dry-run'], dataDir)).toMatchObject({ code: 0, stdout: 'Would delete 3 reports\n' });
  expect(await storedReports(dataDir)).toHaveLength(5);
  // The age rule alone keeps everything received today: both rules must fail for a report to go.
  expect(await runCli(['prune', '--keep-last', '1', '--max-age-days', '1'], dataDir)).toMatchObject({ code: 0, stdout: 'Deleted 0 reports\n' });
  expect(await runCli(['prune', '--keep-last', '1'], dataDir)).toMatchObject({ code: 0, stdout: 'Deleted 3 reports\n' });
  expect((await storedReports(dataDir)).map((r) => r.hostId).sort()).toEqual(['prune-cli-a', 'prune-cli-b']);
});

it('a running server with a retention rule prunes on its schedule and logs how many, never a key', async () => {
  const server = await startServerProcess(dataDir, ['--plain-http', '--retention-keep-last', '2', '--prune-interval-minutes', '0.005']);
  try {
    expect(JSON.parse(server.logs.find((line) => line.includes('audit server listening'))!)).toMatchObject({ pruneSchedule: '0.005 min' });
    await upload(server, 'prune-schedule', 5);
    await logLine(server, (line) => line.includes('"pruned reports"') && /"deleted":[1-9]/.test(line));
    await expect.poll(async () => (await storedReports(dataDir)).filter((r) => r.hostId === 'prune-schedule').length, { timeout: 5000 }).toBe(2);
    const pruned = server.logs.filter((line) => line.includes('"pruned reports"')).map((line) => JSON.parse(line));
    expect(pruned[0]).toMatchObject({ component: 'retention', keepLast: 2 });
    expect(pruned.reduce((sum, entry) => sum + entry.deleted, 0)).toBe(3);
  } finally {
    await server.stop();
  }
  expect(server.logs.join('\n')).not.toContain(KEY);
});
