// `audit-server hosts list` and `hosts show`, the built CLI straight on the database, after real uploads: the
// table, the filters, the page line, the host's fields and hardening history, and the admin API's JSON with --json.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { makeDataDir, runCli, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';

const KEY = 'deadbeef-0000-0000-0000-00000000b057';
const fixture = readFileSync(lynisFixturePath('report.dat'), 'utf8');

let dataDir: string;
let removeDataDir: () => Promise<void>;
let server: ServerProcess;

/** Uploads the fixture report under another host name, with the profile's groups and tags, as Lynis would. */
async function upload(hostId: string, hostname: string, labels: string): Promise<void> {
  const report = fixture.replace(/^hostname=.*$/m, `hostname=${hostname}`) + labels;
  const answer = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: report, licensekey: KEY, hostid: hostId, hostid2: 'x' }),
  });
  expect(answer.status).toBe(200);
}

beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  await seedKeys(dataDir, { valid: [KEY] });
  server = await startServerProcess(dataDir, ['--plain-http']);
  await upload('host-web', 'web-01', 'system-groups=webservers\ntags=prod\n');
  // A host name from a report is hostile text: a terminal escape in it is shown as `?`.
  await upload('host-db', 'db-\u001b[31m01', 'system-groups=databases\n');
});
afterAll(async () => {
  await server?.stop();
  await removeDataDir?.();
});

const hosts = (...args: string[]) => runCli(['hosts', ...args], dataDir);

it('hosts list: a table of the hosts, newest first, with the page line; filters by host name, group and tag', async () => {
  const listed = await hosts('list');
  expect(listed).toMatchObject({ code: 0, stderr: '' });
  const [heading, ...lines] = listed.stdout.split('\n');
  expect(heading!.split(/\s{2,}/)).toEqual(['ID', 'HOSTNAME', 'HOST ID', 'OS', 'INDEX', 'WARNINGS', 'REPORTS', 'LAST SEEN', 'GROUPS', 'TAGS']);
  // Both uploads may share a millisecond, so the rows are compared without their order.
  const rows = lines.slice(0, 2).map((line) => line.split(/\s{2,}/).slice(1));
  expect(rows).toContainEqual(['db-?[31m01', 'host-db', 'Debian GNU/Linux 12 (bookworm)', '56', '2', '1', expect.any(String), 'databases', '-']);
  expect(rows).toContainEqual(['web-01', 'host-web', 'Debian GNU/Linux 12 (bookworm)', '56', '2', '1', expect.any(String), 'webservers', 'prod']);
  const page = lines[2];
  expect(page).toBe('hosts 1-2 of 2');

  expect((await hosts('list', '--group', 'webservers')).stdout).toMatch(/\n\S+\s+web-01\s[^\n]+\nhosts 1-1 of 1\n$/);
  expect((await hosts('list', '--tag', 'prod', '--hostname', 'WEB')).stdout).toMatch(/\n\S+\s+web-01\s[^\n]+\nhosts 1-1 of 1\n$/);
  expect(await hosts('list', '--tag', 'staging')).toEqual({ code: 0, stdout: 'No hosts.\n', stderr: '' });
  expect((await hosts('list', '--limit', '1')).stdout).toMatch(/\nhosts 1-1 of 2; next page: --offset 1\n$/);
  expect(await hosts('list', '--limit', '501')).toMatchObject({ code: 1, stderr: 'audit-server: --limit must be from 1 to 500\n' });
});

it('hosts list --json and hosts show --json: the admin API answers, control characters as they are', async () => {
  const page = JSON.parse((await hosts('list', '--json', '--hostname', 'db-')).stdout);
  expect(page).toMatchObject({ total: 1, limit: 50, offset: 0, items: [{ hostname: 'db-\u001b[31m01', hostId: 'host-db', groups: ['databases'] }] });
  const detail = JSON.parse((await hosts('show', page.items[0].id, '--json')).stdout);
  expect(detail).toMatchObject({ id: page.items[0].id, hostname: 'db-\u001b[31m01', hardeningHistory: [{ hardeningIndex: 56 }] });
});

it("hosts show: the host's fields and its hardening history; a bad or unknown id exits 1, saying so", async () => {
  const page = JSON.parse((await hosts('list', '--json', '--group', 'webservers')).stdout);
  const { id, latestReportId } = page.items[0];
  const shown = await hosts('show', id);
  expect(shown).toMatchObject({ code: 0, stderr: '' });
  expect(shown.stdout).toMatch(new RegExp(`^Host +${id}\nHostname +web-01\nHost ID +host-web\nHost ID 2 +x\nGroups +webservers\nTags +prod\n`));
  expect(shown.stdout).toContain(`\nHardening index, newest first:\n  `);
  expect(shown.stdout).toMatch(new RegExp(`\n  \\S+Z +56  ${latestReportId}\n$`));
  expect(await hosts('show', 'web-01')).toMatchObject({
    code: 1,
    stdout: '',
    stderr: 'audit-server: web-01 is not a host id: give the ID column of hosts list (a UUID)\n',
  });
  const missing = '00000000-0000-4000-8000-000000000000';
  expect(await hosts('show', missing)).toMatchObject({ code: 1, stdout: '', stderr: `audit-server: No host with id ${missing}\n` });
});
