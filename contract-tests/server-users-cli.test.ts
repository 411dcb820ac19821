// `audit-server users` on each database, the built CLI on a fresh install: the first admin is added with the
// password on stdin, listed, given another role, disabled and enabled, and given a new password; a second one is
// added with a scope, given another, and deleted; the last enabled admin is kept; the password shows in no output
// and is stored only as an argon2id hash.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '@org/audit-server';
import { createScratchDatabase, DIALECTS } from '@org/test-support/postgres';
import type { CommandRun } from '@org/test-support/node-script';
import { makeDataDir, runCli } from './support/server-process.js';

const PASSWORD = 'first admin passphrase 42';
const NEW_PASSWORD = 'a second, longer passphrase';

// Each test runs the CLI a few times, each run a new process that opens the database (and hashes a password).
describe.each(DIALECTS)(
  'audit-server users on %s',
  (dialect) => {
    let dataDir: { dataDir: string; remove: () => Promise<void> };
    let scratch: { url: string; drop: () => Promise<void> } | undefined;
    const runs: CommandRun[] = [];
    const users = async (args: string[], stdin?: string) => {
      const run = await runCli(['users', ...args], dataDir.dataDir, stdin, scratch?.url);
      runs.push(run);
      return run;
    };
    const storedHashes = async () => {
      const orm = await openDatabase(scratch ? { dataDir: dataDir.dataDir, databaseUrl: scratch.url } : dataDir.dataDir);
      try {
        return await orm.em.getConnection().execute<{ email: string; password_hash: string }[]>('select email, password_hash from app_user order by email');
      } finally {
        await orm.close();
      }
    };

    // Made once, awaited by every test, so that without PostgreSQL every test fails with the reason.
    let started: Promise<void> | undefined;
    beforeEach(() => (started ??= start()));
    async function start(): Promise<void> {
      dataDir = await makeDataDir(); // fresh: no database yet
      if (dialect === 'postgresql') scratch = await createScratchDatabase();
    }
    afterAll(async () => {
      await scratch?.drop();
      await dataDir?.remove();
    });

    it('adds the first admin on a fresh install from the password on stdin, and lists it', async () => {
      await started;
      const added = await users(['add', '--email', 'Root@Example.org', '--role', 'admin', '--name', 'First Admin', '--password-stdin'], `${PASSWORD}\n`);
      expect(added).toMatchObject({ code: 0, stderr: 'Added user root@example.org (admin)\n' });
      const id = added.stdout.trim();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

      const listed = await users(['list']);
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      const [heading, row, ...rest] = listed.stdout.split('\n');
      expect(heading!.split(/\s{2,}/)).toEqual(['ID', 'EMAIL', 'NAME', 'ROLE', 'SCOPE', 'STATE', 'CREATED', 'LAST SIGN-IN']);
      expect(row!.split(/\s{2,}/)).toEqual([
        id,
        'root@example.org',
        'First Admin',
        'admin',
        'all hosts',
        'active',
        expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        'never',
      ]);
      expect(rest).toEqual(['']);

      const [stored] = await storedHashes();
      expect(stored!.email).toBe('root@example.org');
      expect(stored!.password_hash).toMatch(/^\$argon2id\$/);
      expect(stored!.password_hash).not.toContain(PASSWORD);
    });

    it('keeps the last enabled admin: neither demoted nor disabled nor deleted', async () => {
      await started;
      for (const [args, what] of [
        [['set-role', 'root@example.org', 'operator'], 'demoted'],
        [['disable', 'root@example.org'], 'disabled'],
        [['delete', 'root@example.org'], 'deleted'],
      ] as const) {
        expect(await users([...args])).toEqual({
          code: 1,
          stdout: '',
          stderr: `audit-server: The last enabled admin cannot be ${what}: make another person admin first\n`,
        });
      }
    });

    it('adds a person with a scope (repeated --customer and --group) and gives it another', async () => {
      await started;
      const added = await users(
        ['add', '--email', 'second@example.org', '--role', 'admin', '--customer', 'acme', '--customer', 'beta', '--group', 'web', '--password-stdin'],
        PASSWORD,
      );
      expect(added).toMatchObject({ code: 0, stderr: 'Added user second@example.org (admin)\n' });
      expect((await users(['list'])).stdout).toMatch(/second@example\.org\s+-\s+admin\s+customers:acme,beta groups:web\s+active\s/);
      expect(await users(['set-scope', '--email', 'second@example.org', '--group', 'db'])).toMatchObject({
        code: 0,
        stderr: 'User second@example.org now sees groups:db\n',
      });
      expect(await users(['set-scope', '--email', 'second@example.org'])).toMatchObject({ code: 0, stderr: 'User second@example.org now sees all hosts\n' });
    });

    it('changes the role, disables and enables the account, and resets its password', async () => {
      await started;
      expect(await users(['set-role', 'root@example.org', 'operator'])).toMatchObject({ code: 0, stderr: 'User root@example.org is now operator\n' });
      expect(await users(['disable', 'ROOT@example.org'])).toMatchObject({ code: 0, stderr: 'Disabled user root@example.org\n' });
      expect((await users(['list'])).stdout).toMatch(/\s+root@example\.org\s+First Admin\s+operator\s+all hosts\s+disabled \d{4}-\S+\s+\S+\s+never\n/);
      expect(await users(['enable', 'root@example.org'])).toMatchObject({ code: 0, stderr: 'Enabled user root@example.org\n' });
      expect((await users(['list'])).stdout).toMatch(/\s+operator\s+all hosts\s+active\s+\S+\s+never\n/);

      const [before] = await storedHashes();
      expect(await users(['reset-password', 'root@example.org', '--password-stdin'], NEW_PASSWORD)).toMatchObject({
        code: 0,
        stderr: 'Changed the password of user root@example.org\n',
      });
      const [after] = await storedHashes();
      expect(after!.password_hash).toMatch(/^\$argon2id\$/);
      expect(after!.password_hash).not.toBe(before!.password_hash);

      // root@ admin again, the second one can go.
      expect(await users(['set-role', 'root@example.org', 'admin'])).toMatchObject({ code: 0 });
      expect(await users(['delete', 'second@example.org'])).toMatchObject({ code: 0, stderr: 'Deleted user second@example.org\n' });
      expect(await users(['delete', 'second@example.org'])).toMatchObject({ code: 1, stderr: 'audit-server: No user with email second@example.org\n' });
    });

    it('refuses with a clear message and exit status 1: no password, a short one, a duplicate email, an unknown role or account', async () => {
      await started;
      const add = (email: string, role: string, stdin: string) => users(['add', '--email', email, '--role', role, '--password-stdin'], stdin);
      expect(await add('new@example.org', 'viewer', '')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'audit-server: no password on stdin: pipe it in with --password-stdin\n',
      });
      expect(await add('new@example.org', 'viewer', 'short\n')).toEqual({
        code: 1,
        stdout: '',
        stderr: 'audit-server: The password is too short: give at least 12 characters\n',
      });
      expect(await add('ROOT@example.org', 'viewer', PASSWORD)).toEqual({
        code: 1,
        stdout: '',
        stderr: 'audit-server: A user with email root@example.org exists already\n',
      });
      expect(await add('new@example.org', 'owner', PASSWORD)).toMatchObject({
        code: 1,
        stderr: 'audit-server: Unknown role "owner": give one of viewer, operator, admin\n',
      });
      expect(await users(['disable', 'nobody@example.org'])).toMatchObject({ code: 1, stderr: 'audit-server: No user with email nobody@example.org\n' });
      expect(await users(['add', '--email', 'new@example.org', '--role', 'viewer'])).toMatchObject({
        code: 1,
        stderr: expect.stringContaining("'--password-stdin'"),
      });
      expect((await storedHashes()).map((row) => row.email)).toEqual(['root@example.org']);
    });

    it('never shows a password in any output', async () => {
      await started;
      expect(runs.length).toBeGreaterThan(10);
      for (const run of runs) {
        expect(`${run.stdout}${run.stderr}`).not.toContain(PASSWORD);
        expect(`${run.stdout}${run.stderr}`).not.toContain(NEW_PASSWORD);
        expect(`${run.stdout}${run.stderr}`).not.toContain('$argon2id$');
      }
    });
  },
  120_000,
);
