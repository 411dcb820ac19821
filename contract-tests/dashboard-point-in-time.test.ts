// The overview, the hosts list and a policy's results as of a past day, in a real browser (Debian's Chromium through
// playwright-core), against the reference server on a database holding seventy days of a small fleet's history: the
// compliance scenario of the server's own tests (back-dated reports stored and evaluated on a test clock, policy
// versions and waivers at their days), with its figures worked out by hand. The day is picked in the page's "As of"
// field, lives in the URL, shows in a banner with a link back to now, and reaches the API and the hosts export.
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../packages/server/src/database/open.js';
import { createAdminToken } from '../packages/server/src/secrets/admin-tokens.js';
import { createKey } from '../packages/server/src/secrets/license-keys.js';
import { dateOf, seedComplianceScenario, type ComplianceScenario } from '../packages/server/src/compliance/compliance-scenario.test-kit.js';
import { launchChromium, signIn } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The banner's words for a day of the scenario. */
const bannerOf = (day: number) => {
  const [year, month, date] = dateOf(day).split('-').map(Number) as [number, number, number];
  return `As of ${date} ${MONTHS[month - 1]} ${year} (end of day, UTC)`;
};

let data: { dataDir: string; remove: () => Promise<void> };
let server: ServerProcess;
let browser: Browser;
let adminToken: string;
let scenario: ComplianceScenario;

beforeAll(async () => {
  data = await makeDataDir();
  const database = await openDatabase(data.dataDir);
  scenario = await seedComplianceScenario(database, (await createKey(database, { label: 'point in time' })).id);
  await scenario.evaluator.stop();
  ({ token: adminToken } = await createAdminToken(database, { label: 'point in time test' }));
  await database.close();
  server = await startServerProcess(data.dataDir, ['--plain-http']);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await data?.remove();
});

async function newPage(): Promise<{ page: Page; asked: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
  page.setDefaultTimeout(15_000);
  // Saved as a download of a Blob, as browsers without the File System Access API save exports.
  await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
  const asked: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => asked.push(decodeURIComponent(request.url())));
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, `${server.url}/dashboard/`, adminToken);
  return { page, asked, errors };
}

/** The overview's card whose label matches. */
const cardOf = (page: Page, label: RegExp) =>
  page
    .getByRole('list', { name: 'Hosts' })
    .getByRole('listitem')
    .filter({ has: page.locator('.card-label').filter({ hasText: label }) });
/** The value of the overview's card whose label matches. */
const card = (page: Page, label: RegExp) => cardOf(page, label).locator('.card-value');

it('shows the overview as of a past day picked in its As of field, with a banner and a link back to now', async () => {
  const { page, asked, errors } = await newPage();
  // Now: h1 to h4 (h5 decommissioned).
  await expect.poll(() => card(page, /^Hosts$/).innerText()).toBe('4');

  // Day 15: h1, h2 and h3 had reported; h2's failure covered by W1: 2 compliant, 1 waived.
  await page.getByLabel('As of').fill(dateOf(15));
  await page.waitForURL(new RegExp(`#/\\?at=${dateOf(15)}$`));
  await page.getByText(bannerOf(15)).waitFor();
  await expect.poll(() => card(page, /^Hosts$/).innerText()).toBe('3');
  expect(await card(page, /^Compliant/).innerText()).toBe('67%');
  expect(await cardOf(page, /^Compliant/).innerText()).toContain('of 3 evaluated; 0 failing, 1 waived');
  expect(asked.some((url) => url.endsWith(`/api/admin/overview?at=${dateOf(15)}`))).toBe(true);
  // Time to fix is counted up to now: not on a past overview.
  expect(await page.getByRole('heading', { name: 'Time to fix' }).count()).toBe(0);
  await page.screenshot({ path: `${ARTIFACTS}/overview-as-of.png`, fullPage: false });

  // A reload keeps the day; the link goes back to now.
  await page.reload();
  await page.getByText(bannerOf(15)).waitFor();
  await page.getByRole('link', { name: 'Back to now' }).click();
  await page.waitForURL(/#\/$/);
  await expect.poll(() => card(page, /^Hosts$/).innerText()).toBe('4');
  expect(await page.getByText(/^As of \d+ \w+ \d{4} \(end of day, UTC\)/).count()).toBe(0);
  expect(errors).toEqual([]);
  await page.close();
});

it('lists the hosts as of a past day, sets aside the filters on what they are now, and exports them as the list shows them', async () => {
  const { page, asked, errors } = await newPage();
  await page.goto(`${server.url}/dashboard/#/hosts?group=web&sort=hostname&order=asc`);
  await page.getByRole('heading', { name: 'Hosts', level: 1 }).waitFor();
  await page.getByLabel('As of').fill(dateOf(15));
  await page.waitForURL(/#\/hosts\?group=web&sort=hostname&order=asc&at=\d{4}-\d{2}-\d{2}$/);
  await page.getByText(bannerOf(15)).waitFor();
  await page.getByText('Set aside as of a past day, as they filter on what hosts are now: group web.').waitFor();
  const table = page.locator('table.hosts');
  // Day 15: h2 at 50 (80 from day 20), waived by W1; h4 not seen yet.
  await expect
    .poll(async () =>
      (await table.locator('tbody tr').all()).length === 3
        ? table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent?.trim())))
        : [],
    )
    .toEqual([
      [expect.stringMatching(/^h1\.example\.org/), 'group web', '—', '70', '1', 'compliant', '1', expect.any(String)],
      [expect.stringMatching(/^h2\.example\.org/), 'group web', '—', '50', '0', 'waived', '1', expect.any(String)],
      [expect.stringMatching(/^h3\.example\.org/), 'group db', '—', '70', '1', 'compliant', '1', expect.any(String)],
    ]);
  // No bulk actions or selection on a past list.
  expect(await page.locator('input.select-host').count()).toBe(0);
  expect(asked.some((url) => url.includes(`/api/admin/hosts?limit=50&offset=0&sort=hostname&order=asc&at=${dateOf(15)}`))).toBe(true);
  await page.screenshot({ path: `${ARTIFACTS}/hosts-as-of.png`, fullPage: false });

  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('group', { name: /^The hosts listed/ })
      .getByRole('button', { name: 'Download CSV' })
      .click(),
  ]);
  const rows: Record<string, string>[] = parseCsv(await readFile(await saved.path(), 'utf8'), { columns: true });
  expect(rows.map((row) => [row.hostname, row.hardeningIndex, row.compliance])).toEqual([
    ['h1.example.org', '70', 'compliant'],
    ['h2.example.org', '50', 'waived'],
    ['h3.example.org', '70', 'compliant'],
  ]);
  expect(asked.some((url) => url.includes(`/api/admin/exports/hosts?format=csv&sort=hostname&order=asc&at=${dateOf(15)}`))).toBe(true);
  expect(errors).toEqual([]);
  await page.close();
});

it("shows a policy's results as of a past day, under its version then, without offering to accept them", async () => {
  const { page, errors } = await newPage();
  // Day 5: Baseline's revision 1 (rule index alone), h2 failing it at 50.
  await page.goto(`${server.url}/dashboard/#/policies/${scenario.baselineId}?at=${dateOf(5)}`);
  await page.getByRole('heading', { name: 'Policy: Baseline' }).waitFor();
  await page.getByText(bannerOf(5)).waitFor();
  const results = page.locator('table.policy-results');
  await expect
    .poll(() => results.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent?.trim()))))
    .toEqual([['h2.example.org', 'index', 'fail', '50', expect.any(String), '']]);
  await page.screenshot({ path: `${ARTIFACTS}/policy-results-as-of.png`, fullPage: true });
  // Every status: h1 and h3 pass; no firewall rule yet (revision 2 came on day 30).
  await page.getByLabel('Status').selectOption('any');
  await page.waitForURL(/status=any/);
  await expect
    .poll(() =>
      results.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].slice(0, 3).map((cell) => cell.textContent?.trim()))),
    )
    .toEqual([
      ['h2.example.org', 'index', 'fail'],
      ['h1.example.org', 'index', 'pass'],
      ['h3.example.org', 'index', 'pass'],
    ]);
  expect(page.url()).toContain(`at=${dateOf(5)}`);
  expect(errors).toEqual([]);
  await page.close();
});
