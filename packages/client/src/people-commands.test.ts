import { describe, expect, it } from 'vitest';
import type { AdminTokenInfo, PersonList, User } from './generated/types.gen.js';
import { useAdminCliStub } from './admin-cli.test-kit.js';
import { EXIT } from './cli-exit-codes.js';
import { formatPeople, formatTokens, formatUsers, scopeText } from './people-commands.js';

const TOKEN: AdminTokenInfo = {
  id: '00000000-0000-4000-8000-000000000001',
  label: 'nightly export',
  prefix: 'adm_3f9a2c1e',
  kind: 'personal',
  owner: { id: '00000000-0000-4000-8000-000000000002', email: 'grace@example.org' },
  serviceAccount: null,
  role: 'viewer',
  scope: { customers: ['acme'], groups: [] },
  createdAt: '2026-11-01T10:00:00.000Z',
  lastUsedAt: null,
  expiresAt: '2027-05-01T00:00:00.000Z',
  revokedAt: null,
};

describe('people and tokens as audit-client shows them', () => {
  it('names a scope, or all hosts', () => {
    expect(scopeText({ customers: [], groups: [] })).toBe('all hosts');
    expect(scopeText({ customers: ['acme', 'beta'], groups: ['web'] })).toBe('customers:acme,beta groups:web');
  });

  it('lists tokens with their owner or service account, never a token', () => {
    const service: AdminTokenInfo = { ...TOKEN, id: '00000000-0000-4000-8000-000000000003', kind: 'service', owner: null, serviceAccount: 'siem', label: null };
    const [heading, personal, account] = formatTokens([TOKEN, service]).split('\n');
    expect(heading!.split(/\s{2,}/)).toEqual(['ID', 'KIND', 'OWNER/ACCOUNT', 'LABEL', 'ROLE', 'SCOPE', 'PREFIX', 'CREATED', 'LAST USED', 'EXPIRES', 'REVOKED']);
    expect(personal!.split(/\s{2,}/)).toEqual([
      TOKEN.id,
      'personal',
      'grace@example.org',
      'nightly export',
      'viewer',
      'customers:acme',
      'adm_3f9a2c1e',
      '2026-11-01 10:00:00 UTC',
      'never',
      '2027-05-01 00:00:00 UTC',
      '-',
    ]);
    expect(account!.split(/\s{2,}/).slice(1, 4)).toEqual(['service', 'siem', '-']);
    expect(formatTokens([])).toBe('No tokens.\n');
  });

  it('lists people with how they sign in; a name with a terminal escape is shown harmless', () => {
    const user: User = {
      id: '00000000-0000-4000-8000-000000000002',
      email: 'grace@example.org',
      displayName: 'Grace\u001b[31m',
      role: 'operator',
      scope: { customers: [], groups: ['web'] },
      disabled: true,
      signIn: ['password', 'sso'],
      createdAt: '2026-11-01T10:00:00.000Z',
      lastSignInAt: null,
    };
    const [, row] = formatUsers([user]).split('\n');
    expect(row!.split(/\s{2,}/)).toEqual([user.id, 'grace@example.org', 'Grace?[31m', 'operator', 'groups:web', 'password,sso', 'disabled', 'never']);
  });
});

describe('audit-client people, against a stub server', () => {
  const ADMIN_TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
  const PEOPLE: PersonList = {
    items: [
      { id: '00000000-0000-4000-8000-000000000002', email: 'grace@example.org', name: 'Grace\u001b[31m Hopper' },
      { id: '00000000-0000-4000-8000-000000000004', email: 'ops@example.org', name: null },
    ],
  };
  const cli = useAdminCliStub(ADMIN_TOKEN, () => ({ status: 200, body: JSON.stringify(PEOPLE) }));
  const { run } = cli;

  it('lists the people as ID, EMAIL and NAME, a name with a terminal escape shown harmless', async () => {
    await run('people');
    expect(cli.stub.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/admin/people']);
    expect(cli.stub.requests[0]!.headers.authorization).toBe(`Bearer ${ADMIN_TOKEN}`);
    const [heading, grace, ops, end] = cli.printed.split('\n');
    expect(heading!.split(/\s{2,}/)).toEqual(['ID', 'EMAIL', 'NAME']);
    expect(grace!.split(/\s{2,}/)).toEqual([PEOPLE.items[0]!.id, 'grace@example.org', 'Grace?[31m Hopper']);
    expect(ops!.split(/\s{2,}/)).toEqual([PEOPLE.items[1]!.id, 'ops@example.org', '-']);
    expect(end).toBe('');
    expect(process.exitCode).toBe(EXIT.ok);
  });

  it('prints the people as JSON with --json, as `users list` does, and says so when there is no one', async () => {
    await run('people', '--json');
    expect(JSON.parse(cli.printed)).toEqual(PEOPLE.items);
    cli.printed = '';
    cli.reply = { status: 200, body: JSON.stringify({ items: [] }) };
    await run('people');
    expect(cli.printed).toBe('No people.\n');
    expect(formatPeople([])).toBe('No people.\n');
  });

  it("says the server's refusal of a viewer (403) and exits 1", async () => {
    cli.reply = { status: 403, body: JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403, detail: 'This needs the operator role' }) };
    await run('people');
    expect(cli.printed).toContain('This needs the operator role');
    expect(process.exitCode).toBe(EXIT.failure); // a 403 is none of the other codes' cases (docs/client.md)
  });
});
