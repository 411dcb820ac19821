// `audit-client`, the built CLI, against the reference server as a process: a host's tracked findings listed
// (`hosts findings`), one acknowledged for another person with a due day, one accepted with an approver, the
// fleet's listed by state, one reopened, and `--owner me` refused for a token in the server's words.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { runNodeScript, type CommandRun } from '@org/test-support/node-script';
import { reportAs } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';
import { until } from './support/until.js';

const CLIENT_CLI = fileURLToPath(new URL('../packages/client/bin/audit-client.js', import.meta.url));
const HOST_ID = '6666666666666666666666666666666666666666';

interface Tracked {
  id: string;
  testId: string;
  kind: string;
  state: string;
}

let server: ServerProcess;
let removeDataDir: () => Promise<void>;
let env: Record<string, string>;
let hostRecordId: string;
let graceId: string;

const client = (...args: string[]): Promise<CommandRun> => runNodeScript(CLIENT_CLI, args, { PATH: process.env.PATH!, ...env });
const json = async <T>(...args: string[]): Promise<T> => {
  const run = await client(...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
};

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  await importKey(orm, lynisCapture.key, { label: 'fleet' });
  const { token } = await createAdminToken(orm, { label: 'cli findings' });
  await orm.close();
  server = await startServerProcess(data.dataDir, ['--plain-http']);
  env = { AUDIT_URL: server.url, AUDIT_ADMIN_TOKEN: token };
  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  const grace = await admin('/api/admin/users', { method: 'POST', body: JSON.stringify({ email: 'grace@example.org', role: 'operator' }) });
  graceId = ((await grace.json()) as { id: string }).id;
  const text = reportAs(HOST_ID, 'web-06', 64, ['TELN-0001|Telnet enabled|-|-|']);
  const upload = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: text, licensekey: lynisCapture.key, hostid: HOST_ID }),
  });
  expect(upload.status).toBe(200);
  hostRecordId = ((await (await admin('/api/admin/hosts?hostname=web-06')).json()) as { items: { id: string }[] }).items[0]!.id;
  await until(
    async () => (((await (await admin(`/api/admin/hosts/${hostRecordId}/findings`)).json()) as { items: unknown[] }).items ?? []).length > 0,
    'the findings tracked',
    15_000,
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await removeDataDir?.();
});

it("lists a host's findings, acknowledges, accepts and reopens them, and lists the fleet's by state", async () => {
  const listed = await client('hosts', 'findings', hostRecordId);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toMatch(/^ID +KIND +TEST +STATE +OWNER +DUE +FIRST SEEN +FINDING\n/);
  expect(listed.stdout).toMatch(/\n[0-9a-f-]{36} +warning +TELN-0001 +open +- +- +\d{4}-\d{2}-\d{2} +Telnet enabled\n/);
  const { items } = await json<{ items: Tracked[] }>('hosts', 'findings', hostRecordId);
  const telnet = items.find((finding) => finding.testId === 'TELN-0001')!;
  const suggestion = items.find((finding) => finding.kind === 'suggestion')!;

  const acknowledged = await client('findings', 'acknowledge', telnet.id, '--owner', graceId, '--due', '2027-01-15');
  expect(acknowledged.code, acknowledged.stderr).toBe(0);
  expect(acknowledged.stdout).toMatch(/^State +acknowledged since /m);
  expect(acknowledged.stdout).toMatch(/^Owner +grace@example\.org$/m);
  expect(acknowledged.stdout).toMatch(/^Due +2027-01-15 00:00:00 UTC$/m);

  const accepted = await client('findings', 'accept', suggestion.id, '--reason', 'Kept until the migration', '--expires', '2027-03-31', '--approver', graceId);
  expect(accepted.code, accepted.stderr).toBe(0);
  expect(accepted.stdout).toMatch(/^Accepted because +Kept until the migration$/m);
  expect(accepted.stdout).toMatch(/^Approved by +grace@example\.org$/m);

  const handled = await client('findings', 'tracked', '--state', 'acknowledged,accepted');
  expect(handled.code, handled.stderr).toBe(0);
  expect(handled.stdout).toMatch(/^ID +HOST +KIND +TEST +STATE +OWNER /);
  expect(handled.stdout).toContain(' web-06 ');
  expect(handled.stdout).toMatch(/ acknowledged +grace@example\.org +2027-01-15 /);
  expect(handled.stdout).toContain(' accepted until 2027-03-31 ');
  expect(handled.stdout).toMatch(/\nfindings 1-2 of 2\n$/);
  expect((await json<{ items: Tracked[] }>('findings', 'tracked', '--owner', graceId)).items.map((finding) => finding.testId)).toEqual(['TELN-0001']);

  const reopened = await client('findings', 'reopen', suggestion.id);
  expect(reopened.code, reopened.stderr).toBe(0);
  expect(reopened.stdout).toMatch(/^State +open since /m);
  expect(reopened.stdout).not.toContain('Accepted because');
});

it("refuses --owner me for a token, in the server's words, and a wrong state before sending", async () => {
  const mine = await client('findings', 'tracked', '--owner', 'me');
  expect(mine.code).toBe(3);
  expect(mine.stderr).toContain('a token has no findings of its own');
  expect(await client('findings', 'tracked', '--state', 'closed')).toMatchObject({
    code: 1,
    stderr: expect.stringContaining('must be states separated by commas'),
  });
});
