// The real client: Lynis, from the Debian package, checks its license and uploads its report over HTTPS.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createAdminClient, lynisKeyAsSent, parseLynisProfiles } from '@org/audit-client';
import { launchChromium, signIn } from './support/dashboard.js';
import { holdMachineLynis } from './support/machine-lynis.js';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';
import { storedReports } from './support/reports.js';

const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const HOST_ID2 = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

function lynisPath(): string {
  const found = spawnSync('sh', ['-c', 'command -v lynis || ls /usr/sbin/lynis'], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('Lynis is not installed: run `apt-get install -y lynis` (.ci/run does). This test needs the real client.');
  return found.split('\n')[0]!;
}

let server: ServerProcess;
let removeDataDir: () => Promise<void>;
let key: string;
let keyId: string;
let adminToken: string;
/** The first upload: what Lynis wrote, and the id the server stored it under. */
let firstUpload: { reportFile: string; reportId: string } | undefined;

let releaseLynis: (() => Promise<void>) | undefined;

beforeAll(async () => {
  releaseLynis = await holdMachineLynis();
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const created = await runCli(['keys', 'create', '--label', 'lynis test'], data.dataDir);
  expect(created.code).toBe(0);
  key = created.stdout.trim();
  keyId = created.stderr.match(/Created key (\S+)/)![1]!;
  adminToken = (await runCli(['admin-tokens', 'create', '--label', 'lynis test'], data.dataDir)).stdout.trim();
  server = await startServerProcess(data.dataDir);
}, 960_000);
afterAll(async () => {
  await releaseLynis?.();
  await server?.stop();
  await removeDataDir?.();
});

/**
 * One `lynis audit system --upload` run against the server, with its own profile, log and report files. Besides a
 * boot test it runs the kernel logger checks, which warn when no klogd runs (as in containers and on systemd hosts
 * without a syslog daemon): a few seconds for a report with a warning in it.
 */
async function runLynis(licenseKey: string, prefix: string) {
  const dir = server.dataDir;
  const profile = join(dir, `lynis-${Date.now()}.prf`);
  const reportFile = `${profile}.report.dat`;
  await writeFile(
    profile,
    [
      `license-key=${licenseKey}`,
      `upload-server=127.0.0.1:${server.port}${prefix}`,
      'upload-options=--insecure',
      `hostid=${HOST_ID}`,
      `hostid2=${HOST_ID2}`,
      '',
    ].join('\n'),
  );
  const result = spawnSync(
    lynisPath(),
    [
      'audit',
      'system',
      '--upload',
      '--quick',
      '--no-colors',
      '--profile',
      profile,
      '--tests',
      'BOOT-5122 LOGG-2130 LOGG-2138',
      '--logfile',
      `${profile}.log`,
      '--report-file',
      reportFile,
    ],
    { encoding: 'utf8', timeout: 300_000 }, // a few seconds alone, but more than a minute on a busy machine
  );
  return { status: result.status, output: result.stdout + result.stderr, reportFile };
}

describe('Lynis 3 against the reference server', () => {
  it('checks its license and uploads a report that is stored byte for byte, key redacted', async () => {
    const before = (await storedReports(server.dataDir)).length;
    const run = await runLynis(key, '/api/audit');
    expect(run.output).toMatch(/- License check.*\[ DONE \]/);
    expect(run.output).toMatch(/- Data upload \(127\.0\.0\.1:\d+\/api\/audit\).*\[ DONE \]/);

    const reports = await storedReports(server.dataDir);
    expect(reports).toHaveLength(before + 1);
    const stored = reports.at(-1)!;
    const sent = await readFile(run.reportFile);
    expect(sent.toString()).toContain(`license_key=${key}`);
    expect(stored.content.toString('latin1')).toBe(sent.toString('latin1').replace(`license_key=${key}`, 'license_key=[redacted]'));
    expect(stored).toMatchObject({ keyId, hostId: HOST_ID, hostId2: HOST_ID2, encoding: 'raw', size: sent.length });
    firstUpload = { reportFile: run.reportFile, reportId: stored.id };
    console.log(`Stored a real Lynis report: ${stored.size} bytes as sent, ${stored.content.length} bytes kept`);
  }, 360_000);

  it('shows the upload through the admin API: its host with host name and hardening index, its warnings, the raw report redacted', async () => {
    if (!firstUpload) throw new Error('needs the upload of the previous test');
    const sent = await readFile(firstUpload.reportFile, 'utf8');
    const valuesOf = (name: string) => [...sent.matchAll(new RegExp(`^${name.replace(/[[\]]/g, '\\$&')}=(.*)$`, 'gm'))].map((match) => match[1]!);
    const [hostname] = valuesOf('hostname');
    const hardeningIndex = Number(valuesOf('hardening_index')[0]);
    const warningIds = valuesOf('warning[]').map((line) => line.split('|')[0]);
    expect(hostname).toBeTruthy();
    expect(Number.isInteger(hardeningIndex)).toBe(true);
    expect(warningIds.length, 'the kernel logger checks warned (no klogd running)').toBeGreaterThan(0);

    // Through the admin client, trusting the server's self-signed certificate.
    const admin = createAdminClient({ baseUrl: server.url, token: adminToken, ca: await readFile(join(server.dataDir, 'tls-cert.pem')) });
    onTestFinished(() => admin.close());
    const hosts = await admin.listHosts({ hostId: HOST_ID, keyId });
    expect(hosts.total).toBe(1);
    expect(hosts.items[0]).toMatchObject({
      hostId: HOST_ID,
      hostId2: HOST_ID2,
      keyId,
      hostname,
      latestHardeningIndex: hardeningIndex,
      lynisVersion: expect.stringMatching(/^3\./),
    });
    const byName = await admin.listHosts({ hostname: hostname!.toUpperCase() });
    expect(byName.items.map((host) => host.id)).toContain(hosts.items[0]!.id);

    const detail = await admin.getReport(firstUpload.reportId);
    expect(detail).toMatchObject({ hostRecordId: hosts.items[0]!.id, hostname, hardeningIndex, warningCount: warningIds.length });
    expect(detail.summary).toMatchObject({ hostname, hardeningIndex });
    expect(detail.summary!.warnings.map((warning) => warning.testId)).toEqual(warningIds);
    console.log(`Summary of a real Lynis report, through the admin API:\n${JSON.stringify(detail.summary, null, 2)}`);

    const raw = await admin.getRawReport(firstUpload.reportId);
    expect(raw).toContain('license_key=[redacted]');
    expect(raw).not.toContain(key);
    expect(raw).toBe(sent.replace(`license_key=${key}`, 'license_key=[redacted]'));
  });

  it("shows the upload on the dashboard's host page, in a real browser", async () => {
    if (!firstUpload) throw new Error('needs the upload of the previous test');
    const sent = await readFile(firstUpload.reportFile, 'utf8');
    const hostname = sent.match(/^hostname=(.*)$/m)![1]!;
    const warningIds = [...sent.matchAll(/^warning\[\]=([^|]*)\|/gm)].map((match) => match[1]!);
    const browser = await launchChromium();
    onTestFinished(() => browser.close());
    // The server's certificate is its own self-signed one, as an operator's browser would first meet it.
    const page = await browser.newPage({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 } });
    await signIn(page, `${server.url}/dashboard/`, adminToken);
    // The dashboard opens on the fleet overview; the host is on the hosts list.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Hosts', exact: true }).click();
    await page.getByRole('link', { name: hostname, exact: true }).first().click();
    await page.getByRole('heading', { name: hostname, exact: true }).waitFor();
    for (const testId of warningIds) await page.getByRole('cell', { name: testId, exact: true }).first().waitFor();
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-real-lynis.png`, fullPage: true });
  }, 60_000);

  it('stops at the license check with a revoked key, and nothing new is stored', async () => {
    const revoked = await runCli(['keys', 'revoke', keyId], server.dataDir);
    expect(revoked.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // running servers see a revocation within one second
    const before = (await storedReports(server.dataDir)).length;
    const run = await runLynis(key, '/api/audit');
    expect(run.status).toBe(1);
    expect(run.output).toContain('Error while checking the license');
    expect(await storedReports(server.dataDir)).toHaveLength(before);
  }, 360_000);

  it('never wrote the key or the admin token into the server log', () => {
    expect(server.logs.length).toBeGreaterThan(0);
    for (const line of server.logs) {
      expect(line).not.toContain(key);
      expect(line).not.toContain(adminToken);
    }
  });
});

// Keeps the test honest about what it ran against.
it('runs the Debian package of Lynis 3', () => {
  expect(execFileSync(lynisPath(), ['show', 'version'], { encoding: 'utf8' })).toMatch(/^3\./);
});

// In this file rather than its own: Lynis keeps one PID file, so two Lynis runs at once disturb each other.
it('reads the client profile fixture as audit-client does: same upload-server, upload-options and key', () => {
  const fixture = fileURLToPath(new URL('../packages/client/fixtures/custom.prf', import.meta.url));
  const result = spawnSync(lynisPath(), ['--profile', fixture, 'show', 'settings', '--brief', '--nocolors'], { encoding: 'utf8', timeout: 60_000 });
  expect(result.status).toBe(0);
  // `show settings` prints name=value lines, with spaces in values written as :space:.
  const shown = Object.fromEntries(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => {
        const equals = line.indexOf('=');
        return [line.slice(0, equals), line.slice(equals + 1).replaceAll(':space:', ' ')];
      }),
  );
  const parsed = parseLynisProfiles([{ name: 'custom.prf', text: readFileSync(fixture, 'utf8') }]);
  expect(shown['upload-server']).toBe('127.0.0.1:8443/api/v1/audit');
  expect(parsed.uploadServer).toBe(shown['upload-server']);
  expect(parsed.uploadOptions).toBe(shown['upload-options']);
  expect(parsed.licenseKey).toBe(lynisKeyAsSent(shown['license-key'] ?? ''));
});
