// Roles, derived from the contract: every admin operation declares the role it requires (`x-required-role`, and a
// line saying so in its description), and a running server refuses it to each token below that role with a 403
// `forbidden` before anything happens, and never refuses it to a token at or above it, on each database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, DIALECTS } from '@org/test-support/postgres';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { adminOperations, type AdminOperation } from './support/admin-operations.js';
import { OPENAPI } from './support/prism.js';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

const ROLES = ['viewer', 'operator', 'admin'] as const;
type Role = (typeof ROLES)[number];
const operations = adminOperations();
const requiredRoleOf = (operation: AdminOperation) => operation.requiredRole as Role;
const below = (role: Role, required: Role) => ROLES.indexOf(role) < ROLES.indexOf(required);
const CONTRACT = parse(readFileSync(OPENAPI, 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
/** The contract's path of an operation, with its parameters (the operations list has them filled in). */
function adminOperationPath(operationId: string): string {
  return Object.entries(CONTRACT.paths).find(([, item]) => Object.values(item).some((operation) => operation.operationId === operationId))![0];
}

/** The `x-required-role` of the operations anyone may call: signing in, and out once a session has ended. */
const OPEN = 'none';
const roled = operations.filter((operation) => operation.requiredRole !== OPEN);

describe('the contract states the role of every admin operation', () => {
  it('lets anyone call signing in and out (with a password or single sign-on), and nothing else, and says so twice: no role and no security', () => {
    const open = operations.filter((operation) => operation.requiredRole === OPEN);
    expect(open.map((operation) => operation.operationId).sort()).toEqual(['finishSsoSignIn', 'getSignInOptions', 'signIn', 'signOut', 'startSsoSignIn']);
    for (const operation of open) {
      expect(operation.security).toEqual([]);
      expect(operation.description.trimEnd().split('\n').at(-1)).toMatch(/^Requires no role: /);
    }
  });

  it.each(roled.map((operation) => [operation.operationId, operation] as const))('%s', (_id, operation) => {
    expect(ROLES).toContain(operation.requiredRole);
    // The published docs render descriptions, not extensions: the line must say the same role.
    expect(operation.description.trimEnd().split('\n').at(-1)).toBe(`Requires the \`${String(operation.requiredRole)}\` role.`);
    // Only an operation some role is refused documents the refusal.
    expect(operation.statuses.includes('403')).toBe(operation.requiredRole !== 'viewer');
  });
});

describe('docs/roles.md', () => {
  it("lists every admin operation with the contract's role, and nothing else", () => {
    const table = readFileSync(fileURLToPath(new URL('../docs/roles.md', import.meta.url)), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const rows = operations.map((operation) => {
      const path = adminOperationPath(operation.operationId);
      return `| \`${operation.operationId}\` | \`${operation.method} ${path}\` | ${String(operation.requiredRole)} |`;
    });
    expect([...table].sort()).toEqual([...rows].sort());
  });
});

describe.each(DIALECTS)('a running server on %s enforces the roles', (dialect) => {
  let server: ServerProcess;
  let dataDir: { dataDir: string; remove: () => Promise<void> };
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  const tokens = {} as Record<Role, string>;
  const cli = (args: string[]) => runCli(args, dataDir.dataDir, undefined, scratch?.url);

  beforeAll(async () => {
    dataDir = await makeDataDir();
    if (dialect === 'postgresql') scratch = await createScratchDatabase();
    for (const role of ROLES) {
      const created = await cli(['admin-tokens', 'create', '--label', `${role} token`, '--role', role]);
      expect(created.code, created.stderr).toBe(0);
      tokens[role] = created.stdout.trim();
    }
    server = await startServerProcess(dataDir.dataDir, ['--plain-http', '--rate-limit-address', '0', '--rate-limit-key', '0', '--rate-limit-failures', '0'], {
      databaseUrl: scratch?.url,
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await scratch?.drop();
    await dataDir?.remove();
  });

  const send = (operation: AdminOperation, role: Role) =>
    fetch(`${server.url}${operation.path}`, {
      method: operation.method,
      headers: { authorization: `Bearer ${tokens[role]}`, ...(operation.body === undefined ? {} : { 'content-type': operation.body.contentType }) },
      body: operation.body?.text,
    });
  /** What the admin operations that change something would show changed. */
  const state = async () => {
    const read = async (path: string) => (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${tokens.viewer}` } })).json();
    return Promise.all(['/api/admin/keys', '/api/admin/policies', '/api/admin/webhooks', '/api/admin/waivers'].map(read));
  };

  it('lists each token with its role, and refuses a role that does not exist', async () => {
    const listed = await cli(['admin-tokens', 'list']);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+KIND\s+OWNER\/ACCOUNT\s+LABEL\s+ROLE\s/);
    for (const role of ROLES) expect(listed.stdout).toMatch(new RegExp(`${role} token\\s+${role}\\s`));
    const refused = await cli(['admin-tokens', 'create', '--role', 'owner']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/viewer, operator, admin/);
  });

  it('refuses every operation to each role below the one it requires: 403 forbidden, and nothing changes', async () => {
    const before = await state();
    let refusals = 0;
    for (const operation of operations) {
      for (const role of ROLES.filter((candidate) => below(candidate, requiredRoleOf(operation)))) {
        const answer = await send(operation, role);
        expect(answer.status, `${operation.operationId} as ${role}`).toBe(403);
        expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(await answer.json()).toMatchObject({ status: 403, code: 'forbidden', role, requiredRole: operation.requiredRole });
        refusals++;
      }
    }
    expect(refusals).toBeGreaterThan(20);
    expect(await state()).toEqual(before);
    expect(server.logs.join('\n')).toContain('admin request forbidden');
    for (const token of Object.values(tokens)) expect(server.logs.join('\n')).not.toContain(token);
  });

  it('never refuses an operation to a role at or above the one it requires', async () => {
    // The open ones (signing in and out) answer whoever calls; their own answers, such as a 401 for the example's
    // unknown email, are tested with the sessions.
    for (const operation of roled) {
      for (const role of ROLES.filter((candidate) => !below(candidate, requiredRoleOf(operation)))) {
        const answer = await send(operation, role);
        await answer.arrayBuffer();
        // Any answer but a refusal: the example ids exist nowhere, so many are 404s.
        expect([401, 403, 500], `${operation.operationId} as ${role}: ${answer.status}`).not.toContain(answer.status);
      }
    }
  });

  it('tells the dashboard the role the token has', async () => {
    for (const role of ROLES) {
      const session = await fetch(`${server.url}/api/admin/session`, { headers: { authorization: `Bearer ${tokens[role]}` } });
      expect(await session.json()).toMatchObject({ label: `${role} token`, role });
    }
  });
});
