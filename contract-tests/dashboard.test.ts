// The dashboard in a real browser (Debian's Chromium through playwright-core), against the reference server seeded
// through real uploads (and one report stored ten days back, for a stale host): sign-in, the fleet overview, findings,
// hosts filtered and sorted, a host's trend, findings and refused uploads, the raw report, keys created and revoked
// in the page and seen by the API, and hostile report text shown literally. Screenshots go to test-artifacts/.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, ConsoleMessage, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import type { TimeToFix } from '@org/audit-client/sdk';
import { fitsWidth, launchChromium, reportAs as report, signIn as signInAs, signInWithToken, storeReport } from './support/dashboard.js';
import { until } from './support/until.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ARTIFACTS = `${ROOT}test-artifacts`;
const KEY = lynisCapture.key;
/** Host names, findings and details an attacker controlling a host could write into its report. */
const HOSTILE_NAME = '<img src=x onerror=alert(1)>evil-host';
const HOSTILE_WARNING = 'AUTH-0001|<script>alert("warning")</script>|<b onmouseover=alert(2)>details</b>|-|';
/** A `hostid` as the contract allows it (printable ASCII, no spaces) that is also markup. */
const HOSTILE_HOST_ID = '<img/src=x/onerror=alert(3)>';
/** Groups and tags (from the Lynis profile, so from the host) that are markup too. */
const HOSTILE_GROUP = '<img src=x onerror=alert(4)>';
const HOSTILE_TAG = '<script>alert(5)</script>';

/** The seeded fleet: four hosts, one of them stale (its only report ten days old). */
const WEB = '1111111111111111111111111111111111111111';
const HOSTILE = '2222222222222222222222222222222222222222';
const DB = '4444444444444444444444444444444444444444';
const OLD = '5555555555555555555555555555555555555555';
const DAY_MS = 86_400_000;
/** When the stale host's report was received: ten days before the test ran. */
const OLD_RECEIVED = new Date(Date.now() - 10 * DAY_MS);
/** A time as the API's UTC day. */
const utcDay = (time: Date | number) => new Date(time).toISOString().slice(0, 10);

let server: ServerProcess;
let browser: Browser;
let removeDataDir: () => Promise<void>;
let adminToken: string;
let dashboardUrl: string;

/** Uploads a report as Lynis does (raw, urlencoded), over the server's TLS with its own certificate accepted. */
async function upload(hostId: string, text: string, licensekey = KEY, status = 200): Promise<void> {
  const response = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: text, licensekey, hostid: hostId, hostid2: lynisCapture.hostId2 }),
  });
  expect(response.status).toBe(status);
}

/** The admin API's answer to a GET, as the test's own check of what the pages show. */
async function adminGet<T>(path: string): Promise<T> {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** UTC days on which the test's uploads landed: one, or two when they ran across midnight. */
let uploadDays: string[];

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  const keyId = await importKey(orm, KEY);
  ({ token: adminToken } = await createAdminToken(orm, { label: 'dashboard test' }));
  // The stale host: its only report stored as the server would have ten days ago.
  await storeReport(orm, keyId, OLD, report(OLD, 'old-01', 30, [], { 'system-groups': 'webservers', tags: 'staging' }), OLD_RECEIVED);
  await orm.close();
  // Refusals written every 200 ms instead of every few seconds, so the pages show them at once.
  server = await startServerProcess(data.dataDir, ['--plain-http', '--rejections-flush-ms', '200']);
  dashboardUrl = `${server.url}/dashboard/`;
  const firstDay = utcDay(Date.now());
  const web = { 'system-groups': 'webservers,eu', tags: 'production', 'system-customer-name': 'acme', hostname_alias: 'web-01.example.org' };
  await upload(WEB, report(WEB, 'web-01', 62, [], web));
  await upload(WEB, report(WEB, 'web-01', 58, ['FIRE-4512|iptables module(s) loaded, but no rules active|-|-|'], web));
  await upload(HOSTILE, report(HOSTILE, HOSTILE_NAME, 41, [HOSTILE_WARNING], { 'system-groups': `${HOSTILE_GROUP},ops`, tags: HOSTILE_TAG }));
  // db-01 also runs 20 custom tests of its own: with the fixture's 39, more suggestions than a page of findings holds.
  const custom = Array.from({ length: 20 }, (_, i) => `suggestion[]=CUST-${String(i + 1).padStart(4, '0')}|Custom check ${i + 1}|-|-|`);
  await upload(
    DB,
    report(
      DB,
      'db-01',
      75,
      [],
      { 'system-groups': 'databases', tags: 'production', os_fullname: 'Rocky Linux 9.4 (Blue Onyx)', lynis_version: '3.1.1' },
      custom,
    ),
  );
  // web-01's hostid under a key the server does not know: an upload refused, which its host page shows.
  await upload(WEB, report(WEB, 'web-01', 58), 'deadbeef-0000-0000-0000-00000000beef', 401);
  uploadDays = [...new Set([firstDay, utcDay(Date.now())])];
  await until(async () => (await adminGet<{ total: number }>(`/api/admin/rejections?hostId=${WEB}`)).total === 1, 'the refused upload is listed');
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
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
  // The sign-in page first asks whether a session cookie signs someone in (GET /api/admin/session): without one the
  // server answers 401, which the browser logs as a failed resource. Any other console error counts.
  const sessionProbe = (message: ConsoleMessage) => message.text().includes('status of 401') && message.location().url.endsWith('/api/admin/session');
  page.on('console', (message) => message.type() === 'error' && !sessionProbe(message) && errors.push(message.text()));
  page.on('request', (request) => !request.url().startsWith(server.url) && foreign.push(request.url()));
  return { page, dialogs, errors, foreign };
}

/** Signs in; the dashboard opens on the overview. */
const signIn = (page: Page): Promise<void> => signInAs(page, dashboardUrl, adminToken);

/** Signs in and opens the hosts list from the navigation. */
async function openHosts(page: Page): Promise<void> {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Hosts', exact: true }).click();
  await page.getByRole('heading', { name: 'Hosts', exact: true }).waitFor();
}

/** The host names of the hosts list, in the order shown (the first line of each row's first cell). */
async function listedHosts(page: Page): Promise<string[]> {
  await page.getByRole('table').getByRole('caption').waitFor();
  return page.locator('table.hosts tbody tr td:first-child a').allTextContents();
}

/**
 * The overview's "Time to fix" section shows the figures the API answers: nothing resolved yet (every upload only
 * opened findings), the week's opened findings, and the oldest open findings, old-01's (first seen ten days ago),
 * each linking to its host.
 */
async function seesTimeToFix(page: Page): Promise<void> {
  const figures = await adminGet<TimeToFix>('/api/admin/findings/time-to-fix');
  expect(figures.overall).toEqual({ resolved: 0, meanHours: null, medianHours: null });
  expect(figures.lastWeek.opened).toBeGreaterThan(0);
  const section = page.getByRole('region', { name: 'Time to fix, last 90 days', exact: true });
  await expect
    .poll(() => section.getByRole('list', { name: 'Time to fix' }).getByRole('listitem').allTextContents())
    .toEqual([
      '0Findings resolved',
      '—Mean time to fix',
      '—Median time to fix',
      `${figures.lastWeek.opened} openedLast 7 days${figures.lastWeek.resolved} resolved, ${figures.lastWeek.regressed} regressed`,
    ]);
  await section.getByText('No finding was resolved in the window.').waitFor();
  await section.getByText('No finding was resolved.').waitFor();
  const oldest = section.getByRole('table', { name: 'Open, acknowledged and regressed, first seen longest ago' });
  expect(await oldest.locator('tbody tr').count()).toBe(10);
  expect(figures.oldestOpen.map((finding) => finding.hostname)).toEqual(Array(10).fill('old-01'));
  const firstHost = oldest.locator('tbody tr').first().getByRole('link', { name: 'old-01' });
  expect(await firstHost.getAttribute('href')).toBe(`#/hosts/${figures.oldestOpen[0]!.hostRecordId}`);
  expect((await cellsOf(oldest)).map((row) => row[0])).toEqual(figures.oldestOpen.map((finding) => finding.testId));
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: `${ARTIFACTS}/overview-time-to-fix.png` });
}

/** The cells of a table's body rows, as text. */
async function cellsOf(table: Locator): Promise<string[][]> {
  const rows = await table.locator('tbody tr').all();
  return Promise.all(rows.map((row) => row.getByRole('cell').allTextContents()));
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
    await signInWithToken(page, 'adm_0000000000000000000000000000000000000000000000000000000000000000');
    await page.getByRole('alert').filter({ hasText: 'refused the admin token' }).waitFor();
    await signIn(page);
    await page.getByText('Signed in as dashboard test').waitFor(); // the token's label, never the token
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Hosts', exact: true }).click();
    const rows = page.getByRole('row');
    await expect.poll(() => rows.count()).toBe(5); // the header and four hosts
    await expect.poll(() => page.getByRole('link', { name: 'web-01' }).count()).toBe(1);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-hosts.png`, fullPage: true });
    for (const hash of ['#/hosts', '#/', '#/findings']) {
      // Narrow windows: nothing runs off the side (a wide table scrolls in its own box).
      await page.goto(`${dashboardUrl}${hash}`);
      await page.locator('main h1').waitFor();
      await page.getByText('Loading…').waitFor({ state: 'detached' });
      for (const width of [800, 420]) {
        await page.setViewportSize({ width, height: 800 });
        expect(await fitsWidth(page, width), `${hash} at ${width} px`).toBe(true);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await page.goto(`${dashboardUrl}#/hosts`);
    await page.setViewportSize({ width: 420, height: 800 });
    await page.getByRole('row').nth(4).waitFor();
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

  it("opens on the overview: the seeded fleet's counts, hardening index, trend, uploads, findings, mix and stale host", async () => {
    const { page, errors, foreign } = await openPage();
    await signIn(page);
    const cards = page.getByRole('list', { name: 'Hosts' }).getByRole('listitem');
    await expect
      .poll(() => cards.allTextContents())
      .toEqual([
        '4Hosts',
        '3Seen in the last 24 hours',
        '3Seen in the last 7 days',
        '1Stale (no report for 7 days)none decommissioned',
        // Latest hardening indexes 58, 41, 75 and 30.
        '51Average hardening index',
        '49.5Median hardening index',
      ]);
    // The uploads refused in the last 30 days (web-01's, under an unknown key) lead to the Refused uploads page.
    await page
      .getByRole('status')
      .filter({ hasText: 'One upload was refused in the last 30 days' })
      .getByRole('link', { name: 'See the refused uploads' })
      .waitFor();
    expect(await page.locator('.chart canvas').count()).toBeGreaterThanOrEqual(3);

    const panel = (name: string) => page.getByRole('region', { name, exact: true });
    const numbers = async (name: string) => {
      await panel(name).getByText('The numbers').click();
      return cellsOf(panel(name).locator('.chart-data table')); // not uPlot's legend, a table too
    };
    expect(await numbers('Hardening index of the hosts')).toEqual(
      ['0–9', '10–19', '20–29', '30–39', '40–49', '50–59', '60–69', '70–79', '80–89', '90–100'].map((bucket, i) => [
        bucket,
        String([0, 0, 0, 1, 1, 1, 0, 1, 0, 0][i]),
      ]),
    );
    await panel('Hardening index of the hosts')
      .getByRole('img', { name: 'Hosts by hardening index: 0–9: 0, 10–19: 0, 20–29: 0, 30–39: 1, 40–49: 1, 50–59: 1, 60–69: 0, 70–79: 1, 80–89: 0, 90–100: 0' })
      .waitFor();
    // Per UTC day: the stale host's report ten days ago; today the four others (62, 58, 41, 75). Should the
    // uploads have run across midnight, the day's rows split and only their sums are known.
    const trend = await numbers('Fleet hardening index, last 90 days');
    const uploads = await numbers('Uploads per day, last 30 days');
    expect(trend[0]).toEqual([utcDay(OLD_RECEIVED), '30', '1']);
    expect(uploads[0]).toEqual([utcDay(OLD_RECEIVED), '1', '0']);
    if (uploadDays.length === 1) {
      expect(trend).toEqual([
        [utcDay(OLD_RECEIVED), '30', '1'],
        [uploadDays[0], '59', '4'],
      ]);
      expect(uploads).toEqual([
        [utcDay(OLD_RECEIVED), '1', '0'],
        [uploadDays[0], '4', '1'],
      ]);
    } else {
      expect(trend.slice(1).reduce((sum, row) => sum + Number(row[2]), 0)).toBe(4);
      expect(uploads.slice(1).reduce((sums, row) => [sums[0]! + Number(row[1]), sums[1]! + Number(row[2])], [0, 0])).toEqual([4, 1]);
      for (const row of [...trend.slice(1), ...uploads.slice(1)]) expect(uploadDays).toContain(row[0]);
    }
    await panel('Uploads per day, last 30 days').getByText('5 accepted, 1 refused.').waitFor();

    expect(await cellsOf(panel('Most common warnings').getByRole('table'))).toEqual([
      ['LOGG-2138', 'klogd is not running, which could lead to missing kernel messages in log files', '4'],
      ['PKGS-7392', 'Found one or more vulnerable packages.', '4'],
      ['AUTH-0001', '<script>alert("warning")</script>', '1'],
      ['FIRE-4512', 'iptables module(s) loaded, but no rules active', '1'],
    ]);
    expect((await cellsOf(panel('Most common suggestions').getByRole('table')))[0]).toEqual([expect.any(String), expect.any(String), '4']);
    expect(await cellsOf(panel('Operating systems').getByRole('table'))).toEqual([
      ['Debian GNU/Linux 12 (bookworm)', '3', ''],
      ['Rocky Linux 9.4 (Blue Onyx)', '1', ''],
    ]);
    expect(await cellsOf(panel('Lynis versions').getByRole('table'))).toEqual([
      ['3.0.8', '3', ''],
      ['3.1.1', '1', ''],
    ]);
    expect(await cellsOf(panel('Stale hosts: no report for 7 days').getByRole('table'))).toEqual([
      ['old-01', expect.stringMatching(`^${utcDay(OLD_RECEIVED)} `), '30'],
    ]);
    for (const name of ['Hardening index of the hosts', 'Fleet hardening index, last 90 days', 'Uploads per day, last 30 days']) {
      await panel(name).getByText('The numbers').click(); // folded again for the picture
    }
    await seesTimeToFix(page);
    expect(await fitsWidth(page, 1280)).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-overview.png`, fullPage: true });
    await page.setViewportSize({ width: 800, height: 900 });
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-overview-800.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Every stale host, on the hosts list filtered by their lifecycle state.
    await panel('Stale hosts: no report for 7 days').getByRole('link', { name: 'All stale hosts (1)' }).click();
    expect(page.url()).toMatch(/#\/hosts\?state=stale$/);
    await expect.poll(() => listedHosts(page)).toEqual(['old-01']);
    await page.goBack();
    await panel('Stale hosts: no report for 7 days').getByRole('link', { name: 'old-01' }).click();
    await page.getByRole('heading', { name: 'old-01' }).waitFor();
    await page.goBack();
    // The stale figure links to the same list.
    await cards.nth(3).getByRole('link', { name: '1', exact: true }).click();
    expect(page.url()).toMatch(/#\/hosts\?state=stale$/);
    expect([errors, foreign]).toEqual([[], []]);
    await page.close();
  });

  it('lists findings across the fleet by kind and test id; a test id opens the hosts that have it', async () => {
    const { page, errors, foreign } = await openPage();
    await signIn(page);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Findings' }).click();
    await page.getByRole('heading', { name: 'Findings', exact: true }).waitFor();
    await page.getByLabel('Kind').selectOption('warning');
    await expect.poll(() => page.getByRole('table').getByRole('caption').textContent()).toBe('Findings 1–4 of 4');
    expect(await cellsOf(page.getByRole('table'))).toEqual([
      ['Warning', 'LOGG-2138', 'klogd is not running, which could lead to missing kernel messages in log files', '4'],
      ['Warning', 'PKGS-7392', 'Found one or more vulnerable packages.', '4'],
      ['Warning', 'AUTH-0001', '<script>alert("warning")</script>', '1'],
      ['Warning', 'FIRE-4512', 'iptables module(s) loaded, but no rules active', '1'],
    ]);
    expect(page.url()).toMatch(/#\/findings\?kind=warning$/);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-findings.png`, fullPage: true });
    // The fixture's 39 suggestions on every host and db-01's 20 of its own, less Lynis' own (test LYNIS, "this
    // release is old", hidden by default): two pages, the rarest on the second.
    await page.getByLabel('Kind').selectOption('suggestion');
    const caption = page.getByRole('table').getByRole('caption');
    await expect.poll(() => caption.textContent()).toBe('Findings 1–50 of 58');
    await page.getByRole('navigation', { name: 'Pages of findings' }).getByRole('link', { name: 'Next page' }).click();
    await expect.poll(() => caption.textContent()).toBe('Findings 51–58 of 58');
    expect(page.url()).toMatch(/#\/findings\?kind=suggestion&offset=50$/);
    expect((await cellsOf(page.getByRole('table'))).map((cells) => cells[3])).toEqual(Array(8).fill('1'));
    await page.getByRole('navigation', { name: 'Pages of findings' }).getByRole('link', { name: 'Previous page' }).click();
    await expect.poll(() => caption.textContent()).toBe('Findings 1–50 of 58');
    expect((await cellsOf(page.getByRole('table'))).map((cells) => cells[1])).not.toContain('LYNIS');
    await page.getByLabel('Test id', { exact: true }).fill('DEB-0280');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect
      .poll(() => cellsOf(page.getByRole('table')))
      .toEqual([['Suggestion', 'DEB-0280', 'Install libpam-tmpdir to set $TMP and $TMPDIR for PAM sessions', '4']]);
    expect(page.url()).toMatch(/#\/findings\?kind=suggestion&test=DEB-0280$/);
    await page.getByLabel('Kind').selectOption('warning');
    await page.getByText("No host's latest report has such a finding.").waitFor();
    await page.getByLabel('Test id', { exact: true }).fill('FIRE-4512');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => cellsOf(page.getByRole('table'))).toEqual([['Warning', 'FIRE-4512', 'iptables module(s) loaded, but no rules active', '1']]);
    await page.getByRole('link', { name: 'FIRE-4512', exact: true }).click();
    await page.getByRole('heading', { name: 'Hosts', exact: true }).waitFor();
    expect(page.url()).toMatch(/#\/hosts\?finding=FIRE-4512&kind=warning$/);
    await expect.poll(() => listedHosts(page)).toEqual(['web-01']);
    await page.getByRole('list', { name: 'Filters in force' }).getByText('warning FIRE-4512').waitFor();
    expect([errors, foreign]).toEqual([[], []]);
    await page.close();
  });

  it('filters hosts by group, tag, OS and days without a report, kept in the URL, and sorts them by hardening index', async () => {
    const { page, errors, foreign } = await openPage();
    await openHosts(page);
    await expect.poll(() => listedHosts(page)).toHaveLength(4);
    // The warnings column: web-01's newest report has the fixture's two warnings and FIRE-4512.
    const webRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'web-01' }) });
    expect(await webRow.getByRole('cell').nth(4).textContent()).toBe('3');

    await page.getByLabel('Group', { exact: true }).fill('webservers');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => listedHosts(page)).toEqual(['web-01', 'old-01']); // most recently seen first
    expect(page.url()).toMatch(/#\/hosts\?group=webservers$/);
    await page.reload(); // the filter lives in the URL
    await expect.poll(() => listedHosts(page)).toEqual(['web-01', 'old-01']);
    expect(await page.getByLabel('Group', { exact: true }).inputValue()).toBe('webservers');

    // Sorted by hardening index, highest first, then lowest first: within the filter.
    await page.getByRole('link', { name: 'Hardening index' }).click();
    await expect.poll(() => listedHosts(page)).toEqual(['web-01', 'old-01']);
    expect(page.url()).toMatch(/#\/hosts\?group=webservers&sort=hardeningIndex&order=desc$/);
    await expect.poll(() => page.getByRole('columnheader', { name: 'Hardening index' }).getAttribute('aria-sort')).toBe('descending');
    await page.getByRole('link', { name: 'Hardening index' }).click();
    await expect.poll(() => listedHosts(page)).toEqual(['old-01', 'web-01']);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-hosts-filtered.png`, fullPage: true });

    // A tag chip lists the hosts with that tag, most recently seen first; then every host, by hardening index.
    await webRow.getByRole('link', { name: 'production' }).click();
    await expect.poll(() => page.url()).toMatch(/#\/hosts\?tag=production$/);
    await expect.poll(() => listedHosts(page)).toEqual(['db-01', 'web-01']);
    await page.getByRole('link', { name: 'Remove the filter tag production' }).click();
    await page.getByRole('link', { name: 'Hardening index' }).click();
    await expect.poll(() => listedHosts(page)).toEqual(['db-01', 'web-01', HOSTILE_NAME, 'old-01']);
    await page.getByRole('link', { name: 'Hardening index' }).click();
    await expect.poll(() => listedHosts(page)).toEqual(['old-01', HOSTILE_NAME, 'web-01', 'db-01']);

    // By keyboard: Tab from the Search button to the Warnings heading, its focus visible, and Enter sorts by it.
    await page.getByRole('button', { name: 'Search' }).focus();
    for (let i = 0; i < 30 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Warnings\u00a0↕'; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toMatch(/#\/hosts\?sort=warnings&order=desc$/);
    await expect.poll(() => page.getByRole('columnheader', { name: 'Warnings' }).getAttribute('aria-sort')).toBe('descending');

    // By operating system (from a host's OS link), by group, and by days without a report.
    await page.getByRole('link', { name: 'Rocky Linux 9.4 (Blue Onyx)' }).click();
    await expect.poll(() => listedHosts(page)).toEqual(['db-01']);
    await page.goto(`${dashboardUrl}#/hosts?group=databases`);
    await expect.poll(() => listedHosts(page)).toEqual(['db-01']);
    await page.goto(`${dashboardUrl}#/hosts`);
    await page.getByLabel('Without a report for').selectOption('7');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => listedHosts(page)).toEqual(['old-01']);
    await page.getByLabel('Tag', { exact: true }).fill('production');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No host matches these filters.').waitFor();
    expect(page.url()).toMatch(/#\/hosts\?tag=production&stale=7$/);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => listedHosts(page)).toHaveLength(4);
    expect([errors, foreign]).toEqual([[], []]);
    await page.close();
  });

  it('shows hostile groups and tags as text on the hosts list and the host, and filters by them, running nothing', async () => {
    const { page, dialogs, errors, foreign } = await openPage();
    await openHosts(page);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: HOSTILE_NAME }) });
    await row.getByRole('link', { name: HOSTILE_GROUP }).waitFor();
    await row.getByRole('link', { name: HOSTILE_TAG }).waitFor();
    expect(await page.locator('main img, main script').count()).toBe(0);
    await row.getByRole('link', { name: HOSTILE_GROUP }).click();
    await expect.poll(() => listedHosts(page)).toEqual([HOSTILE_NAME]);
    expect(await page.getByLabel('Group', { exact: true }).inputValue()).toBe(HOSTILE_GROUP);
    await page.getByRole('list', { name: 'Filters in force' }).getByText(`group ${HOSTILE_GROUP}`).waitFor();
    await page.reload();
    await expect.poll(() => listedHosts(page)).toEqual([HOSTILE_NAME]);
    await page.getByRole('link', { name: HOSTILE_NAME }).click();
    await page.getByRole('heading', { name: HOSTILE_NAME }).waitFor();
    const labels = page.locator('.facts .chips a');
    await expect.poll(() => labels.allTextContents()).toEqual([`group ${HOSTILE_GROUP}`, 'group ops', `tag ${HOSTILE_TAG}`]);
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
    await page.getByRole('link', { name: HOSTILE_TAG }).click();
    await expect.poll(() => listedHosts(page)).toEqual([HOSTILE_NAME]);
    expect([dialogs, errors, foreign]).toEqual([[], [], []]);
    await page.close();
  });

  it("shows a host's groups, tags, customer and alias, its vulnerable packages, and the uploads of its host id the server refused", async () => {
    const { page, errors, foreign } = await openPage();
    await openHosts(page);
    await page.getByRole('link', { name: 'web-01' }).click();
    await page.getByRole('heading', { name: 'web-01' }).waitFor();
    const fact = (name: string) =>
      page
        .locator('.facts dt')
        .filter({ hasText: new RegExp(`^${name}$`) })
        .locator('xpath=following-sibling::dd[1]');
    expect(await fact('Alias').textContent()).toBe('web-01.example.org');
    expect(await fact('Customer').textContent()).toBe('acme');
    expect(await fact('Groups and tags').locator('a').allTextContents()).toEqual(['group webservers', 'group eu', 'tag production']);
    expect(await fact('Newest report').textContent()).toBe('3 warnings, 45 suggestions');
    const vulnerable = page.getByRole('list', { name: /^Vulnerable packages/ }).getByRole('listitem');
    await expect.poll(() => vulnerable.count()).toBe(81); // the fixture's vulnerable_package[] lines
    expect(await vulnerable.first().textContent()).toBe('apt');
    // The upload sent under a key the server does not know, for this host id.
    const refused = page.getByRole('region', { name: 'Refused uploads', exact: true });
    const [refusal, ...more] = await cellsOf(refused.getByRole('table'));
    expect(more).toEqual([]);
    expect(refusal).toEqual([
      expect.any(String),
      'Upload',
      'invalid-keykey unknown, revoked or expired',
      '1',
      expect.stringMatching(/^\d{2}:\d{2}:\d{2} UTC$/),
      'unknown key',
      '127.0.0.1',
    ]);
    expect(uploadDays).toContain(refusal![0]);
    const reports = page.getByRole('region', { name: 'Reports and changes', exact: true });
    expect((await cellsOf(reports.getByRole('table'))).map((cells) => cells.slice(1, 4))).toEqual([
      ['58', '3', '45'],
      ['62', '2', '45'],
    ]);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-host.png`, fullPage: true });
    await refused.getByRole('link', { name: 'Every refusal of this host id' }).click();
    await page.getByRole('heading', { name: 'Refused uploads', exact: true }).waitFor();
    expect(page.url()).toMatch(new RegExp(`#/refused\\?hostId=${WEB}$`));
    await expect.poll(() => page.getByRole('table').locator('tbody tr').count()).toBe(1);
    expect([errors, foreign]).toEqual([[], []]);
    await page.close();
  });

  it('shows a host: its hardening trend over its reports, the newest warnings, and a raw report', async () => {
    const { page, errors, foreign } = await openPage();
    await openHosts(page);
    await page.getByLabel('Host name contains', { exact: true }).fill('web');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'web-01' }).click();
    await page.getByRole('heading', { name: 'web-01' }).waitFor();
    await page.getByRole('img', { name: 'Hardening index: 62, 58' }).waitFor();
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    await page.getByRole('cell', { name: 'iptables module(s) loaded, but no rules active' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-host-trend.png`, fullPage: true });
    await page.getByRole('link', { name: 'Raw report' }).first().click();
    const raw = await page.locator('pre.raw').textContent();
    expect(raw).toContain('license_key=[redacted]');
    expect(raw).not.toContain(KEY);
    expect([errors, foreign]).toEqual([[], []]);
    await page.close();
  });

  it('shows what changed since the report before, and against any other report of the host', async () => {
    const { page, errors, foreign } = await openPage();
    await openHosts(page);
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
    const [newest] = await page
      .getByLabel('Compare with')
      .locator('option')
      .allTextContents()
      .then((options) => options.slice(1));
    await page.getByLabel('Compare with').selectOption({ label: newest! });
    await page.getByText('62 → 58 (-4)').waitFor();
    expect([errors, foreign]).toEqual([[], []]);
    await page.close();
  });

  it('shows hostile host names, warnings and details as text, running nothing', async () => {
    const { page, dialogs, errors, foreign } = await openPage();
    await openHosts(page);
    await page.getByRole('link', { name: HOSTILE_NAME }).click();
    await page.getByRole('heading', { name: HOSTILE_NAME }).waitFor();
    // The host's findings, tracked: each text with the newest report's details under it.
    await page.getByText('<script>alert("warning")</script>', { exact: true }).waitFor();
    await page.getByText('Details: <b onmouseover=alert(2)>details</b>', { exact: true }).hover();
    expect(await page.locator('main img, main script, main b').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-hostile-host.png`, fullPage: true });
    expect([dialogs, errors, foreign]).toEqual([[], [], []]);
    await page.close();
  });

  it('creates a key shown once and revokes it, and the admin API agrees', async () => {
    const { page, dialogs, errors } = await openPage({ confirmDialogs: true });
    await signIn(page);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Keys' }).click();
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
    const listed = (await (await fetch(`${server.url}/api/admin/keys`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as {
      items: { label: string; state: string }[];
    };
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
    await refuse(
      'deadbeef-0000-0000-0000-00000000ffff',
      '3333333333333333333333333333333333333333',
      report('3333333333333333333333333333333333333333', 'db-01', 70),
      401,
    );
    for (let i = 0; i < 3; i++) await refuse(KEY, HOSTILE_HOST_ID, 'not a report', 400);
    const listed = async () =>
      (
        (await (await fetch(`${server.url}/api/admin/rejections?operation=uploadReport`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as {
          total: number;
        }
      ).total;
    await expect.poll(listed, { timeout: 5000 }).toBe(3); // these two, and web-01's refused upload of beforeAll

    const { page, dialogs, errors, foreign } = await openPage();
    await signIn(page);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Refused' }).click();
    await page.getByRole('heading', { name: 'Refused uploads', exact: true }).waitFor();
    const hostile = page.getByRole('row').filter({ has: page.getByRole('cell', { name: HOSTILE_HOST_ID, exact: true }) });
    await expect
      .poll(() => hostile.getByRole('cell').allTextContents())
      .toEqual([
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        HOSTILE_HOST_ID,
        expect.stringMatching(/^\(no label\) · [0-9a-f]{8}…$/),
        'Upload',
        'invalid-datareport unreadable',
        '3',
        expect.stringMatching(/^\d{2}:\d{2}:\d{2} UTC$/),
        '127.0.0.1',
      ]);
    const unknownKey = page.getByRole('row').filter({ hasText: '3333333333333333333333333333333333333333' });
    await unknownKey.getByRole('cell', { name: 'unknown key' }).waitFor();
    await unknownKey.getByRole('cell', { name: /^invalid-key\s*key unknown, revoked or expired$/ }).waitFor();
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280); // fits the window
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-refused.png`, fullPage: true });
    // At 420 px the Reason choice (its options are long) shrinks to the window instead of running off its side.
    await page.setViewportSize({ width: 420, height: 800 });
    expect(await fitsWidth(page, 420), '#/refused at 420 px').toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-refused-narrow.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByLabel('Reason').selectOption('invalid-key');
    await page.getByRole('cell', { name: HOSTILE_HOST_ID }).waitFor({ state: 'detached' });
    await unknownKey.waitFor();
    expect(await page.getByRole('cell', { name: /^invalid-data/ }).count()).toBe(0);
    expect(page.url()).toMatch(/#\/refused\?reason=invalid-key$/);

    // A host id links to the hosts that sent it: web-01's leads to the hosts list showing web-01 alone.
    await page.getByRole('link', { name: WEB, exact: true }).click();
    await page.getByRole('heading', { name: 'Hosts', exact: true }).waitFor();
    expect(page.url()).toMatch(new RegExp(`#/hosts\\?hostId=${WEB}$`));
    await expect.poll(() => listedHosts(page)).toEqual(['web-01']);
    await page.getByRole('list', { name: 'Filters in force' }).getByText(`host id ${WEB}`).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-refused-host-link.png`, fullPage: true });
    expect([dialogs, errors, foreign]).toEqual([[], [], []]);
    await page.close();
  });

  it('decommissions a host from its page, lists it only under State=Decommissioned, and reactivates it by a bulk action', async () => {
    const [db] = (await adminGet<{ items: { id: string; state: string }[] }>('/api/admin/hosts?hostname=db-01')).items;
    expect(db!.state).toBe('active');
    const { page, dialogs, errors, foreign } = await openPage();
    await signIn(page);
    await page.goto(`${dashboardUrl}#/hosts/${db!.id}`);
    await page.getByRole('heading', { name: 'db-01', level: 1 }).waitFor();
    await page.locator('.host-state').getByText('Active', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Host actions' }).getByRole('button', { name: 'Decommission' }).click();

    // The badge, since when and why, and what being decommissioned means.
    await page.locator('.host-state').getByText('Decommissioned', { exact: true }).waitFor();
    expect(await page.locator('.host-state').innerText()).toMatch(/^Decommissioned since \d{4}-\d{2}-\d{2} [\d:]+ \S+ \(changed by an operator\)$/);
    expect(await page.locator('.notice.decommissioned').innerText()).toMatch(/left out of every fleet figure.*A new report from it makes it active again\./s);
    await page.getByRole('region', { name: 'Host actions' }).getByRole('button', { name: 'Reactivate' }).waitFor();
    expect((await adminGet<{ state: string; stateReason: string }>(`/api/admin/hosts/${db!.id}`)).state).toBe('decommissioned');
    expect(await fitsWidth(page, 1280)).toBe(true);
    // The header stays on one line: every page link of the navigation at the same height.
    const tops = await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getBoundingClientRect().top));
    expect(new Set(tops).size).toBe(1);
    await page.screenshot({ path: `${ARTIFACTS}/host-state-decommissioned.png` });

    // The overview counts it apart, linking to the decommissioned hosts; the default hosts list leaves it out.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('list', { name: 'Hosts' }).getByRole('link', { name: '1 decommissioned' }).click();
    expect(page.url()).toMatch(/#\/hosts\?state=decommissioned$/);
    await expect.poll(() => listedHosts(page)).toEqual(['db-01']);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => listedHosts(page)).not.toContain('db-01');
    expect((await listedHosts(page)).length).toBe(3);

    // State=Decommissioned from the filter form, kept in the URL; then All, and a bulk reactivation of the selection.
    await page.getByLabel('State', { exact: true }).selectOption('decommissioned');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => listedHosts(page)).toEqual(['db-01']);
    expect(page.url()).toMatch(/#\/hosts\?state=decommissioned$/);
    await page.getByRole('list', { name: 'Filters in force' }).getByText('state decommissioned').waitFor();
    await page.getByLabel('State', { exact: true }).selectOption('all');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => listedHosts(page)).toHaveLength(4);
    const dbRow = page.locator('table.hosts tbody tr').filter({ has: page.getByRole('link', { name: 'db-01', exact: true }) });
    expect(await dbRow.locator('.host-state-flag').innerText()).toBe('Decommissioned');
    // Only hosts that are not active carry a state: old-01 is stale.
    expect(await page.locator('table.hosts .host-state-flag').allInnerTexts()).toEqual(['Decommissioned', 'Stale']);
    await page.getByRole('checkbox', { name: 'Select db-01' }).check();
    const bulk = page.getByRole('region', { name: 'Selected hosts' });
    await bulk.getByRole('button', { name: 'Reactivate…' }).click();
    await bulk.getByRole('group', { name: 'Reactivate the selected host?' }).waitFor();
    await bulk.getByRole('button', { name: 'Decommission…' }).waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/hosts-bulk-state.png` });
    await bulk.getByRole('group', { name: 'Reactivate the selected host?' }).getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('status').filter({ hasText: '1 of 1 host reactivated.' }).waitFor();
    await expect.poll(() => dbRow.locator('.host-state-flag').count()).toBe(0);
    expect((await adminGet<{ state: string }>(`/api/admin/hosts/${db!.id}`)).state).toBe('active');
    expect([dialogs, errors, foreign]).toEqual([[], [], []]);
    await page.close();
  });
});

describe('the dashboard beside the admin API', () => {
  it("moves with the admin API to its own listener, and is not served on the collectors' port then", async () => {
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
