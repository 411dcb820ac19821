// Issue 24, item 1: policy rules that stalled the event loop for seconds per host or killed the server with a heap
// out-of-memory (and again after every restart). Here they are stored as an earlier version accepted them, and the
// server, as a process, must keep answering license checks at their usual latency while they are evaluated, stay up,
// quarantine the policy whose rule overruns its time budget, and read the evidence of an abandoned evaluation after a
// restart. The `policies` CLI commands work with the server down. On SQLite and on PostgreSQL.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, sqlDialectOf, type Database } from '@org/audit-server';
import { HEAP_RULE, SLOW_RULE, STALLING_RULE } from '@org/test-support/hostile-rules';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { createScratchDatabase } from '@org/test-support/postgres';
import { makeDataDir, runCli, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';

const KEY = 'deadbeef-0000-0000-0000-0000000b0d9e';
const report = readFileSync(lynisFixturePath('report.dat'), 'utf8');
const HOSTS = 4;

/** Stores a policy as an earlier version saved it: no budget check. */
async function storePolicy(database: Database, name: string, expression: string): Promise<string> {
  const id = randomUUID();
  const time = sqlDialectOf(database.em).toDatabaseTime(new Date());
  await database.em
    .getKnex()('policy')
    .insert({
      id,
      name,
      description: null,
      enabled: true,
      rules: JSON.stringify([{ id: 'rule', description: null, expression }]),
      created_at: time,
      updated_at: time,
      revision: 1,
    });
  return id;
}

/** License checks one after another for `ms`: each one's latency. */
async function licenseLatencies(server: ServerProcess, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  for (const end = Date.now() + ms; Date.now() < end;) {
    const started = performance.now();
    const answer = await fetch(`${server.url}/api/audit/license/`, { method: 'POST', body: new URLSearchParams({ licensekey: KEY }) });
    await answer.text();
    expect(answer.status).toBe(200);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const summary = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { count: sorted.length, p50: Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10, max: Math.round(sorted.at(-1)! * 10) / 10 };
};

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each(['sqlite', 'postgresql'] as const)('on %s', (dialect) => {
  it(
    'hostile rules neither block license checks nor stop the server; the slow one is quarantined; a restart reads the evidence; the CLI works offline',
    { timeout: 120_000 },
    async () => {
      const { dataDir, remove } = await makeDataDir();
      cleanups.push(remove);
      let databaseUrl: string | undefined;
      if (dialect === 'postgresql') {
        const scratch = await createScratchDatabase();
        cleanups.push(scratch.drop);
        databaseUrl = scratch.url;
      }
      const location = { dataDir, databaseUrl };
      await seedKeys(location, { valid: [KEY] });
      const database = await openDatabase(location);
      const ids = {
        stalling: await storePolicy(database, 'stalling', STALLING_RULE),
        heap: await storePolicy(database, 'heap', HEAP_RULE),
        slow: await storePolicy(database, 'slow', SLOW_RULE),
      };
      await database.close();
      const token = (await runCli(['admin-tokens', 'create', '--label', 'budgets'], dataDir, undefined, databaseUrl)).stdout.trim();

      const servers = [await startServerProcess(dataDir, ['--plain-http', '--rate-limit-address', '0', '--rate-limit-key', '0'], { databaseUrl })];
      // Two instances on one PostgreSQL database: both evaluate, both must stay up.
      if (databaseUrl)
        servers.push(
          await startServerProcess((await makeDataDir()).dataDir, ['--plain-http', '--rate-limit-address', '0', '--rate-limit-key', '0'], { databaseUrl }),
        );
      cleanups.push(() => Promise.all(servers.map((server) => server.stop())));
      const [server] = servers as [ServerProcess];
      const admin = async <T>(path: string): Promise<T> =>
        (await (await fetch(`${server.adminUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;

      const idle = summary(await licenseLatencies(server, 2000));
      for (let host = 0; host < HOSTS; host++) {
        const upload = await fetch(`${servers[host % servers.length]!.url}/api/audit/upload/`, {
          method: 'POST',
          body: new URLSearchParams({ data: report, licensekey: KEY, hostid: `budget-host-${host}`, hostid2: `x-${host}` }),
        });
        expect(upload.status).toBe(200);
      }
      const busy = summary(await licenseLatencies(server, 4000));
      console.log(
        `${dialect}: license checks without rules evaluating ${JSON.stringify(idle)} ms; while the hostile rules evaluate ${JSON.stringify(busy)} ms`,
      );
      expect(busy.max).toBeLessThan(1000);

      type PolicyJson = { id: string; enabled: boolean; quarantine: { at: string; reason: string } | null };
      await expect
        .poll(async () => (await admin<PolicyJson>(`/api/admin/policies/${ids.slow}`)).quarantine, { timeout: 60_000, interval: 500 })
        .toMatchObject({
          reason: expect.stringContaining('the rule exceeded its time budget of 200 ms'),
        });
      expect(await admin<PolicyJson>(`/api/admin/policies/${ids.slow}`)).toMatchObject({ enabled: false });
      type ResultPage = { items: { status: string; message: string | null }[] };
      await expect.poll(async () => (await admin<ResultPage>(`/api/admin/policies/${ids.heap}/results`)).items.length, { timeout: 30_000 }).toBe(HOSTS);
      for (const id of [ids.stalling, ids.heap]) {
        const results = await admin<ResultPage>(`/api/admin/policies/${id}/results`);
        expect(results.items).toEqual(
          Array(HOSTS).fill(
            expect.objectContaining({ status: 'error', message: expect.stringMatching(/^the rule built a string longer than 100000 characters/) }),
          ),
        );
        expect(await admin<PolicyJson>(`/api/admin/policies/${id}`)).toMatchObject({ enabled: true, quarantine: null });
      }
      for (const each of servers) expect((await fetch(`${each.opsUrl}/healthz`)).status).toBe(200);
      for (const each of servers) await each.stop();

      // With every server down: the CLI lists, disables, enables and deletes.
      const listed = await runCli(['policies', 'list'], dataDir, undefined, databaseUrl);
      expect(listed).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(new RegExp(`${ids.slow}.*slow.*no.*rule rule: the rule exceeded its time budget`)),
      });
      expect(await runCli(['policies', 'disable', ids.stalling], dataDir, undefined, databaseUrl)).toMatchObject({
        code: 0,
        stderr: `Disabled policy stalling (${ids.stalling})\n`,
      });
      expect(await runCli(['policies', 'delete', ids.heap], dataDir, undefined, databaseUrl)).toMatchObject({ code: 0 });
      // Enabling checks the rule against the budget, as saving does: still over it, still quarantined.
      expect(await runCli(['policies', 'enable', ids.slow], dataDir, undefined, databaseUrl)).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('rule rule: the rule exceeded its time budget of 200 ms on a large synthetic report'),
      });
      expect(await runCli(['policies', 'delete', randomUUID()], dataDir, undefined, databaseUrl)).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('No policy with id'),
      });
      const after = await openDatabase(location);
      const rows = (await after.em.getKnex()('policy').select('id', 'enabled', 'quarantined_at').orderBy('name')) as {
        id: string;
        enabled: unknown;
        quarantined_at: unknown;
      }[];
      expect(rows.map((row) => [row.id, Boolean(row.enabled), row.quarantined_at !== null])).toEqual([
        [ids.slow, false, true],
        [ids.stalling, false, false],
      ]);
      // A rule that passes every check but killed a server while it ran (as the heap rule made every server die before):
      // the run row that server left behind.
      const killer = await storePolicy(after, 'killer', 'summary.hardeningIndex >= 0');
      await after.em
        .getKnex()('policy_run')
        .insert({ policy_id: killer, run_id: randomUUID(), expires_at: sqlDialectOf(after.em).toDatabaseTime(new Date(Date.now() - 1000)) });
      await after.close();

      const restarted = await startServerProcess(dataDir, ['--plain-http'], { databaseUrl });
      cleanups.push(() => restarted.stop());
      const quarantine = async () =>
        ((await (await fetch(`${restarted.adminUrl}/api/admin/policies/${killer}`, { headers: { authorization: `Bearer ${token}` } })).json()) as PolicyJson)
          .quarantine;
      await expect.poll(quarantine, { timeout: 20_000 }).toMatchObject({ reason: 'a server stopped while evaluating the rule (a crash or its memory)' });
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect((await fetch(`${restarted.opsUrl}/healthz`)).status).toBe(200);
      // Enabled again from the CLI (the server down or not): its rule is within budget.
      expect(await runCli(['policies', 'enable', killer], dataDir, undefined, databaseUrl)).toMatchObject({
        code: 0,
        stderr: `Enabled policy killer (${killer})\n`,
      });
      await restarted.stop();
    },
  );
});
