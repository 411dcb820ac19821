// The audit trail, derived from the contract and run against the built server on each database: every admin
// operation whose method changes something, and every export, leaves exactly one entry of its operationId, whatever
// its answer (the example ids exist nowhere, so many are 404s: a failure, still recorded); then `audit-server audit
// verify` finds the chain intact, and names the entry when a row is altered or one in the middle is deleted in SQL.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNodeScript } from '@org/test-support/node-script';
import { openDatabase } from '@org/audit-server';
import { createScratchDatabase, DIALECTS } from '@org/test-support/postgres';
import { adminOperations, type AdminOperation } from './support/admin-operations.js';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

const CLIENT_CLI = fileURLToPath(new URL('../packages/client/bin/audit-client.js', import.meta.url));
const operations = adminOperations();
/** What the trail records: changes, exports, and single sign-on's callback (a GET that signs someone in, or not). */
const audited = operations.filter(
  (operation) => operation.method !== 'GET' || operation.operationId.startsWith('export') || operation.operationId === 'finishSsoSignIn',
);

describe.each(DIALECTS)(
  'the audit trail of a running server on %s',
  (dialect) => {
    let server: ServerProcess;
    let dataDir: { dataDir: string; remove: () => Promise<void> };
    let scratch: { url: string; drop: () => Promise<void> } | undefined;
    let token: string;
    const cli = (args: string[]) => runCli(args, dataDir.dataDir, undefined, scratch?.url);
    const withDatabase = async <T>(work: (run: (sql: string) => Promise<unknown>) => Promise<T>): Promise<T> => {
      const orm = await openDatabase(scratch ? { dataDir: dataDir.dataDir, databaseUrl: scratch.url } : dataDir.dataDir);
      try {
        return await work((sql) => orm.em.getConnection().execute(sql));
      } finally {
        await orm.close();
      }
    };
    const entriesOf = async (operationId: string): Promise<number> => {
      const answer = await fetch(`${server.url}/api/admin/audit-events?operation=${operationId}&limit=500`, { headers: { authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { items: unknown[] }).items.length;
    };
    const send = (operation: AdminOperation) =>
      fetch(`${server.url}${operation.path}`, {
        method: operation.method,
        headers: { authorization: `Bearer ${token}`, ...(operation.body === undefined ? {} : { 'content-type': operation.body.contentType }) },
        body: operation.body?.text,
        redirect: 'manual',
      });

    beforeAll(async () => {
      dataDir = await makeDataDir();
      if (dialect === 'postgresql') scratch = await createScratchDatabase();
      const created = await cli(['admin-tokens', 'create', '--label', 'auditor']);
      expect(created.code, created.stderr).toBe(0);
      token = created.stdout.trim();
      const limits = ['--rate-limit-address', '0', '--rate-limit-key', '0', '--rate-limit-failures', '0'];
      server = await startServerProcess(dataDir.dataDir, ['--plain-http', ...limits], { databaseUrl: scratch?.url });
    });
    afterAll(async () => {
      await server?.stop();
      await scratch?.drop();
      await dataDir?.remove();
    });

    it('records every operation that changes something, and every export, exactly once', async () => {
      expect(audited.length).toBeGreaterThan(25);
      for (const operation of audited) {
        const before = await entriesOf(operation.operationId);
        const answer = await send(operation);
        await answer.arrayBuffer();
        expect(await entriesOf(operation.operationId), `${operation.operationId} answered ${answer.status}`).toBe(before + 1);
      }
      // Reading the trail is not itself recorded.
      expect(await entriesOf('listAuditEvents')).toBe(0);
    });

    it('audit-client lists the entries, filtered, and exports them as JSON Lines to a file', async () => {
      const client = (...args: string[]) => runNodeScript(CLIENT_CLI, args, { PATH: process.env.PATH!, AUDIT_URL: server.adminUrl, AUDIT_ADMIN_TOKEN: token });
      const listed = await client('audit-events', 'list', '--operation', 'createLicenseKey', '--outcome', 'success', '--actor', 'auditor');
      expect(listed.code, listed.stderr).toBe(0);
      const [heading, row, ...rest] = listed.stdout.trimEnd().split('\n');
      expect(heading!.split(/\s{2,}/)).toEqual(['SEQ', 'WHEN', 'ACTOR', 'ROLE', 'OPERATION', 'TARGET', 'OUTCOME', 'ADDRESS']);
      expect(row).toMatch(/auditor\s+admin\s+createLicenseKey\s+license-key [0-9a-f-]{36}\s+success \(201\)\s+127\.0\.0\.1$/);
      expect(rest).toEqual([]);
      expect((await client('audit-events', 'list', '--outcome', 'sometimes')).code).not.toBe(0);

      const file = join(dataDir.dataDir, 'trail.jsonl');
      const exported = await client('audit-events', 'export', '--format', 'jsonl', '--operation', 'signIn', '--output', file);
      expect(exported.code, exported.stderr).toBe(0);
      const lines = (await readFile(file, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { operation: string; outcome: string });
      expect(lines).toEqual([expect.objectContaining({ operation: 'signIn', outcome: 'failure' })]);
    });

    it('audit verify passes, then names the entry altered, then the one whose predecessor was deleted', async () => {
      const intact = await cli(['audit', 'verify']);
      expect(intact.code, intact.stderr).toBe(0);
      const checked = Number(/^Checked (\d+) audit entries$/m.exec(intact.stdout)?.[1]);
      expect(checked).toBeGreaterThanOrEqual(audited.length);

      await withDatabase((run) => run("update audit_event set actor_name = 'someone else' where sequence = 5"));
      const altered = await cli(['audit', 'verify']);
      expect(altered.code).not.toBe(0);
      expect(altered.stdout).toContain('Checked 4 audit entries');
      expect(altered.stderr).toMatch(/broken at entry 5: .*altered/);

      await withDatabase(async (run) => {
        await run('delete from audit_event where sequence = 5');
        await run('delete from audit_event where sequence = 10');
      });
      const removed = await cli(['audit', 'verify']);
      expect(removed.code).not.toBe(0);
      expect(removed.stderr).toMatch(/broken at entry 6: the entry before it \(5\) was removed/);
    });
  },
  180_000,
);
