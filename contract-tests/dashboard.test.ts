// The dashboard in a real browser (Debian's Chromium through playwright-core), against the reference server seeded
// through real uploads: sign-in, hosts, a host's trend and findings, the raw report, keys created and revoked in
// the page and seen by the API, and hostile report text shown literally. Screenshots go to test-artifacts/.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminToken, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { makeDataDir, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ARTIFACTS = `${ROOT}test-artifacts`;
const CHROMIUM = '/usr/bin/chromium';
const KEY = lynisCapture.key;
/** Host names, findings and details an attacker controlling a host could write into its report. */
const HOSTILE_NAME = '<img src=x onerror=alert(1)>evil-host';
const HOSTILE_WARNING = 'AUTH-0001|<script>alert("warning")</script>|<b onmouseover=alert(2)>details</b>|-|';
/** A `hostid` as the contract allows it (printable ASCII, no spaces) that is also markup. */
const HOSTILE_HOST_ID = '<img/src=x/onerror=alert(3)>';

let server: ServerProcess;
let browser: Browser;
let removeDataDir: () => Promise<void>;
let adminToken: string;
let dashboardUrl: string;

/** The captured report with another host id, host name, hardening index and extra warning lines. */
function report(hostId: string, hostname: string, hardeningIndex: number, extraWarnings: string[] = []): string {
  return lynisCapture.report
    .toString('utf8')
    .replace(/^hostname=.*$/m, `hostname=${hostname}`)
    .replace(/^hardening_index=.*$/m, `hardening_index=${hardeningIndex}`)
    .replace(/^hostid=.*$/m, `hostid=${hostId}`)
    .concat(extraWarnings.map((warning) => `warning[]=${warning}\n`).join(''));
}

/** Uploads a report as Lynis does (raw, urlencoded), over the server's TLS with its own certificate accepted. */
async function upload(hostId: string, text: string): Promise<void> {
  const response = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: text, licensekey: KEY, hostid: hostId, hostid2: lynisCapture.hostId2 }),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  await seedKeys(data.dataDir, { valid: [KEY] });
  const orm = await openDatabase(data.dataDir);
  ({ token: adminToken } = await createAdminToken(orm, { label: 'dashboard test' }));
  await orm.close();
  // Refusals written every 200 ms instead of every few seconds, so the Refused uploads page shows them at once.
  server = await startServerProcess(data.dataDir, ['--plain-http', '--rejections-flush-ms', '200']);
  dashboardUrl = `${server.url}/dashboard/`;
  await upload('1111111111111111111111111111111111111111', report('1111111111111111111111111111111111111111', 'web-01', 62));
  await upload('1111111111111111111111111111111111111111', report('1111111111111111111111111111111111111111', 'web-01', 58, ['FIRE-4512|iptables module(s) loaded, but no rules active|-|-|']));
  await upload('2222222222222222222222222222222222222222', report('2222222222222222222222222222222222222222', HOSTILE_NAME, 41, [HOSTILE_WARNING]));
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeDataDir?.();
});

/** A fresh tab that records dialogs (dismissed, unless `confirmDialogs`), page errors and every request to another origin. */
async function openPage({ confirmDialogs = false } = {}): Promise<{ page: Page; dialogs: string[]; errors: string[]; foreign: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const dialogs: string[] = [];
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void (confirmDialogs ? dialog.accept() : dialog.dismiss());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('request', (request) => !request.url().startsWith(server.url) && foreign.push(request.url()));
  return { page, dialogs, errors, foreign };
}

async function signIn(page: Page): Promise<void> {
  await page.goto(dashboardUrl);
  await page.getByLabel('Admin token').fill(adminToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Hosts' }).waitFor();
}

describe('the dashboard', () => {
  it('is served with a strict Content-Security-Policy and may not be framed', async () => {
    const response = await fetch(dashboardUrl);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${server.url}/dashboard`, { redirect: 'manual' })).headers.get('location')).toBe('/dashboard/');
  });

  it('signs in with an admin token kept for the tab only, lists the hosts, and signs out', async () => {
    const { page, errors, foreign } = await openPage();
    await page.goto(dashboardUrl);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-sign-in.png` });
    await page.getByLabel('Admin token').fill('adm_0000000000000000000000000000000000000000000000000000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'refused the admin token' }).waitFor();
    await signIn(page);
    const rows = page.getByRole('row');
    await expect.poll(() => rows.count()).toBe(3); // the header and two hosts
    await expect.poll(() => page.getByRole('link', { name: 'web-01' }).count()).toBe(1);
    await page.getByText('Signed in as dashboard test').waitFor(); // the token's label, never the token
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-hosts.png`, fullPage: true });
    await page.setViewportSize({ width: 420, height: 800 }); // a narrow window: nothing runs off the side
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-hosts-narrow.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(1);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors.filter((error) => !error.includes('401'))).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });

  it('shows a host: its hardening trend over its reports, the newest warnings, and a raw report', async () => {
    const { page, errors, foreign } = await openPage();
    await signIn(page);
    await page.getByLabel('Host name contains').fill('web');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'web-01' }).click();
    await page.getByRole('heading', { name: 'web-01' }).waitFor();
    await page.getByRole('img', { name: 'Hardening index: 62, 58' }).waitFor();
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    await page.getByRole('cell', { name: 'iptables module(s) loaded, but no rules active' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-host.png`, fullPage: true });
    await page.getByRole('link', { name: 'Raw report' }).first().click();
    const raw = await page.locator('pre.raw').textContent();
    expect(raw).toContain('license_key=[redacted]');
    expect(raw).not.toContain(KEY);
    expect([errors, foreign]).toEqual([[], []]);
    await page.close();
  });

  it('shows what changed since the report before, and against any other report of the host', async () => {
    const { page, errors, foreign } = await openPage();
    await signIn(page);
    await page.getByRole('link', { name: 'web-01' }).click();
    await page.getByRole('link', { name: 'Changes since the report before' }).first().click();
    await page.getByRole('heading', { name: 'Changes between two reports of web-01' }).waitFor();
    await page.getByText('62 → 58 (-4)').waitFor();
    const added = page.getByRole('row').filter({ hasText: 'Warning added' });
    await expect.poll(() => added.count()).toBe(1);
    expect(await added.textContent()).toContain('iptables module(s) loaded, but no rules active');
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-compare.png`, fullPage: true });
    // Against the newer report from the older one: the same two, the earlier still "before".
    await page.goBack();
    await page.getByRole('link', { name: 'Changes since the report before' }).last().click();
    await page.getByText('The host sent no report before this one.').waitFor();
    const [newest] = await page.getByLabel('Compare with').locator('option').allTextContents().then((options) => options.slice(1));
    await page.getByLabel('Compare with').selectOption({ label: newest! });
    await page.getByText('62 → 58 (-4)').waitFor();
    expect([errors, foreign]).toEqual([[], []]);
    await page.close();
  });

  it('shows hostile host names, warnings and details as text, running nothing', async () => {
    const { page, dialogs, errors, foreign } = await openPage();
    await signIn(page);
    await page.getByRole('link', { name: HOSTILE_NAME }).click();
    await page.getByRole('heading', { name: HOSTILE_NAME }).waitFor();
    await page.getByRole('cell', { name: '<script>alert("warning")</script>' }).waitFor();
    await page.getByRole('cell', { name: '<b onmouseover=alert(2)>details</b>' }).hover();
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-hostile-host.png`, fullPage: true });
    expect([dialogs, errors, foreign]).toEqual([[], [], []]);
    await page.close();
  });

  it('creates a key shown once and revokes it, and the admin API agrees', async () => {
    const { page, dialogs, errors } = await openPage({ confirmDialogs: true });
    await signIn(page);
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByLabel('Label of a new key').fill('made in the dashboard');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByLabel('New license key').textContent())!;
    expect(key).toMatch(/^[0-9a-f-]{40,}$/);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-keys.png`, fullPage: true });
    const check = async () => (await fetch(`${server.url}/api/audit/license/`, { method: 'POST', body: new URLSearchParams({ licensekey: key }) })).text();
    expect(await check()).toBe('Response 100');
    const row = page.getByRole('row').filter({ hasText: 'made in the dashboard' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('cell', { name: 'revoked' }).waitFor();
    await expect.poll(check, { timeout: 3000 }).toBe('Response 500'); // servers see a revocation within a second
    const listed = await (await fetch(`${server.url}/api/admin/keys`, { headers: { authorization: `Bearer ${adminToken}` } })).json() as { items: { label: string; state: string }[] };
    expect(listed.items.find((item) => item.label === 'made in the dashboard')?.state).toBe('revoked');
    expect(dialogs).toEqual([expect.stringMatching(/^Revoke the key "made in the dashboard"\?/)]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows refused uploads: which hosts are losing reports and why, host ids as text, filtered by reason', async () => {
    const refuse = async (licensekey: string, hostid: string, text: string, status: number) => {
      const response = await fetch(`${server.url}/api/audit/upload/`, { method: 'POST', body: new URLSearchParams({ data: text, licensekey, hostid }) });
      expect(response.status).toBe(status);
    };
    await refuse('deadbeef-0000-0000-0000-00000000ffff', '3333333333333333333333333333333333333333', report('3333333333333333333333333333333333333333', 'db-01', 70), 401);
    for (let i = 0; i < 3; i++) await refuse(KEY, HOSTILE_HOST_ID, 'not a report', 400);
    const listed = async () =>
      ((await (await fetch(`${server.url}/api/admin/rejections?operation=uploadReport`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { total: number }).total;
    await expect.poll(listed, { timeout: 5000 }).toBe(2);

    const { page, dialogs, errors, foreign } = await openPage();
    await signIn(page);
    await page.getByRole('link', { name: 'Refused uploads' }).click();
    await page.getByRole('heading', { name: 'Refused uploads' }).waitFor();
    const hostile = page.getByRole('row').filter({ has: page.getByRole('cell', { name: HOSTILE_HOST_ID, exact: true }) });
    await expect.poll(() => hostile.getByRole('cell').allTextContents()).toEqual([
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), HOSTILE_HOST_ID, expect.stringMatching(/^\(no label\) · [0-9a-f]{8}…$/), 'Upload', 'invalid-datareport unreadable', '3',
      expect.stringMatching(/^\d{2}:\d{2}:\d{2} UTC$/), '127.0.0.1',
    ]);
    const unknownKey = page.getByRole('row').filter({ hasText: '3333333333333333333333333333333333333333' });
    await unknownKey.getByRole('cell', { name: 'unknown key' }).waitFor();
    await unknownKey.getByRole('cell', { name: /^invalid-key\s*key unknown, revoked or expired$/ }).waitFor();
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280); // fits the window
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-refused.png`, fullPage: true });

    await page.getByLabel('Reason').selectOption('invalid-key');
    await page.getByRole('cell', { name: HOSTILE_HOST_ID }).waitFor({ state: 'detached' });
    await unknownKey.waitFor();
    expect(await page.getByRole('cell', { name: /^invalid-data/ }).count()).toBe(0);
    expect(page.url()).toMatch(/#\/refused\?reason=invalid-key$/);
    expect([dialogs, errors, foreign]).toEqual([[], [], []]);
    await page.close();
  });
});

describe('the dashboard beside the admin API', () => {
  it('moves with the admin API to its own listener, and is not served on the collectors\' port then', async () => {
    const data = await makeDataDir();
    const apart = await startServerProcess(data.dataDir, ['--plain-http', '--admin-listen', '127.0.0.1:0']);
    try {
      expect((await fetch(`${apart.adminUrl}/dashboard/`)).status).toBe(200);
      expect((await fetch(`${apart.url}/dashboard/`)).status).toBe(404);
    } finally {
      await apart.stop();
      await data.remove();
    }
  });
});
