// The Trends page in a real browser (Debian's Chromium through playwright-core), against the reference server on a
// database holding seventy days of a small fleet's history: the compliance scenario of the server's own tests
// (back-dated reports stored and evaluated on a test clock, policies, waivers and an accepted finding, each at its
// day), with its figures worked out by hand. The page's tables show those figures on the scenario's days, its charts
// are drawn with their legends, its filters live in the URL and reach the API and the export, and the one finding
// resolved shows in its week's time to fix.
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../packages/server/src/database/open.js';
import { createAdminToken } from '../packages/server/src/secrets/admin-tokens.js';
import { createKey } from '../packages/server/src/secrets/license-keys.js';
import { dateOf, EXPECTED, seedComplianceScenario } from '../packages/server/src/compliance/compliance-scenario.test-kit.js';
import { launchChromium, signIn } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
/** The scenario's days whose figures it worked out by hand. */
const DAYS = [5, 15, 42, 47, 57] as const;

let data: { dataDir: string; remove: () => Promise<void> };
let server: ServerProcess;
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  data = await makeDataDir();
  const database = await openDatabase(data.dataDir);
  const scenario = await seedComplianceScenario(database, (await createKey(database, { label: 'trends' })).id);
  await scenario.evaluator.stop();
  ({ token: adminToken } = await createAdminToken(database, { label: 'trends test' }));
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

/** Compliant and accepted hosts of those with a known status, as the page writes it. */
const percent = ({ compliant, accepted, noncompliant }: { compliant: number; accepted: number; noncompliant: number }) =>
  compliant + accepted + noncompliant === 0 ? '—' : `${Math.round(((compliant + accepted) / (compliant + accepted + noncompliant)) * 1000) / 10}\u00a0%`;

/** The cells of a panel's numbers table, by column heading, for the row of `date` (the table unfolded first). */
async function rowOf(panel: Locator, date: string): Promise<Record<string, string>> {
  const numbers = panel.locator('details.chart-data');
  if ((await numbers.getAttribute('open')) === null) await numbers.locator('summary').click();
  const headings = await numbers.locator('thead th').allInnerTexts();
  const cells = await numbers
    .getByRole('row')
    .filter({ has: panel.page().getByRole('cell', { name: date, exact: true }) })
    .getByRole('cell')
    .allInnerTexts();
  return Object.fromEntries(headings.map((heading, i) => [heading, cells[i] ?? '']));
}

async function openTrends(page: Page, fragment: string): Promise<void> {
  await page.goto(`${server.url}/dashboard/${fragment}`);
  await page.getByRole('heading', { name: 'Trends', level: 1 }).waitFor();
  await page.getByRole('region', { name: 'Compliance per policy' }).locator('canvas').waitFor();
}

it("shows the scenario's open findings and compliance on its days, each chart with its legend, and the week of its one resolution", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, `${server.url}/dashboard/`, adminToken);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Trends', exact: true }).click();
  await page.getByRole('heading', { name: 'Trends', level: 1 }).waitFor();
  // The last 90 days, a point a day: the whole scenario (it began 70 days ago).
  await page.getByLabel('Window').selectOption('90');
  await page.waitForURL(/#\/trends\?days=90$/);
  const findings = page.getByRole('region', { name: 'Open findings' });
  const compliance = page.getByRole('region', { name: 'Compliance per policy' });
  const fixTime = page.getByRole('region', { name: 'Time to fix per week' });
  await compliance.locator('canvas').waitFor();
  await fixTime.locator('canvas').waitFor();
  // The page's content (charts, legends, filters) within the window: nothing runs off to the right.
  expect(await page.locator('main').evaluate((main) => main.scrollWidth <= main.clientWidth)).toBe(true);
  // The charts as a person first sees them, their tables folded.
  await page.screenshot({ path: `${ARTIFACTS}/trends.png`, fullPage: true });

  for (const day of DAYS) {
    const expected = EXPECTED[day]!;
    expect(await rowOf(findings, dateOf(day)), `open findings on day ${day}`).toEqual({
      'Day (UTC)': dateOf(day),
      Warnings: String(expected.findings.warning),
      Suggestions: String(expected.findings.suggestion),
      Accepted: String(expected.findings.accepted),
    });
    expect(await rowOf(compliance, dateOf(day)), `compliance on day ${day}`).toEqual({
      'Day (UTC)': dateOf(day),
      Compliant: String(expected.fleet.compliant),
      Accepted: String(expected.fleet.accepted),
      'Non-compliant': String(expected.fleet.noncompliant),
      Unknown: String(expected.fleet.unknown),
      Fleet: percent(expected.fleet),
      Baseline: percent(expected.baseline),
      Web: percent(expected.web),
    });
  }
  // Nothing changed after day 57: today's figures are that day's, written above the charts.
  const last = EXPECTED[57]!;
  expect(await findings.locator('p').first().innerText()).toMatch(
    new RegExp(
      `^On \\d{4}-\\d{2}-\\d{2}: ${last.findings.warning} warnings, ${last.findings.suggestion} suggestions and ${last.findings.accepted} accepted open`,
    ),
  );
  expect(await compliance.locator('p').first().innerText()).toContain(
    `${percent(last.fleet)} of the hosts with a known status compliant (${last.fleet.compliant} compliant, ${last.fleet.accepted} accepted, ` +
      `${last.fleet.noncompliant} non-compliant, ${last.fleet.unknown} unknown)`,
  );

  // Three charts, each with a legend naming its lines (uPlot draws the axes and their names on the canvas: see the screenshot).
  expect(await page.locator('.chart canvas').count()).toBe(3);
  expect(await findings.locator('.u-legend .u-label').allInnerTexts()).toEqual(['Warnings', 'Suggestions', 'Accepted risk']);
  expect(await compliance.locator('.u-legend .u-label').allInnerTexts()).toEqual(['Fleet (every policy)', 'Baseline', 'Web']);
  expect(await fixTime.locator('.u-legend .u-label').allInnerTexts()).toEqual(['Mean', 'Median']);

  // h1's SSH-7408, first seen on day 0 and gone from its report on day 40, both at noon: 40 days in its week, the
  // only resolution of the 13 weeks, the week h4's FILE-6310 opened; nothing changed in the last 7 days.
  const numbers = fixTime.locator('details.chart-data');
  await numbers.locator('summary').click();
  const weeks = await numbers.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)));
  expect(weeks).toHaveLength(13);
  expect(weeks.filter((week) => week[1] !== '0')).toEqual([[expect.any(String), '1', '40 d', '40 d', '1', '0']]);
  expect(await fixTime.getByRole('list', { name: 'This week' }).innerText()).toMatch(
    /^0\s+Opened in the last 7 days\s+0\s+Resolved in the last 7 days\s+0\s+Regressed/,
  );

  expect(errors).toEqual([]);
  await page.close();
});

it('filters by group through the URL, in the API call, the time to fix and the CSV export', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
  page.setDefaultTimeout(15_000);
  // Saved as a download of a Blob, as browsers without the File System Access API save exports.
  await page.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
  const asked: string[] = [];
  page.on('request', (request) => asked.push(decodeURIComponent(request.url())));
  await signIn(page, `${server.url}/dashboard/`, adminToken);
  await openTrends(page, '#/trends?days=90');
  await page.getByLabel('Group').fill('web');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(/#\/trends\?days=90&group=web$/);
  const compliance = page.getByRole('region', { name: 'Compliance per policy' });
  // Day 5 in group web (h1 and h2; h5 decommissioned): h1 passes both policies, h2 fails Baseline's index.
  await expect
    .poll(() => rowOf(compliance, dateOf(5)))
    .toMatchObject({ Compliant: '1', Accepted: '0', 'Non-compliant': '1', Unknown: '0', Fleet: '50\u00a0%', Web: '100\u00a0%' });
  expect(await rowOf(page.getByRole('region', { name: 'Open findings' }), dateOf(5))).toMatchObject({ Warnings: '1', Suggestions: '1', Accepted: '0' });
  expect(asked.some((url) => /\/api\/admin\/compliance\/history\?from=\d{4}-\d{2}-\d{2}&interval=day&group=web$/.test(url))).toBe(true);
  // h1 is of group web: its resolution is the group's.
  const fixTime = page.getByRole('region', { name: 'Time to fix per week' });
  await expect.poll(() => fixTime.innerText()).toContain('Times to fix of the group web');

  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('group', { name: /^This history/ })
      .getByRole('button', { name: 'Download CSV' })
      .click(),
  ]);
  expect(asked.some((url) => /\/api\/admin\/exports\/compliance-history\?from=\d{4}-\d{2}-\d{2}&interval=day&group=web&format=csv$/.test(url))).toBe(true);
  const rows: Record<string, string>[] = parseCsv(await readFile(await saved.path(), 'utf8'), { columns: true });
  const fleetOnDay5 = rows.find((row) => row.date === dateOf(5) && row.policyId === '');
  expect(fleetOnDay5).toMatchObject({ group: 'web', compliant: '1', noncompliant: '1', accepted: '0', unknown: '0', openWarnings: '1', openSuggestions: '1' });
  await page.close();
});
