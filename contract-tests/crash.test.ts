// Crash safety: a 200 means the report is durable. The server is killed with SIGKILL in the middle of a burst of
// uploads and restarted on the same data directory; every acknowledged report must be there, intact.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKey, openDatabase } from '@org/audit-server';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { keepAliveAgent, postBytes } from './support/http.js';
import { storedReports } from './support/reports.js';
import { makeDataDir, startServerProcess } from './support/server-process.js';

const UPLOADS = 400;
const CONCURRENCY = 24;
/** Acknowledged uploads after which the server is killed: well into the burst, well before its end. */
const KILL_AFTER = 80;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
// The real report without its license_key line, so that what is stored is byte for byte what was sent.
const baseReport = readFileSync(lynisFixturePath('report.dat'), 'utf8').replace(/^license_key=.*\n/m, '');

let dataDir: string;
let removeDataDir: () => Promise<void>;
let key: string;
beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  const orm = await openDatabase(dataDir);
  key = (await createKey(orm)).key;
  await orm.close();
});
afterAll(() => removeDataDir?.());

it('keeps every acknowledged report intact across a SIGKILL, and no partial one', async () => {
  const server = await startServerProcess(dataDir, ['--plain-http', '--rate-limit-address', '0', '--rate-limit-key', '0']);
  const agent = keepAliveAgent(CONCURRENCY);
  const reports = Array.from({ length: UPLOADS }, (_, i) => Buffer.from(`${baseReport}crash_test_report=${i}-${randomBytes(8).toString('hex')}\n`));
  const acknowledged: { id: string; sha256: string; size: number }[] = [];
  let killing: Promise<unknown> | undefined;
  let failed = 0;

  let next = 0;
  const worker = async () => {
    while (next < UPLOADS) {
      const report = reports[next++]!;
      const body = Buffer.from(new URLSearchParams({ licensekey: key, hostid: `crash-host-${next}`, data: report.toString() }).toString());
      const answer = await postBytes(agent, `${server.url}/api/audit/upload/`, { 'content-type': 'application/x-www-form-urlencoded' }, body).catch(
        (error: Error) => {
          expect(killing, `upload failed before the kill: ${error.message}`).toBeDefined();
          failed++;
        },
      );
      if (!answer) continue;
      expect(answer.status).toBe(200);
      acknowledged.push({ id: /^OK (\S+)$/.exec(answer.body)![1]!, sha256: sha256(report), size: report.length });
      if (acknowledged.length === KILL_AFTER) killing = server.stop('SIGKILL');
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await killing;
  agent.destroy();
  expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(failed).toBeGreaterThan(0); // the kill really hit uploads in flight

  // Restarting runs SQLite's recovery of the write-ahead log, as an operator's restart would.
  const restarted = await startServerProcess(dataDir, ['--plain-http']);
  await restarted.stop();

  const stored = new Map((await storedReports(dataDir)).map((r) => [r.id, r]));
  for (const ack of acknowledged) {
    const report = stored.get(ack.id);
    expect(report, `acknowledged report ${ack.id} is missing`).toBeDefined();
    expect({ sha256: sha256(report!.content), recorded: report!.sha256, size: report!.content.length }).toEqual({
      sha256: ack.sha256,
      recorded: ack.sha256,
      size: ack.size,
    });
  }
  // Nothing half-written: every stored report, acknowledged or not, is whole.
  for (const report of stored.values())
    expect({ sha256: sha256(report.content), size: report.content.length }).toEqual({ sha256: report.sha256, size: report.size });
  console.log(`crash test: ${acknowledged.length} acknowledged reports checked intact after SIGKILL (${stored.size} stored, ${failed} uploads cut off)`);
}, 120_000);
