// The Controls page in a real browser (Debian's Chromium through playwright-core), against the reference server: an
// admin imports the example mapping file and sees the EXAMPLE framework's controls with their hosts passing, failing
// and unknown, opens a control's evidence (rules, findings, failing hosts as text linking to their pages), and sees a
// bad file's lines named.
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { fitsWidth, launchChromium, openFromNav, reportAs, signIn } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';
import { until } from './support/until.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ARTIFACTS = `${ROOT}test-artifacts`;
const EXAMPLE_FILE = `${ROOT}examples/controls/example-mapping.csv`;
/** The captured report (PKGS-7392 and LOGG-2138 warned) as two hosts', and a third's without them. */
const HOSTS = [
  { hostId: '1111111111111111111111111111111111111111', hostname: 'web-01', warned: true },
  { hostId: '2222222222222222222222222222222222222222', hostname: '<b>web-02</b>', warned: true },
  { hostId: '3333333333333333333333333333333333333333', hostname: 'db-01', warned: false },
];

let server: ServerProcess;
let browser: Browser;
let removeDataDir: () => Promise<void>;
let adminToken: string;

const api = async (path: string, init: RequestInit = {}) => {
  const answer = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' } });
  return (await answer.json()) as Record<string, unknown>;
};

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  await importKey(orm, lynisCapture.key);
  ({ token: adminToken } = await createAdminToken(orm, { label: 'controls test' }));
  await orm.close();
  server = await startServerProcess(data.dataDir, ['--plain-http']);
  for (const host of HOSTS) {
    let text = reportAs(host.hostId, host.hostname, 70, [], { firewall_active: '1' });
    // Neither warned nor told to update its packages, and none vulnerable.
    if (!host.warned) text = text.replace(/^(warning\[\]=|suggestion\[\]=PKGS-7392\||vulnerable_package\[\]=).*\n/gm, '');
    const upload = await fetch(`${server.url}/api/audit/upload/`, {
      method: 'POST',
      body: new URLSearchParams({ data: text, licensekey: lynisCapture.key, hostid: host.hostId }),
    });
    expect(upload.status).toBe(200);
  }
  await api('/api/admin/policies/baseline', { method: 'POST' });
  const evaluatedHosts = async () => {
    const [baseline] = (await api('/api/admin/policies')).items as { hosts: Record<string, number> }[];
    return baseline ? Object.values(baseline.hosts).reduce((sum, hosts) => sum + hosts, 0) : 0;
  };
  await until(async () => (await evaluatedHosts()) === HOSTS.length, 'the hosts evaluated', 15_000);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeDataDir?.();
});

it("imports the example mapping, shows the framework's controls with their hosts, and a control's evidence", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(8000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, `${server.url}/dashboard/`, adminToken);
  await openFromNav(page, 'Controls');
  await page.getByText('No frameworks yet').waitFor();

  // A bad file: each bad line named, nothing imported.
  const form = page.getByRole('form', { name: 'Import a mapping file' });
  await form.getByLabel('Mapping file').setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('framework,control_id,title,test_ids,rule_ids\nEX AMPLE,1,Bad,,\nEXAMPLE,2,Bad rule,,Not-A-Rule\n'),
  });
  await form.getByRole('button', { name: 'Import' }).click();
  const alert = form.getByRole('alert');
  await alert.getByText('line 2: the framework must be', { exact: false }).waitFor();
  expect(await alert.getByRole('listitem').allTextContents()).toEqual([
    'The mapping file has bad lines',
    'line 2: the framework must be 1 to 40 letters, digits, dots, dashes or underscores',
    'line 3: not a rule id (lower-case letters, digits and dashes): "Not-A-Rule"',
  ]);
  await page.getByText('No frameworks yet').waitFor();

  // The example file: the framework and its five controls.
  await form.getByLabel('Mapping file').setInputFiles(EXAMPLE_FILE);
  await form.getByRole('button', { name: 'Import' }).click();
  await form.getByRole('status').getByText('Imported 5 controls of EXAMPLE.').waitFor();
  await expect.poll(() => page.getByLabel('Framework', { exact: true }).inputValue()).toBe('EXAMPLE');
  const table = page.getByRole('table', { name: /^EXAMPLE: 5 controls/ });
  const rowOf = (id: string) => table.getByRole('row').filter({ has: page.getByRole('cell').getByText(id, { exact: true }) });
  // EX-1 (PKGS-7392, no-vulnerable-packages): failing on the two warned hosts, passing on db-01.
  await expect
    .poll(() => rowOf('EX-1').getByRole('cell').allTextContents())
    .toEqual(['EX-1Example only: security updates are installed', '', '1', '2', '0', 'Evidence of EX-1']);
  expect(await rowOf('EX-1').getByRole('img').getAttribute('aria-label')).toBe('1 passing, 2 failing, 0 unknown');
  // EX-4 (LOGG-2138 alone): the warned hosts fail; db-01 was never warned, so nothing says it passes.
  expect((await rowOf('EX-4').getByRole('cell').allTextContents()).slice(2, 5)).toEqual(['0', '2', '1']);

  // The evidence of EX-1: its rule's results, its findings (the test id warns and suggests), its failing hosts (a
  // host's markup shown as text).
  await rowOf('EX-1').getByRole('button', { name: 'Evidence of EX-1' }).click();
  const evidence = page.locator('.evidence');
  await evidence.getByRole('link', { name: 'Baseline/no-vulnerable-packages' }).waitFor();
  expect(await evidence.getByRole('listitem').allTextContents()).toEqual([
    'Baseline/no-vulnerable-packages: 1 pass, 2 fail, 0 error, 0 waived',
    'PKGS-7392 (suggestion): open on 2 hosts, accepted on 0',
    'PKGS-7392 (warning): open on 2 hosts, accepted on 0',
    '<b>web-02</b>: Baseline/no-vulnerable-packages, PKGS-7392',
    'web-01: Baseline/no-vulnerable-packages, PKGS-7392',
  ]);
  expect(await page.locator('.evidence b').count()).toBe(0);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-controls.png`, fullPage: true });
  // The header stays on one line at 1280 px with the Controls link, and nothing runs off the window.
  const tops = await page
    .getByRole('navigation', { name: 'Pages' })
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getBoundingClientRect().top));
  expect(new Set(tops).size).toBe(1);
  expect(await fitsWidth(page, 1280)).toBe(true);

  await evidence.getByRole('link', { name: 'web-01' }).click();
  await page.waitForURL(/#\/hosts\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name: 'web-01' }).first().waitFor();
  expect(errors).toEqual([]);
});

it('offers no import to a viewer, who still sees the controls', async () => {
  const orm = await openDatabase(server.dataDir);
  const { token } = await createAdminToken(orm, { label: 'controls viewer', role: 'viewer' });
  await orm.close();
  await fetch(`${server.url}/api/admin/controls/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'text/csv' },
    body: await readFile(EXAMPLE_FILE, 'utf8'),
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(8000);
  await signIn(page, `${server.url}/dashboard/`, token);
  await page.goto(`${server.url}/dashboard/#/controls?framework=example`);
  await page.getByRole('table', { name: /^EXAMPLE: 5 controls/ }).waitFor();
  expect(await page.getByRole('form', { name: 'Import a mapping file' }).count()).toBe(0);
});
