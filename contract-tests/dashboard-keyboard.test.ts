// The dashboard by keyboard, in a real browser (Debian's Chromium through playwright-core), on a fleet of 60 hosts
// stored before the server starts: the window title and focus as pages change, the skip link, sorting by keyboard,
// one Tab stop per host row, the page size kept in the URL, how many rows a 1280×800 window shows, and times in the
// browser's time zone with UTC on hover. Screenshots go to test-artifacts/.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { launchChromium, openFromNav, reportAs, signIn as signInAs, storeReport } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const HOSTS = 60;
const VIEWPORT = { width: 1280, height: 800 };
/** The seeded hosts' names, `host-01` to `host-60`, each a minute newer than the one before. */
const hostName = (n: number) => `host-${String(n).padStart(2, '0')}`;

let server: ServerProcess;
let browser: Browser;
let removeDataDir: () => Promise<void>;
let adminToken: string;
let dashboardUrl: string;

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  const keyId = await importKey(orm, lynisCapture.key);
  ({ token: adminToken } = await createAdminToken(orm, { label: 'keyboard test' }));
  const start = Date.now() - HOSTS * 60_000;
  for (let n = 1; n <= HOSTS; n++) {
    // Groups and tags give each row the links that used to be Tab stops of their own.
    const labels = { 'system-groups': n % 2 ? 'webservers,eu' : 'databases', tags: 'production' };
    const hostId = n.toString(16).padStart(40, 'a');
    await storeReport(orm, keyId, hostId, reportAs(hostId, hostName(n), 40 + (n % 40), [], labels), new Date(start + n * 60_000));
  }
  await orm.close();
  server = await startServerProcess(data.dataDir, ['--plain-http']);
  dashboardUrl = `${server.url}/dashboard/`;
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeDataDir?.();
});

/** A signed-in tab at 1280×800 (in `timezoneId`, the machine's by default), on the overview; page errors recorded. */
async function signedIn(timezoneId?: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: VIEWPORT, timezoneId });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signInAs(page, dashboardUrl, adminToken);
  return { page, errors };
}

/** Opens the hosts list at `hash` and waits for its rows. */
async function openHosts(page: Page, hash = '#/hosts'): Promise<void> {
  await page.goto(`${dashboardUrl}${hash}`);
  await page.locator('table.hosts tbody tr').first().waitFor();
}

/** What has focus: its tag, its text (first 40 characters), and the `aria-sort` of its heading cell, if any. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return { tag: active?.tagName, text: active?.textContent?.trim().slice(0, 40), sort: active?.closest('th')?.getAttribute('aria-sort') ?? null };
  });

/** The host names of the list, in the order shown. */
const listed = (page: Page) => page.locator('table.hosts tbody tr td:first-child > a').allTextContents();

describe('the dashboard by keyboard', () => {
  it('names each page in the window title and, after a move (not on first load), puts focus on its heading', async () => {
    const { page, errors } = await signedIn();
    expect(await page.title()).toBe('Overview · Audit collector');
    await openFromNav(page, 'Hosts');
    await expect.poll(() => page.title()).toBe('Hosts · Audit collector');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'H1', text: 'Hosts' });
    await page.getByRole('link', { name: hostName(60), exact: true }).click();
    await expect.poll(() => page.title()).toBe(`${hostName(60)} · Host · Audit collector`);
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'H1', text: hostName(60) });
    await openFromNav(page, 'Refused', 'Refused uploads');
    await expect.poll(() => page.title()).toBe('Refused uploads · Audit collector');
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'H1', text: 'Refused uploads' });
    // A first load leaves focus at the top of the page, where the skip link is the first stop.
    await page.reload();
    await page.getByRole('heading', { name: 'Refused uploads', exact: true }).waitFor();
    expect(await page.title()).toBe('Refused uploads · Audit collector');
    expect(await focused(page)).toMatchObject({ tag: 'BODY' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('has a skip link, the first Tab stop, shown when focused, that moves focus to the main content', async () => {
    const { page } = await signedIn();
    await openHosts(page);
    await page.reload();
    await page.locator('table.hosts tbody tr').first().waitFor();
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.boundingBox()).toMatchObject({ y: expect.any(Number) as number });
    expect((await skip.boundingBox())!.y + (await skip.boundingBox())!.height).toBeLessThanOrEqual(0); // out of sight
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'A', text: 'Skip to content' });
    expect((await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-skip-link.png` });
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ tag: 'MAIN' });
    expect(page.url()).toMatch(/#\/hosts$/); // the route stays
    await page.keyboard.press('Tab'); // the next stop is in the page, past the navigation
    expect(await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement))).toBe(true);
    await page.context().close();
  });

  it('sorts by keyboard: Enter, Enter on a heading reverses the order, the heading keeping focus', async () => {
    const { page } = await signedIn();
    await openHosts(page);
    await page.getByRole('link', { name: /^Host name/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toEqual({ tag: 'A', text: 'Host name\u00a0▲', sort: 'ascending' });
    expect((await listed(page)).slice(0, 2)).toEqual([hostName(1), hostName(2)]);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toEqual({ tag: 'A', text: 'Host name\u00a0▼', sort: 'descending' });
    expect((await listed(page)).slice(0, 2)).toEqual([hostName(60), hostName(59)]);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-sort-focus.png`, clip: { x: 0, y: 250, width: 1280, height: 200 } });
    await page.context().close();
  });

  it('has one Tab stop per host row, and the pager right after the rows', async () => {
    const { page } = await signedIn();
    await openHosts(page);
    const names = await listed(page);
    await page.getByRole('link', { name: names[0], exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'A', text: names[1] });
    // From the first row to "Next page": one stop a row.
    let tabs = 1;
    while ((await focused(page)).text !== 'Next page' && tabs < 500) {
      await page.keyboard.press('Tab');
      tabs++;
    }
    console.log(`Tab presses from the first host row to "Next page": ${tabs} (50 rows)`);
    expect(tabs).toBe(50);
    await page.context().close();
  });

  it('keeps a page size chosen in the pager in the URL, through reload and the next page, and focus on the pager', async () => {
    const { page } = await signedIn();
    await openHosts(page);
    expect(await page.locator('table.hosts tbody tr').count()).toBe(50);
    await page.getByLabel('Per page').selectOption('25');
    await expect.poll(() => page.locator('table.hosts tbody tr').count()).toBe(25);
    expect(page.url()).toMatch(/#\/hosts\?size=25$/);
    expect(await focused(page)).toMatchObject({ tag: 'SELECT' }); // the list reloaded, focus kept
    await page.reload();
    await expect.poll(() => page.locator('table.hosts tbody tr').count()).toBe(25);
    expect(await page.getByLabel('Per page').inputValue()).toBe('25');
    await page.getByRole('link', { name: 'Next page' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('caption').textContent()).toBe(`Hosts 26–50 of ${HOSTS}`);
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'A', text: 'Next page' }); // ready for the page after
    await page.getByRole('navigation', { name: 'Pages of hosts' }).screenshot({ path: `${ARTIFACTS}/dashboard-pager.png` });
    await page.getByLabel('Per page').selectOption('100');
    await expect.poll(() => page.locator('table.hosts tbody tr').count()).toBe(HOSTS);
    expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0); // the browser keeps nothing but the tab's token
    await page.context().close();
  });

  it('shows at least 15 host rows in a 1280×800 window', async () => {
    const { page } = await signedIn();
    await openHosts(page);
    const visibleRows = () =>
      page.evaluate(
        () =>
          [...document.querySelectorAll('table.hosts tbody tr')].filter(
            (row) => row.getBoundingClientRect().top >= 0 && row.getBoundingClientRect().bottom <= innerHeight,
          ).length,
      );
    const atTop = await visibleRows();
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-hosts-compact.png` });
    // Scrolled to the list, as when reading it.
    await page.locator('table.hosts').evaluate((table) => table.scrollIntoView());
    const scrolled = await visibleRows();
    console.log(`Host rows inside a 1280×800 window: ${atTop} on opening the list, ${scrolled} scrolled to the list`);
    expect(atTop).toBeGreaterThanOrEqual(15);
    await page.context().close();
  });

  it("shows times in the browser's time zone, with the UTC time on hover", async () => {
    const { page } = await signedIn('Europe/Paris');
    await openHosts(page, '#/hosts?sort=hostname&order=asc');
    const lastSeen = page.locator('table.hosts tbody tr').first().locator('time');
    const utc = await lastSeen.getAttribute('title');
    expect(utc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Paris is an hour or two ahead of UTC, as its name in the text says.
    const [, day, time, hours] = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) GMT\+([12])$/.exec((await lastSeen.textContent()) ?? '') ?? [];
    expect(Date.parse(`${day}T${time}Z`) - Number(hours) * 3_600_000).toBe(Date.parse(utc!));
    await page.context().close();
  });
});
