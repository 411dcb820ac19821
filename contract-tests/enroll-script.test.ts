// The one-line enroll command, for real: run as root on this Debian machine against the server's HTTPS intake with
// its self-signed certificate, it points the Debian package of Lynis at the server and schedules the daily audit,
// whose run uploads a report under the enrollment; it changes nothing when run again, and removes what it added with
// --uninstall. The machine is restored as found afterwards.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdMachineLynis } from './support/machine-lynis.js';
import { logLine, makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

/** What the script may touch, saved before and put back after, whatever happens. */
const SAVED_DIRS = ['/etc/lynis', '/etc/cron.d'];
const SAVED_FILES = [
  '/etc/systemd/system/audit-collector-lynis.service',
  '/etc/systemd/system/audit-collector-lynis.timer',
  '/var/log/lynis.log',
  '/var/log/lynis-report.dat',
];
/** The files the script manages on a host without systemd (this machine's case is checked below). */
const MANAGED = ['/etc/lynis/custom.prf', '/etc/lynis/audit-collector.pem', '/etc/lynis/hostids', '/etc/lynis/audit-collector-enrollment.state'];
const SYSTEMD = existsSync('/run/systemd/system');
const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const SCHEDULE = SYSTEMD
  ? ['/etc/systemd/system/audit-collector-lynis.service', '/etc/systemd/system/audit-collector-lynis.timer']
  : ['/etc/cron.d/audit-collector-lynis'];

let backup: string;
let server: ServerProcess;
let removeDataDir: () => Promise<void>;
let adminToken: string;
let ca: string;

function requireRootAndLynis(): void {
  if (process.getuid?.() !== 0) throw new Error('The enroll script test runs the script for real and must run as root (CI does).');
  const lynis = spawnSync('sh', ['-c', 'command -v lynis || ls /usr/sbin/lynis'], { encoding: 'utf8' }).stdout.trim();
  if (!lynis) throw new Error('Lynis is not installed: run `apt-get install -y lynis` (.ci/run does). This test needs the real client.');
  for (const tool of ['curl', 'sudo']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
      throw new Error(`${tool} is not installed: run \`apt-get install -y ${tool}\` (.ci/run does).`);
  }
}

async function saveMachine(): Promise<void> {
  backup = await mkdtemp(join(tmpdir(), 'enroll-machine-'));
  for (const [i, path] of [...SAVED_DIRS, ...SAVED_FILES].entries()) {
    if (existsSync(path)) await cp(path, join(backup, String(i)), { recursive: true, preserveTimestamps: true });
  }
}

async function restoreMachine(): Promise<void> {
  if (!backup) return;
  for (const [i, path] of [...SAVED_DIRS, ...SAVED_FILES].entries()) {
    await rm(path, { recursive: true, force: true });
    const saved = join(backup, String(i));
    if (existsSync(saved)) await cp(saved, path, { recursive: true, preserveTimestamps: true });
  }
  await rm(backup, { recursive: true, force: true });
}

/** An admin API call over HTTPS to `localhost` (a name the self-signed certificate holds), trusting that certificate. */
function admin<T>(method: string, path: string, body?: unknown, port = server.port): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port,
        // A connection of its own: a kept-alive one the server closes as idle while Lynis runs could be reused
        // just as it goes (socket hang up).
        agent: false,
        method,
        path,
        ca,
        headers: { host: `localhost:${port}`, authorization: `Bearer ${adminToken}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: (text ? JSON.parse(text) : undefined) as T }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs a shell command line as an operator would paste it. */
function shell(command: string, timeoutMs = 600_000) {
  const result = spawnSync('sh', ['-c', command], {
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/sbin` },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Content digest and modification time of each managed file that exists. */
async function snapshot(paths: string[]): Promise<Record<string, { sha256: string; mtimeMs: number } | null>> {
  const entries = await Promise.all(
    paths.map(async (path) =>
      existsSync(path)
        ? [
            path,
            {
              sha256: createHash('sha256')
                .update(await readFile(path))
                .digest('hex'),
              mtimeMs: (await stat(path)).mtimeMs,
            },
          ]
        : [path, null],
    ),
  );
  return Object.fromEntries(entries) as Record<string, { sha256: string; mtimeMs: number } | null>;
}

/** Every file under `dir` with its content, for comparing a tree with its saved copy. */
async function tree(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path.slice(dir.length)] = createHash('sha256')
        .update(await readFile(path))
        .digest('hex');
    }
  }
  return files;
}

/**
 * What an operator would see of an enrollment, for the record: the one-line command (its secret elided), the
 * profile block the script wrote, and the schedule it installed. Written to test-artifacts/enroll-run.txt.
 */
async function recordEnrollment(command: string, profile: string, schedule: string): Promise<void> {
  const end = '# END audit-collector enrollment';
  const block = profile.slice(profile.indexOf('# BEGIN audit-collector enrollment'), profile.indexOf(end) + end.length);
  const timers = SYSTEMD ? shell('systemctl list-timers audit-collector-lynis.timer --all --no-pager').output : '(no systemd here: the cron file above)';
  await mkdir(ARTIFACTS, { recursive: true });
  await writeFile(
    join(ARTIFACTS, 'enroll-run.txt'),
    [
      `$ ${command.replace(/enr_[0-9a-f]{64}/, 'enr_…')}`,
      '',
      '/etc/lynis/custom.prf (managed block):',
      block.replace(/^license-key=.*$/m, 'license-key=…'),
      '',
      `${SCHEDULE[0]}:`,
      schedule,
      timers,
      '',
    ].join('\n'),
  );
}

let releaseLynis: (() => Promise<void>) | undefined;

beforeAll(async () => {
  requireRootAndLynis();
  releaseLynis = await holdMachineLynis();
  await saveMachine();
  const data = await makeDataDir();
  removeDataDir = data.remove;
  adminToken = (await runCli(['admin-tokens', 'create', '--label', 'enroll test'], data.dataDir)).stdout.trim();
  server = await startServerProcess(data.dataDir);
  ca = await readFile(join(data.dataDir, 'tls-cert.pem'), 'utf8');
}, 960_000);

afterAll(async () => {
  await restoreMachine();
  await releaseLynis?.();
  await server?.stop();
  await removeDataDir?.();
});

describe('the one-line enroll command on a real Debian host', () => {
  let command: string;
  let secret: string;
  let enrollmentId: string;
  let keyId: string;
  let lynisTreeBefore: Record<string, string>;

  it("is given once, with the server certificate's public key pinned, for an enrollment made through the API", async () => {
    lynisTreeBefore = await tree(join(backup, '0'));
    const key = await admin<{ key: { id: string } }>('POST', '/api/admin/keys', { label: 'enrolled fleet' });
    expect(key.status).toBe(201);
    keyId = key.body.key.id;
    const created = await admin<{ enrollment: { id: string }; secret: string; command: string }>('POST', '/api/admin/enrollments', {
      licenseKeyId: keyId,
      systemGroups: ['webservers', 'enrolled'],
      tags: ['production'],
      customer: 'Acme Corp',
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      maxHosts: 5,
    });
    expect(created.status).toBe(201);
    ({ command, secret } = created.body);
    enrollmentId = created.body.enrollment.id;
    expect(command).toMatch(
      new RegExp(
        `^curl -fsS -k --pinnedpubkey 'sha256//[A-Za-z0-9+/]{43}=' -H 'Authorization: Bearer enr_[0-9a-f]{64}' 'https://localhost:${server.port}/enroll\\.sh' \\| sudo sh$`,
      ),
    );
  });

  it('pins the key: curl refuses another self-signed certificate even with -k, and takes the right one', async () => {
    const other = await makeDataDir();
    const impostor = await startServerProcess(other.dataDir);
    try {
      const fetchOnly = (port: number) => command.replace(`localhost:${server.port}`, `localhost:${port}`).replace(/ \| sudo sh$/, ' >/dev/null');
      const refused = shell(fetchOnly(impostor.port), 30_000);
      expect(refused.status, refused.output).toBe(90); // CURLE_SSL_PINNEDPUBKEYNOTMATCH
      expect(shell(fetchOnly(impostor.port).replace(/--pinnedpubkey '[^']*' /, ''), 30_000).status).toBe(22); // without the pin, -k alone trusts it (401 here)
      const taken = shell(fetchOnly(server.port), 30_000);
      expect(taken.status, taken.output).toBe(0);
    } finally {
      await impostor.stop();
      await other.remove();
    }
  }, 120_000);

  it("enrolls the host: Lynis pointed at the server, a daily audit scheduled, and the host appears with the enrollment's groups, tags and customer", async () => {
    // Enrolled without the first audit: a full audit runs Lynis' package checks (apt-get update among them), many
    // minutes on a busy machine without network. The scheduled audit then runs as the schedule runs it, on a few tests
    // and without the Debian plugin's checks.
    const run = shell(command.replace(/\| sudo sh$/, '| sudo sh -s -- --no-run'), 120_000);
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(/Lynis 3\.\d/);
    expect(run.output).toContain(`This host will appear on the dashboard within a minute of its first upload: https://localhost:${server.port}/dashboard/`);
    const profile = await readFile('/etc/lynis/custom.prf', 'utf8');
    expect(profile).toContain('# BEGIN audit-collector enrollment\n');
    expect(profile).toContain(`upload-server=localhost:${server.port}/api/audit\n`);
    expect(profile).toContain('upload-options=--cacert /etc/lynis/audit-collector.pem\n');
    expect(profile).toContain('system-groups=webservers,enrolled\ntags=production\nsystem-customer-name=Acme Corp\n');
    expect(await readFile('/etc/lynis/audit-collector.pem', 'utf8')).toBe(ca.trim() + '\n');
    for (const file of SCHEDULE) expect(existsSync(file), file).toBe(true);
    const schedule = await readFile(SCHEDULE[0]!, 'utf8');
    const scheduled = SYSTEMD
      ? schedule.match(/^ExecStart=(.*)$/m)![1]!
      : schedule.match(/^\d{1,2} \d{1,2} \* \* \* root (lynis audit system --cronjob --upload) >\/dev\/null 2>&1$/m)![1]!;

    const audit = shell(`${scheduled} --no-plugins --tests 'BOOT-5122 LOGG-2130 LOGG-2138'`, 400_000);
    expect(audit.status, audit.output).toBe(0);
    const hosts = await admin<{ items: { keyId: string; groups: string[]; tags: string[]; customerName: string | null }[] }>(
      'GET',
      `/api/admin/hosts?keyId=${keyId}`,
    );
    expect(hosts.body.items).toHaveLength(1);
    expect(hosts.body.items[0]).toMatchObject({ keyId, tags: ['production'], customerName: 'Acme Corp', state: 'active', stateReason: 'reporting' });
    await recordEnrollment(command, profile, schedule);
    expect([...hosts.body.items[0]!.groups].sort()).toEqual(['enrolled', 'webservers']);
    const enrollments = await admin<{ items: { id: string; hostCount: number; state: string; lastUsedAt: string | null }[] }>('GET', '/api/admin/enrollments');
    expect(enrollments.body.items).toEqual([expect.objectContaining({ id: enrollmentId, hostCount: 1, state: 'active', lastUsedAt: expect.any(String) })]);
  }, 600_000);

  it('changes no file when run again', async () => {
    const before = await snapshot([...MANAGED, ...SCHEDULE]);
    expect(Object.values(before).filter((file) => file === null)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a rewrite would show in the modification time
    const again = shell(command.replace(/\| sudo sh$/, '| sudo sh -s -- --no-run'), 120_000);
    expect(again.status, again.output).toBe(0);
    expect(again.output).not.toContain('Wrote ');
    expect(await snapshot([...MANAGED, ...SCHEDULE])).toEqual(before);
  }, 180_000);

  it('removes exactly what it added with --uninstall, and keeps Lynis', async () => {
    const removed = shell(command.replace(/\| sudo sh$/, '| sudo sh -s -- --uninstall'), 120_000);
    expect(removed.status, removed.output).toBe(0);
    expect(removed.output).toContain('Lynis stays installed');
    for (const file of [...SCHEDULE, '/etc/lynis/audit-collector.pem', '/etc/lynis/audit-collector-enrollment.state'])
      expect(existsSync(file), file).toBe(false);
    // /etc/lynis holds what it held before the enrollment, file for file.
    expect(await tree('/etc/lynis')).toEqual(lynisTreeBefore);
    expect(spawnSync('sh', ['-c', 'command -v lynis || ls /usr/sbin/lynis']).status).toBe(0);
  }, 180_000);

  it('serves no script once the enrollment is revoked, and never logged the secret', async () => {
    expect((await admin('POST', `/api/admin/enrollments/${enrollmentId}/revoke`)).status).toBe(204);
    const refused = shell(command.replace(/\| sudo sh$/, ''), 30_000);
    expect(refused.status).toBe(22); // curl -f: the 401
    const unknown = shell(`curl -sS -k -o /dev/null -w '%{http_code}' https://localhost:${server.port}/enroll.sh`, 30_000);
    expect(unknown.output).toBe('401');
    expect(await logLine(server, (line) => line.includes('"enroll script refused"') && line.includes(enrollmentId))).toContain('"refusal":"revoked"');
    for (const line of server.logs) expect(line).not.toContain(secret);
  });

  it('records every fetch in the audit trail: served and refused, against the enrollment, by no one known', async () => {
    type Entry = { operation: string; outcome: string; status: number; actor: { kind: string }; target: { type: string; id: string | null } | null };
    const trail = await admin<{ items: Entry[] }>('GET', `/api/admin/audit-events?operation=getEnrollScript&targetId=${enrollmentId}`);
    const outcomes = trail.body.items.map((entry) => `${entry.outcome} ${entry.status}`);
    expect(outcomes).toContain('success 200');
    expect(outcomes).toContain('denied 401');
    for (const entry of trail.body.items) expect(entry).toMatchObject({ actor: { kind: 'anonymous' }, target: { type: 'enrollment', id: enrollmentId } });
    expect(JSON.stringify(trail.body)).not.toContain(secret);
  });
});
