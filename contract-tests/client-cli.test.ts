// `audit-client`, the built CLI, as an operator runs it: with a Lynis profile against the reference server over
// HTTPS, and against a tiny local server that rate-limits, for the retries and exit codes. Its admin commands run
// against the Prism mock and a tiny server that refuses, for their output and exit codes.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { runNodeScript, type CommandRun } from '@org/test-support/node-script';
import { startStubServer, type StubReply, type StubServer } from '@org/test-support/stub-server';
import { EXAMPLE_ID } from './support/admin-operations.js';
import { startPrism, type PrismProcess } from './support/prism.js';
import { storedReports } from './support/reports.js';
import { makeDataDir, runCli, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';

/** The committed bin shim, exactly what `npx audit-client` runs. */
const CLIENT_CLI = fileURLToPath(new URL('../packages/client/bin/audit-client.js', import.meta.url));
const VALID_KEY = 'deadbeef-0000-0000-0000-0000000000d1';
const REVOKED_KEY = 'deadbeef-0000-0000-0000-0000000000d2';
const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const HOST_ID2 = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const REPORT = lynisFixturePath('report.dat');

/** Runs `audit-client <args>` with only the given environment variables (plus PATH) and optional stdin. */
function runClient(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<CommandRun> {
  return runNodeScript(CLIENT_CLI, args, { PATH: process.env.PATH!, ...env }, stdin);
}

describe('audit-client against the reference server', () => {
  let server: ServerProcess;
  let removeDataDir: () => Promise<void>;
  const runs: CommandRun[] = [];
  const run = async (...args: Parameters<typeof runClient>) => {
    const result = await runClient(...args);
    runs.push(result);
    return result;
  };

  /** Writes a Lynis profile like the one in docs/lynis-protocol.md, pointing at the server. */
  async function profile(name: string, key: string, prefix: string, uploadOptions: string): Promise<string> {
    const file = join(server.dataDir, name);
    await writeFile(
      file,
      [
        '# Lynis profile written by the test',
        `license-key=${key}`,
        `upload-server=127.0.0.1:${server.port}${prefix}`,
        `upload-options=${uploadOptions}`,
        `hostid=${HOST_ID}`,
        `hostid2=${HOST_ID2}`,
        '',
      ].join('\n'),
    );
    return file;
  }

  beforeAll(async () => {
    const data = await makeDataDir();
    removeDataDir = data.remove;
    await seedKeys(data.dataDir, { valid: [VALID_KEY], revoked: [REVOKED_KEY] });
    server = await startServerProcess(data.dataDir);
  });
  afterAll(async () => {
    await server?.stop();
    await removeDataDir?.();
  });

  it.each([
    ['/api/audit', 'the server certificate by --cacert'],
    ['/api/v1/audit', '--insecure'],
  ])('upload --lynis-profile P report.dat stores the fixture report (prefix %s, %s)', async (prefix, trust) => {
    const uploadOptions = trust === '--insecure' ? '--insecure' : `--cacert ${join(server.dataDir, 'tls-cert.pem')}`;
    const prf = await profile(`custom-${prefix.replaceAll('/', '_')}.prf`, VALID_KEY, prefix, uploadOptions);
    const result = await run(['upload', '--lynis-profile', prf, REPORT]);
    expect(result).toMatchObject({ code: 0, stderr: '1 of 1 reports stored\n' });
    const [id, file] = result.stdout.trimEnd().split('\t');
    expect(file).toBe(REPORT);
    const stored = (await storedReports(server.dataDir)).find((r) => r.id === id);
    expect(stored).toMatchObject({ hostId: HOST_ID, hostId2: HOST_ID2, encoding: 'raw', size: (await readFile(REPORT)).length });
  });

  it('exits 2 with a revoked key and stores nothing', async () => {
    const prf = await profile('revoked.prf', REVOKED_KEY, '/api/audit', '--insecure');
    const before = (await storedReports(server.dataDir)).length;
    const result = await run(['upload', '--lynis-profile', prf, REPORT]);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'The server refused the license key; nothing was uploaded.\n' });
    expect(await storedReports(server.dataDir)).toHaveLength(before);
    expect(await run(['license', '--lynis-profile', prf])).toMatchObject({ code: 2, stdout: 'invalid\n' });
  });

  it('license: takes the key from stdin, a file or the environment, and exits 0', async () => {
    const url = `${server.url}/api/audit`;
    const keyFile = join(server.dataDir, 'key.txt');
    await writeFile(keyFile, `${VALID_KEY}\n`);
    expect(await run(['license', '--url', url, '--insecure', '--key-stdin'], {}, `${VALID_KEY}\n`)).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });
    expect(await run(['license', '--url', url, '--insecure', '--key-file', keyFile])).toMatchObject({ code: 0, stdout: 'valid\n' });
    expect(await run(['license', '--insecure'], { AUDIT_URL: url, AUDIT_LICENSE_KEY: VALID_KEY })).toMatchObject({ code: 0, stdout: 'valid\n' });
  });

  it('exits 1 when the certificate is not trusted, saying why', async () => {
    const result = await run(['license', '--url', `${server.url}/api/audit`], { AUDIT_LICENSE_KEY: VALID_KEY });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^No answer from https:\/\/127\.0\.0\.1:\d+\/api\/audit\/license\/: self-signed certificate\n$/);
  });

  it('uploads a directory: stores the good reports, exits 3 for the one the server rejects', async () => {
    const folder = join(server.dataDir, 'reports');
    await mkdir(folder);
    for (const name of ['a.dat', 'b.dat', 'c.dat']) await copyFile(REPORT, join(folder, name));
    await writeFile(join(folder, 'broken.dat'), `hostid=${HOST_ID}\nthis line is not a pair\n`);
    const result = await run(['upload', '--url', `${server.url}/api/audit`, '--ca', join(server.dataDir, 'tls-cert.pem'), '--concurrency', '2', folder], {
      AUDIT_LICENSE_KEY: VALID_KEY,
    });
    expect(result.code).toBe(3);
    expect(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split('\t')[1])
        .sort(),
    ).toEqual(['a.dat', 'b.dat', 'c.dat'].map((n) => join(folder, n)));
    expect(result.stderr).toContain(`${join(folder, 'broken.dat')}: The server rejected the request (400): Invalid data: line 2`);
    expect(result.stderr).toMatch(/3 of 4 reports stored, 1 failed\n$/);
  });

  it('never printed a key', () => {
    expect(runs.length).toBeGreaterThan(5);
    for (const { stdout, stderr } of runs) {
      for (const key of [VALID_KEY, REVOKED_KEY]) expect(stdout + stderr).not.toContain(key);
    }
  });
});

describe('audit-client admin commands against the reference server: policies, waivers and webhooks created, changed and deleted', () => {
  const MISSING_ID = '00000000-0000-4000-8000-000000000000';
  let server: ServerProcess;
  let removeDataDir: () => Promise<void>;
  let env: Record<string, string>;
  const admin = (...args: string[]) => runClient(args, env);

  beforeAll(async () => {
    const data = await makeDataDir();
    removeDataDir = data.remove;
    const token = (await runCli(['admin-tokens', 'create', '--label', 'cli'], data.dataDir)).stdout.trim();
    // The admin API on a port of its own, so that the collectors' port can be asked for it too.
    server = await startServerProcess(data.dataDir, ['--plain-http', '--admin-listen', '127.0.0.1:0', '--webhook-allow-private']);
    env = { AUDIT_URL: server.adminUrl, AUDIT_ADMIN_TOKEN: token };
    await writeFile(
      join(data.dataDir, 'policy.json'),
      JSON.stringify({ name: 'Web', rules: [{ id: 'hardening-index', expression: 'summary.hardeningIndex >= 60' }] }),
    );
  });
  afterAll(async () => {
    await server?.stop();
    await removeDataDir?.();
  });

  it('policies: create, show, update (flags and a file), disable, enable and delete, each output checked', async () => {
    const created = await admin('policies', 'create', '--file', join(server.dataDir, 'policy.json'));
    expect(created).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^Created policy Web \(\S+\)\n$/) });
    const id = /\((\S+)\)/.exec(created.stdout)![1]!;

    const updated = await admin(
      'policies',
      'update',
      id,
      '--name',
      'Web servers',
      '--description',
      'the web tier',
      '--rule',
      'hardening-index=summary.hardeningIndex >= 70',
      '--rule',
      'no-warnings=size(summary.warnings) == 0',
      '--group',
      'webservers',
      '--hostname',
      'web-*',
    );
    expect(updated).toEqual({ code: 0, stdout: `Updated policy Web servers (${id})\n`, stderr: '' });
    const shown = await admin('policies', 'show', id);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toContain(
      `Policy       ${id}\nName         Web servers\nDescription  the web tier\nEnabled      yes\nScope        group=webservers hostname=web-*\n`,
    );
    expect(shown.stdout).toMatch(
      /\nRULE +PASS +FAIL +ERROR +WAIVED +EXPRESSION +DESCRIPTION\nhardening-index +0 +0 +0 +0 +summary.hardeningIndex >= 70 +-\nno-warnings +0 +0 +0 +0 +size\(summary.warnings\) == 0 +-\n$/,
    );

    const json = JSON.parse((await admin('policies', 'update', id, '--no-group', '--remove-rule', 'no-warnings', '--disable', '--json')).stdout);
    expect(json).toMatchObject({ id, name: 'Web servers', enabled: false, scope: { group: null, hostname: 'web-*' }, rules: [{ id: 'hardening-index' }] });
    await writeFile(join(server.dataDir, 'rename.json'), JSON.stringify({ name: 'Renamed', scope: {} }));
    expect(await admin('policies', 'update', id, '--file', join(server.dataDir, 'rename.json'), '--enable')).toMatchObject({
      code: 0,
      stdout: `Updated policy Renamed (${id})\n`,
    });
    expect(JSON.parse((await admin('policies', 'show', id, '--json')).stdout)).toMatchObject({ name: 'Renamed', enabled: true, scope: { hostname: null } });
    expect(await admin('policies', 'disable', id)).toEqual({ code: 0, stdout: `Disabled policy Renamed (${id})\n`, stderr: '' });
    expect(await admin('policies', 'update', id)).toMatchObject({ code: 1, stderr: expect.stringContaining('nothing to change') });
    expect(await admin('policies', 'update', id, '--rule', 'broken=summary.(')).toMatchObject({
      code: 3,
      stderr: expect.stringMatching(/^The server rejected the request \(400\): rule broken: /),
    });

    expect(await admin('policies', 'delete', id, '--json')).toEqual({ code: 0, stdout: `${JSON.stringify({ id, deleted: true }, null, 2)}\n`, stderr: '' });
    expect(await admin('policies', 'delete', id)).toEqual({ code: 5, stdout: '', stderr: `Not found (404): No policy with id ${id}\n` });
  });

  it('waivers: create for a group or the fleet, list by name, delete (a line on stderr, or JSON), then 404 once gone', async () => {
    const policy = JSON.parse((await admin('policies', 'create', '--file', join(server.dataDir, 'policy.json'), '--json')).stdout) as { id: string };
    const waiver = await admin('waivers', 'create', '--policy', policy.id, '--group', 'webservers', '--reason', 'OPS-1', '--days', '10', '--json');
    const { id, expiresAt } = JSON.parse(waiver.stdout) as { id: string; expiresAt: string };
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(9.9 * 86_400_000);
    const fleet = await admin('waivers', 'create', '--policy', policy.id, '--fleet', '--reason', 'OPS-2');
    expect(fleet).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Created waiver \S+ for every host, until \d{4}-\d{2}-\d{2} /) });
    const list = (await admin('waivers', 'list')).stdout;
    expect(list).toMatch(new RegExp(`^${id}  Web +every rule  group webservers  cli +\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC \\(soon\\)  OPS-1$`, 'm'));
    expect(list).toMatch(/ every host +cli +\S+ \S+ UTC +OPS-2$/m);
    expect(list).toContain('Waivers run for at most 365 days on this server.\n');
    expect(await admin('waivers', 'create', '--policy', policy.id, '--reason', 'x')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('give exactly one of --host, --group and --fleet'),
    });
    expect(await admin('waivers', 'create', '--policy', policy.id, '--fleet', '--reason', 'x', '--days', '400')).toMatchObject({
      code: 3,
      stderr: expect.stringContaining('a waiver may run for at most 365 days'),
    });
    expect(await admin('waivers', 'delete', id)).toEqual({ code: 0, stdout: '', stderr: `Deleted waiver ${id}\n` });
    expect(await admin('waivers', 'delete', id, '--json')).toEqual({ code: 5, stdout: '', stderr: `Not found (404): No waiver with id ${id}\n` });
    await admin('policies', 'delete', policy.id);
    expect((await admin('waivers', 'list', '--include-expired')).stdout).toBe(
      'ID  POLICY  RULE  COVERS  CREATED BY  EXPIRES  REASON\nWaivers run for at most 365 days on this server.\n',
    );
  });

  it('waivers bulk: by filters and by ids, an unknown host refusing them all', async () => {
    const policy = JSON.parse((await admin('policies', 'create', '--file', join(server.dataDir, 'policy.json'), '--json')).stdout) as { id: string };
    const none = await admin('waivers', 'bulk', '--policy', policy.id, '--rule', 'hardening-index', '--reason', 'OPS-3', '--group', 'nobody-here');
    expect(none).toEqual({ code: 0, stdout: 'Created 0 waivers for 0 hosts\n', stderr: '' });
    const unknown = await admin('waivers', 'bulk', '--policy', policy.id, '--reason', 'OPS-3', '--ids', MISSING_ID);
    expect(unknown).toEqual({ code: 5, stdout: '', stderr: `Not found (404): No host with id ${MISSING_ID}\n` });
    expect(await admin('waivers', 'bulk', '--policy', policy.id, '--reason', 'OPS-3', '--rule', 'nope', '--group', 'x')).toMatchObject({
      code: 3,
      stderr: expect.stringContaining('The policy has no rule nope'),
    });
    expect(await admin('waivers', 'bulk', '--policy', policy.id, '--reason', 'OPS-3')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('select hosts with --ids'),
    });
    expect((await admin('waivers', 'list', '--policy', policy.id)).stdout).toBe(
      'ID  POLICY  RULE  COVERS  CREATED BY  EXPIRES  REASON\nWaivers run for at most 365 days on this server.\n',
    );
    await admin('policies', 'delete', policy.id);
  });

  it('webhooks: create, show, update (the secret stays), disable and delete', async () => {
    const created = await admin(
      'webhooks',
      'create',
      '--to',
      'http://127.0.0.1:9/hook',
      '--event',
      'report.stored',
      '--description',
      'chat',
      '--stale-days',
      '3',
      '--json',
    );
    const { webhook } = JSON.parse(created.stdout) as { webhook: { id: string; secretPrefix: string } };
    const { id } = webhook;
    expect((await admin('webhooks', 'show', id)).stdout).toMatch(
      new RegExp(`^Webhook +${id}\nURL +http://127.0.0.1:9/hook\nDescription +chat\nEvents +report.stored\nFormat +standard\nEnabled +yes\nStale days +3\n`),
    );
    const updated = await admin(
      'webhooks',
      'update',
      id,
      '--to',
      'http://127.0.0.1:9/other',
      '--event',
      'host.stale',
      'host.regressed',
      '--format',
      'slack',
      '--disable',
    );
    expect(updated).toEqual({ code: 0, stdout: `Updated webhook ${id} (disabled)\n`, stderr: '' });
    const shown = JSON.parse((await admin('webhooks', 'show', id, '--json')).stdout);
    expect(shown).toMatchObject({
      url: 'http://127.0.0.1:9/other',
      events: ['host.stale', 'host.regressed'],
      format: 'slack',
      enabled: false,
      description: 'chat',
      staleDays: 3,
      secretPrefix: webhook.secretPrefix,
    });
    expect(JSON.parse((await admin('webhooks', 'update', id, '--no-description', '--enable', '--json')).stdout)).toMatchObject({
      description: null,
      enabled: true,
    });
    expect(await admin('webhooks', 'update', id)).toMatchObject({ code: 1, stderr: expect.stringContaining('nothing to change') });
    expect(await admin('webhooks', 'delete', id)).toEqual({ code: 0, stdout: '', stderr: `Deleted webhook ${id}\n` });
    expect(await admin('webhooks', 'show', id)).toEqual({ code: 5, stdout: '', stderr: `Not found (404): No webhook with id ${id}\n` });
  });

  it('compliance and whoami: a host without results, and the token signed in with (never the token)', async () => {
    expect(await admin('compliance', MISSING_ID)).toEqual({ code: 5, stdout: '', stderr: `Not found (404): No host with id ${MISSING_ID}\n` });
    const whoami = await admin('whoami');
    expect(whoami).toMatchObject({ code: 0, stderr: '', stdout: expect.stringMatching(/^Admin token +\S+\nLabel +cli\nPrefix +adm_\S+\n$/) });
    expect(whoami.stdout).not.toContain(env.AUDIT_ADMIN_TOKEN);
  });

  it.each([
    [['policies', 'update', 'web', '--name', 'x'], 'policy-id'],
    [['waivers', 'delete', '12'], 'waiver-id'],
    [['webhooks', 'update', 'not-an-id', '--enable'], 'webhook-id'],
    [['webhooks', 'delete', `${MISSING_ID}x`], 'webhook-id'],
    [['waivers', 'bulk', '--policy', MISSING_ID, '--reason', 'x', '--ids', `${MISSING_ID},web-01`], 'ids'],
  ])('%j: refuses an id that is no UUID before sending, naming the argument; exit 3', async (args, name) => {
    const requests = () => server.logs.filter((line) => line.includes('/api/admin/')).length;
    const before = requests();
    const result = await admin(...args);
    expect(result.code).toBe(3);
    const refusal = name === 'ids' ? `option '--ids <ids>' argument '${args.at(-1)}' is invalid.` : `is invalid for argument '${name}'.`;
    expect(result.stderr).toContain(`${refusal} must be an id as the ID column of the tables shows it`);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the request log arrives through a pipe
    expect(requests()).toBe(before);
  });

  it("says where the admin API is when pointed at the collectors' port", async () => {
    const result = await runClient(['policies', 'list'], { ...env, AUDIT_URL: server.url });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining(`${server.url} answers Lynis uploads, not the admin API (an audit server's collectors' or operations port`),
    });
    expect(result.stderr).toContain('--admin-listen');
    expect(result.stderr).toContain('docs/client.md');
  });
});

describe('audit-client against the Prism mock', () => {
  let mock: PrismProcess;
  beforeAll(async () => {
    mock = await startPrism('mock');
  });
  afterAll(() => mock?.stop());

  it.each(['/api/audit', '/api/v1/audit'])('checks the key and uploads, reading the example answers (%s)', async (prefix) => {
    const env = { AUDIT_URL: `${mock.url}${prefix}`, AUDIT_LICENSE_KEY: VALID_KEY };
    expect(await runClient(['license'], env)).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });
    expect(await runClient(['upload', REPORT], env)).toEqual({
      code: 0,
      stdout: `0f8fad5b-d9cb-469f-a165-70867728950e\t${REPORT}\n`,
      stderr: '1 of 1 reports stored\n',
    });
  });
});

describe('audit-client against a server that rate-limits', () => {
  let stub: StubServer;
  let url: string;
  let uploads: number;
  let limitedAnswers: number;

  beforeAll(async () => {
    // Answers the license check, then 429 with Retry-After: 1 to the first `limitedAnswers` uploads.
    stub = await startStubServer((request): StubReply => {
      if (request.url.endsWith('/license/')) return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'Response 100' };
      uploads++;
      if (uploads <= limitedAnswers) return { status: 429, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'Too many requests' };
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: `OK id-${uploads}` };
    });
    url = `${stub.url}/api/audit`;
  });
  afterAll(() => stub.close());

  it('retries after Retry-After and succeeds: exit 0', async () => {
    uploads = 0;
    limitedAnswers = 2;
    const result = await runClient(['upload', '--url', url, REPORT], { AUDIT_LICENSE_KEY: VALID_KEY });
    expect(result).toMatchObject({ code: 0, stdout: `id-3\t${REPORT}\n` });
    expect(uploads).toBe(3);
  });

  it('exits 4 when still rate limited after the retries', async () => {
    uploads = 0;
    limitedAnswers = 100;
    const result = await runClient(['upload', '--url', url, '--retries', '1', REPORT], { AUDIT_LICENSE_KEY: VALID_KEY });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('The server is rate limiting requests (429); retry after 1 s');
    expect(uploads).toBe(2);
  });
});

const ADMIN_TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

describe('audit-client admin commands against the Prism mock', () => {
  let mock: PrismProcess;
  let env: Record<string, string>;
  const runs: CommandRun[] = [];
  const run = async (args: string[], extraEnv: Record<string, string> = {}) => {
    const result = await runClient(args, { ...env, ...extraEnv });
    runs.push(result);
    return result;
  };

  beforeAll(async () => {
    mock = await startPrism('mock');
    env = { AUDIT_URL: mock.url, AUDIT_ADMIN_TOKEN: ADMIN_TOKEN };
  });
  afterAll(() => mock?.stop());

  it('hosts: a table of the page, and how many there are', async () => {
    const result = await run(['hosts', '--hostname', 'web', '--limit', '10', '--offset', '0']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [heading, row, paging] = result.stdout.split('\n');
    expect(heading!.split(/\s{2,}/)).toEqual([
      'ID',
      'HOSTNAME',
      'HOST ID',
      'OS',
      'INDEX',
      'WARNINGS',
      'REPORTS',
      'LAST SEEN',
      'STATE',
      'GROUPS',
      'TAGS',
      'IDENTITY',
    ]);
    expect(row!.split(/\s{2,}/)).toEqual([
      EXAMPLE_ID,
      'web-01',
      HOST_ID,
      'Debian GNU/Linux 12 (bookworm)',
      '56',
      '1',
      '22',
      '2026-11-22 13:41:25 UTC',
      'active',
      'webservers',
      'production',
      'changed',
    ]);
    expect(paging).toBe('hosts 1-1 of 1');
  });

  it('hosts: filters by group, tag, OS, finding and days without a report, sorted; the mock checks each against the contract', async () => {
    const result = await run([
      'hosts',
      '--group',
      'webservers',
      '--tag',
      'production',
      '--os',
      'Debian GNU/Linux 12 (bookworm)',
      '--finding',
      'PKGS-7392',
      '--finding-kind',
      'warning',
      '--stale-days',
      '7',
      '--sort',
      'hardeningIndex',
      '--order',
      'asc',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.split('\n')[2]).toBe('hosts 1-1 of 1');
    expect(await run(['hosts', '--sort', 'index'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Allowed choices are lastSeen, hostname, hardeningIndex, warnings'),
    });
    expect(await run(['hosts', '--finding-kind', 'warning'])).toEqual({ code: 1, stdout: '', stderr: '--finding-kind needs --finding\n' });
    expect(await run(['hosts', '--stale-days', '7', '--seen-before', '2026-11-01'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('cannot be used with'),
    });
  });

  it('overview: the fleet at a glance as text, or the API answer with --json', async () => {
    const result = await run(['overview', '--stale-days', '14']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      /^Generated {8}2026-11-23 10:00:00 UTC\nHosts {12}512: 480 seen in the last 24 h, 505 in the last 7 days, 7 stale \(no report for 7 days\); 3 decommissioned, not counted\n/,
    );
    expect(result.stdout).toContain('\nHardening index  average 64.2, median 65 (2 hosts without one)\n');
    expect(result.stdout).toContain('Top warnings (hosts affected):\n  HOSTS  TEST ID    TEXT\n  12     PKGS-7392  Found one or more vulnerable packages.\n');
    expect(result.stdout).toContain(
      `Stale hosts (no report for 7 days), seen longest ago:\n  ID                                    HOSTNAME  LAST SEEN\n  ${EXAMPLE_ID}  web-01    2026-11-22 13:41:25 UTC\n`,
    );
    expect(JSON.parse((await run(['overview', '--json'])).stdout)).toMatchObject({ staleDays: 7, hosts: { total: 512 } });
    expect(await run(['overview', '--stale-days', '0'])).toMatchObject({ code: 1, stderr: expect.stringContaining('must be a whole number of at least 1') });
  });

  it('findings: the warnings and suggestions across the fleet, filtered by kind and test id', async () => {
    const result = await run(['findings', '--kind', 'warning', '--test-id', 'PKGS-7392', '--limit', '10']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('KIND     TEST ID    HOSTS  TEXT\nwarning  PKGS-7392  12     Found one or more vulnerable packages.\nfindings 1-1 of 1\n');
    expect(JSON.parse((await run(['findings', '--json'])).stdout)).toMatchObject({ total: 1, items: [{ testId: 'PKGS-7392', hosts: 12 }] });
    expect(await run(['findings', '--kind', 'error'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Allowed choices are warning, suggestion') });
  });

  it('--json prints the API answer for tooling', async () => {
    const result = await run(['hosts', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 1, limit: 50, offset: 0, items: [{ id: EXAMPLE_ID, hostname: 'web-01' }] });
    expect(JSON.parse((await run(['keys', 'list', '--json'])).stdout)).toMatchObject({ items: [{ prefix: '3f9a2c1e' }] });
  });

  it('rejections: the refused uploads as a table, filters passed on, --json for tooling', async () => {
    const result = await run(['rejections', '--since', '2026-11-01', '--reason', 'invalid-key', '--host-id', HOST_ID, '--key-id', EXAMPLE_ID]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [heading, row, paging] = result.stdout.split('\n');
    expect(heading!.split(/\s{2,}/)).toEqual(['DAY', 'OPERATION', 'REASON', 'HOST ID', 'KEY ID', 'COUNT', 'LAST REFUSED', 'ADDRESSES']);
    expect(row!.split(/\s{2,}/)).toEqual(['2026-11-22', 'upload', 'invalid-key', HOST_ID, EXAMPLE_ID, '3', '2026-11-22 13:41:25 UTC', '203.0.113.7']);
    expect(paging).toBe('refusals 1-1 of 1');
    const json = await run(['rejections', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ total: 1, items: [{ hostId: HOST_ID, reason: 'invalid-key', count: 3, folded: false }] });
    expect(await run(['rejections', '--since', 'yesterday'])).toMatchObject({ code: 1, stderr: expect.stringContaining('must be a day') });
  });

  it('host: its fields and its hardening history', async () => {
    const result = await run(['host', EXAMPLE_ID, '--history', '5']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Host {13}0f8fad5b-d9cb-469f-a165-70867728950e\nHostname {9}web-01\n/);
    expect(result.stdout).toContain('\nHardening index  56\n');
    expect(result.stdout).toContain(`Hardening index, newest first:\nRECEIVED                 INDEX  REPORT\n2026-11-22 13:41:25 UTC  56     ${EXAMPLE_ID}\n`);
  });

  it('reports and report: the list, the summary with every finding, and the raw text', async () => {
    const list = await run(['reports', '--host', EXAMPLE_ID, '--key-id', EXAMPLE_ID]);
    expect(list.stdout.split('\n')[1]!.split(/\s{2,}/)).toEqual([EXAMPLE_ID, '2026-11-22 13:41:25 UTC', 'web-01', '56', '1', '2', '42733']);
    const detail = await run(['report', EXAMPLE_ID]);
    expect(detail.code).toBe(0);
    expect(detail.stdout).toContain('OS               Debian GNU/Linux 12 (bookworm), kernel 6.1.0-28-amd64\n');
    expect(detail.stdout).toContain("Audit started    2026-11-22 13:40:33 (host's local time)\n");
    expect(detail.stdout).toContain('Warnings (1):\n  PKGS-7392  Found one or more vulnerable packages.\n');
    expect(detail.stdout).toContain('Suggestions (2):\n  DEB-0280  Install libpam-tmpdir');
    expect(detail.stdout).toContain('  SSH-7408  Consider hardening SSH configuration\n            details: AllowTcpForwarding (set YES to NO)\n');
    const raw = await run(['report', EXAMPLE_ID, '--raw']);
    expect(raw).toMatchObject({ code: 0, stderr: '' });
    expect(raw.stdout).toMatch(/^# Lynis Report\n[^]*\nlicense_key=\[redacted\]\n[^]*\nhardening_index=56\n$/);
    expect(await run(['report', EXAMPLE_ID, '--raw', '--json'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("'--raw' cannot be used with option '--json'"),
    });
  });

  it('diff: every change since the previous report, one line each, or the JSON answer', async () => {
    const diff = await run(['diff', EXAMPLE_ID]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain(`After   ${EXAMPLE_ID}`);
    expect(diff.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        '~ hardening index 64 -> 61',
        '+ warning FIRE-4512: iptables module(s) loaded, but no rules active',
        '- suggestion DEB-0280: Install libpam-tmpdir to set $TMP and $TMPDIR for PAM sessions',
        '- vulnerable package jq',
        '~ package openssl 3.0.15-1~deb12u1 -> 3.0.17-1~deb12u2',
        '~ firewall_active: 1 -> 0',
      ]),
    );
    expect(JSON.parse((await run(['diff', EXAMPLE_ID, '--against', EXAMPLE_ID, '--json'])).stdout)).toMatchObject({ afterReportId: EXAMPLE_ID });
  });

  it('keys create and rotate print the license key alone on stdout, once; what it is goes to stderr', async () => {
    const created = await run(['keys', 'create', '--label', 'web servers', '--expires', '2027-11-01']);
    expect(created).toEqual({
      code: 0,
      stdout: '3f9a2c1e-5b7d4e8f-0a1b2c3d-4e5f6a7b-8c9d0e1f-2a3b4c5d\n',
      stderr:
        'Created license key 7c9e6679-7425-40de-944b-e07fc1f90ae7 (prefix 3f9a2c1e, label web servers, expires 2027-11-01 00:00:00 UTC).\n' +
        'The key is shown only now; give it to the hosts (license-key= in their Lynis profile):\n',
    });
    const rotated = await run(['keys', 'rotate', EXAMPLE_ID, '--grace', '3600']);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toBe('8d2b4f60-1e3a5c7b-9d0f2e4a-6b8c0d1e-3f5a7b9c-0d2e4f6a\n');
    expect(rotated.stderr).toContain(`The old key ${EXAMPLE_ID} works until 2026-11-24 09:00:00 UTC.\n`);
    expect(JSON.parse((await run(['keys', 'create', '--json'])).stdout)).toMatchObject({ licenseKey: expect.any(String), key: { state: 'valid' } });
  });

  it('keys revoke and keys list: the keys as a table', async () => {
    const revoked = await run(['keys', 'revoke', EXAMPLE_ID]);
    expect(revoked.code).toBe(0);
    expect(
      revoked.stdout
        .split('\n')[1]!
        .split(/\s{2,}/)
        .slice(0, 4),
    ).toEqual([EXAMPLE_ID, '3f9a2c1e', 'revoked', 'web servers']);
    const list = await run(['keys', 'list']);
    expect(list.stdout.split('\n')[0]!.split(/\s{2,}/)).toEqual([
      'ID',
      'PREFIX',
      'STATE',
      'LABEL',
      'CREATED',
      'EXPIRES',
      'LAST USED',
      'LAST UPLOAD',
      'NEW HOSTS/DAY',
      'MAX HOSTS',
    ]);
  });

  it("keys set and create: a key's quotas of hosts, checked before anything is sent", async () => {
    const set = await run(['keys', 'set', EXAMPLE_ID, '--new-hosts-per-day', '500', '--max-hosts', 'none']);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(
      set.stdout
        .split('\n')[1]!
        .split(/\s{2,}/)
        .slice(-2),
    ).toEqual(['500', '2000']); // the contract's example answer
    expect(await run(['keys', 'create', '--new-hosts-per-day', '20', '--max-hosts', '100'])).toMatchObject({ code: 0 });
    expect(await run(['keys', 'set', EXAMPLE_ID])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'give --new-hosts-per-day, --max-hosts, --expires or --no-expiry\n',
    });
    expect(await run(['keys', 'set', EXAMPLE_ID, '--max-hosts', 'lots'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('must be a whole number or "none"'),
    });
  });

  it("keys set: a key's expiry set or removed, checked before anything is sent", async () => {
    const set = await run(['keys', 'set', EXAMPLE_ID, '--expires', '2027-11-01']);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toContain('2027-11-01'); // the contract's example answer
    expect(await run(['keys', 'set', EXAMPLE_ID, '--no-expiry', '--json'])).toMatchObject({ code: 0, stderr: '' });
    expect(await run(['keys', 'set', EXAMPLE_ID, '--expires', '2027-11-01', '--no-expiry'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'give --expires or --no-expiry, not both\n',
    });
    expect(await run(['keys', 'set', EXAMPLE_ID, '--expires', 'soon'])).toMatchObject({ code: 1, stdout: '' });
  });

  it('host and accept-identity: a flagged identity change, accepted in one command', async () => {
    const host = await run(['host', EXAMPLE_ID]);
    expect(host.stdout).toMatch(
      /\nIdentity change +hostid2 0123456789abcdef\S+ → fedcba9876543210\S+ at 2026-11-22 13:41:25 UTC \(audit-client accept-identity\)\n/,
    );
    const accepted = await run(['accept-identity', EXAMPLE_ID, 'fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210']);
    expect(accepted).toMatchObject({ code: 0, stderr: '' });
    expect(accepted.stdout).toMatch(/^Accepted hostid2 \S+ for host 0f8fad5b-d9cb-469f-a165-70867728950e\.\n$/);
  });

  it('takes the token from --admin-token-file and the API URL uploads use; a query the server refuses exits 3', async () => {
    const dir = await makeDataDir();
    try {
      const tokenFile = join(dir.dataDir, 'admin-token');
      await writeFile(tokenFile, `${ADMIN_TOKEN}\n`);
      const result = await run(['keys', 'list', '--url', `${mock.url}/api/audit`, '--admin-token-file', tokenFile], { AUDIT_ADMIN_TOKEN: '' });
      expect(result).toMatchObject({ code: 0, stderr: '' });
    } finally {
      await dir.remove();
    }
    expect(await run(['hosts', '--limit', '501'])).toMatchObject({ code: 3, stderr: 'The server rejected the request (400): limit: must be <= 500\n' });
  });

  it('exits 1 without an admin token, or with an argument it cannot use, before sending anything', async () => {
    expect(await run(['hosts'], { AUDIT_ADMIN_TOKEN: '' })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No admin token: use --admin-token-file FILE, AUDIT_ADMIN_TOKEN_FILE or AUDIT_ADMIN_TOKEN\n',
    });
    expect(await run(['keys', 'create', '--expires', 'next week'])).toMatchObject({ code: 1, stderr: expect.stringContaining('must be a date') });
    expect(await run(['hosts', '--limit', '0'])).toMatchObject({ code: 1, stderr: expect.stringContaining('must be a whole number of at least 1') });
  });

  it('never printed the admin token', () => {
    expect(runs.length).toBeGreaterThan(10);
    for (const { stdout, stderr } of runs) expect(stdout + stderr).not.toContain(ADMIN_TOKEN);
  });
});

describe('audit-client admin commands against a server that refuses', () => {
  let stub: StubServer;
  let url: string;

  beforeAll(async () => {
    // Answers like the contract: 401 for any other token, 404 for any host, 409 for any rotation, else an empty page.
    const problem = (status: number, title: string, detail: string) => ({
      status,
      headers: { 'content-type': 'application/problem+json' },
      body: JSON.stringify({ type: 'about:blank', title, status, detail }),
    });
    stub = await startStubServer((request) => {
      if (request.headers.authorization !== `Bearer ${ADMIN_TOKEN}`) return problem(401, 'Unauthorized', `Unknown token ${request.headers.authorization}`);
      if (request.url.startsWith('/api/admin/hosts/')) return problem(404, 'Not Found', `No host with id ${request.url.split('/')[4]}`);
      if (request.url.endsWith('/rotate')) return problem(409, 'Conflict', 'The key is already revoked or expired');
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [], total: 0, limit: 50, offset: 0 }) };
    });
    url = stub.url;
  });
  afterAll(() => stub.close());

  it.each([
    { args: ['hosts'], token: 'adm_wrong', code: 2, stderr: 'The server refused the admin token (401: missing, unknown or revoked)\n' },
    { args: ['host', EXAMPLE_ID], token: ADMIN_TOKEN, code: 5, stderr: `Not found (404): No host with id ${EXAMPLE_ID}\n` },
    {
      args: ['keys', 'rotate', EXAMPLE_ID],
      token: ADMIN_TOKEN,
      code: 3,
      stderr: 'The server refused the request as conflicting with the current state (409): The key is already revoked or expired\n',
    },
  ])('$args exits $code', async ({ args, token, code, stderr }) => {
    const result = await runClient(args, { AUDIT_URL: url, AUDIT_ADMIN_TOKEN: token });
    expect(result).toEqual({ code, stdout: '', stderr });
    expect(result.stderr).not.toContain(token);
  });

  it('says so when there are no reports', async () => {
    expect(await runClient(['reports'], { AUDIT_URL: url, AUDIT_ADMIN_TOKEN: ADMIN_TOKEN })).toEqual({ code: 0, stdout: 'No reports.\n', stderr: '' });
  });
});
