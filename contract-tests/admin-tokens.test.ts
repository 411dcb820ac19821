// `audit-server admin-tokens` on each database: a token created on the command line opens the admin API of a
// running server, and is refused from the request after its revocation; neither the CLI nor the server shows it again.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, DIALECTS } from '@org/test-support/postgres';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

// Each test runs the CLI a few times, each run a new process that opens the database.
describe.each(DIALECTS)(
  'admin-tokens on %s',
  (dialect) => {
    let dataDir: { dataDir: string; remove: () => Promise<void> };
    let scratch: { url: string; drop: () => Promise<void> } | undefined;
    let server: ServerProcess;
    const cli = (args: string[]) => runCli(args, dataDir.dataDir, undefined, scratch?.url);

    // Started once, awaited by every test, so that without PostgreSQL every test fails with the reason (rather than
    // being skipped after a failed beforeAll).
    let started: Promise<void> | undefined;
    beforeEach(() => (started ??= start()));
    async function start(): Promise<void> {
      dataDir = await makeDataDir();
      if (dialect === 'postgresql') scratch = await createScratchDatabase();
      await cli(['admin-tokens', 'list']); // migrates the database before the server opens it
      server = await startServerProcess(dataDir.dataDir, ['--plain-http'], { databaseUrl: scratch?.url });
    }
    afterAll(async () => {
      await server?.stop();
      await scratch?.drop();
      await dataDir?.remove();
    });

    const listKeys = (token: string) => fetch(`${server.url}/api/admin/keys`, { headers: { authorization: `Bearer ${token}` } });

    it('creates a token that opens the admin API, lists it without the token, and revokes it', async () => {
      const created = await cli(['admin-tokens', 'create', '--label', 'ops team']);
      expect(created.code).toBe(0);
      const token = created.stdout.trim();
      expect(token).toMatch(/^adm_[0-9a-f]{64}$/);
      const id = /^Created admin token (\S+)\n$/.exec(created.stderr)![1]!;
      expect((await listKeys(token)).status).toBe(200);

      const listed = await cli(['admin-tokens', 'list']);
      expect(listed.code).toBe(0);
      const [heading, ...rows] = listed.stdout.split('\n');
      expect(heading!.split(/\s{2,}/)).toEqual([
        'ID',
        'KIND',
        'OWNER/ACCOUNT',
        'LABEL',
        'ROLE',
        'SCOPE',
        'PREFIX',
        'CREATED',
        'LAST USED',
        'EXPIRES',
        'REVOKED',
      ]);
      const row = rows.find((line) => line.startsWith(id))!.split(/\s{2,}/);
      // The service account defaults to the label; the request above was recorded as a use.
      expect(row).toEqual([
        id,
        'service',
        'ops team',
        'ops team',
        'admin',
        'all hosts',
        `${token.slice(0, 12)}…`,
        expect.any(String),
        expect.stringMatching(/^\d{4}-/),
        'never',
        '-',
      ]);
      expect(listed.stdout).not.toContain(token.slice(12));

      expect(await cli(['admin-tokens', 'revoke', id])).toMatchObject({ code: 0, stderr: `Revoked admin token ${id}\n` });
      const refused = await listKeys(token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(server.logs.join('\n')).not.toContain(token);
    });

    it('creates a service account token with an expiry and a scope, shown in the list', async () => {
      const created = await cli([
        'admin-tokens',
        'create',
        '--service-account',
        'siem',
        '--label',
        'audit export',
        '--role',
        'viewer',
        '--expires',
        '2099-01-31',
        '--customer',
        'acme',
        '--group',
        'web',
        '--group',
        'db',
      ]);
      expect(created.code).toBe(0);
      const id = /^Created admin token (\S+)\n$/.exec(created.stderr)![1]!;
      const token = created.stdout.trim();
      const session = await fetch(`${server.url}/api/admin/session`, { headers: { authorization: `Bearer ${token}` } });
      expect(await session.json()).toMatchObject({ kind: 'token', role: 'viewer', scope: { customers: ['acme'], groups: ['web', 'db'] } });

      const unnamed = await cli(['admin-tokens', 'create']);
      const unnamedId = /^Created admin token (\S+)\n$/.exec(unnamed.stderr)![1]!;
      const rows = (await cli(['admin-tokens', 'list'])).stdout.split('\n');
      expect(rows.find((line) => line.startsWith(id))!.split(/\s{2,}/)).toEqual([
        id,
        'service',
        'siem',
        'audit export',
        'viewer',
        'customers:acme groups:web,db',
        expect.stringMatching(/^adm_/),
        expect.any(String),
        expect.stringMatching(/^\d{4}-/), // used once above
        '2099-01-31T00:00:00.000Z',
        '-',
      ]);
      expect(
        rows
          .find((line) => line.startsWith(unnamedId))!
          .split(/\s{2,}/)
          .slice(1, 4),
      ).toEqual(['service', 'cli', '-']);
      const past = await cli(['admin-tokens', 'create', '--expires', '2001-01-01']);
      expect(past).toMatchObject({ code: 1, stdout: '' });
      expect(past.stderr).toContain('already past');
    });

    it('refuses to revoke a token that does not exist', async () => {
      const missing = await cli(['admin-tokens', 'revoke', '00000000-0000-4000-8000-000000000000']);
      expect(missing).toMatchObject({ code: 1, stderr: 'audit-server: No admin token with id 00000000-0000-4000-8000-000000000000\n' });
      expect((await cli(['admin-tokens', 'revoke', 'nonsense'])).code).toBe(1);
    });
  },
  120_000,
);
