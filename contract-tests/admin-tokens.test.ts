// `audit-server admin-tokens` on each database: a token created on the command line opens the admin API of a
// running server, and is refused from the request after its revocation; neither the CLI nor the server shows it again.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, DIALECTS } from '@org/test-support/postgres';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

describe.each(DIALECTS)('admin-tokens on %s', (dialect) => {
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
    const row = listed.stdout.split('\n').find((line) => line.startsWith(id))!;
    expect(row).toContain('ops team');
    expect(row).toContain(`${token.slice(0, 12)}…`);
    expect(row).not.toMatch(/never$/); // the request above was recorded as a use
    expect(listed.stdout).not.toContain(token.slice(12));

    expect(await cli(['admin-tokens', 'revoke', id])).toMatchObject({ code: 0, stderr: `Revoked admin token ${id}\n` });
    const refused = await listKeys(token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(server.logs.join('\n')).not.toContain(token);
  });

  it('refuses to revoke a token that does not exist', async () => {
    const missing = await cli(['admin-tokens', 'revoke', '00000000-0000-4000-8000-000000000000']);
    expect(missing).toMatchObject({ code: 1, stderr: 'audit-server: No admin token with id 00000000-0000-4000-8000-000000000000\n' });
    expect((await cli(['admin-tokens', 'revoke', 'nonsense'])).code).toBe(1);
  });
});
