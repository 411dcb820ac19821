// The dashboard's exports and printable host report in a real browser (Debian's Chromium through playwright-core),
// against the reference server seeded through real uploads: each export button's download (the file name the server
// gives, CSV or JSON holding the uploaded host), a failed export shown in place, a revoked token signed out, and one
// host's report printed to PDF without the navigation, with the host's text as text.
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseCsv } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { launchChromium, reportAs, signIn } from './support/dashboard.js';
import { until } from './support/until.js';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = `${fileURLToPath(new URL('..', import.meta.url))}test-artifacts`;
const HOST_ID = '8888888888888888888888888888888888888888';
const HOSTNAME = 'print-01';
const KEY_LABEL = 'Audit lab key';
/** A warning whose text is markup: the exports carry it as it is, the printed report shows it as text. */
const HOSTILE_TEXT = '<script>alert("warning")</script>';

let server: ServerProcess;
let browser: Browser;
let dataDir: string;
let removeDataDir: () => Promise<void>;
let adminToken: string;
/** A second token, revoked by the test that shows the sign-out. */
let doomed: { id: string; token: string };
let scratch: string;
let dashboardUrl: string;

beforeAll(async () => {
  const data = await makeDataDir();
  ({ dataDir, remove: removeDataDir } = data);
  const orm = await openDatabase(dataDir);
  await importKey(orm, lynisCapture.key, { label: KEY_LABEL });
  ({ token: adminToken } = await createAdminToken(orm, { label: 'exports test' }));
  doomed = await createAdminToken(orm, { label: 'revoked by the test' });
  await orm.close();
  server = await startServerProcess(dataDir, ['--plain-http']);
  dashboardUrl = `${server.url}/dashboard/`;
  // Two reports, so that the host has a trend and a history of two rows; the newer one with a hostile warning.
  for (const text of [reportAs(HOST_ID, HOSTNAME, 61), reportAs(HOST_ID, HOSTNAME, 67, [`AUTH-0001|${HOSTILE_TEXT}|-|-|`])]) {
    const answer = await fetch(`${server.url}/api/audit/upload/`, {
      method: 'POST',
      body: new URLSearchParams({ data: text, licensekey: lynisCapture.key, hostid: HOST_ID }),
    });
    expect(answer.status).toBe(200);
  }
  // The shipped baseline, so that the host has compliance results to export and to print (it fails on its packages).
  const admin = (path: string, method = 'GET') => fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${adminToken}` } });
  expect((await admin('/api/admin/policies/baseline', 'POST')).status).toBe(201);
  const [host] = ((await (await admin('/api/admin/hosts')).json()) as { items: { id: string }[] }).items;
  const evaluated = async () => ((await (await admin(`/api/admin/hosts/${host!.id}/compliance`)).json()) as { results: unknown[] }).results.length > 0;
  await until(evaluated, 'the baseline is evaluated', 15_000);
  scratch = await mkdtemp(join(tmpdir(), 'dashboard-exports-'));
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeDataDir?.();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/**
 * A fresh tab that records dialogs (dismissed) and page errors. Exports reach the file the way browsers without the
 * File System Access API save them (a download of a Blob), or, with `picker`, through a stand-in for Chromium's save
 * picker (whose dialog a headless browser cannot answer) that keeps what the page streams into `window.savedExport`.
 */
async function openPage(picker = false): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page.setDefaultTimeout(8000);
  await page.addInitScript((streamed) => {
    const target = window as unknown as Record<string, unknown>;
    if (!streamed) return void Object.defineProperty(window, 'showSaveFilePicker', { value: undefined });
    target['showSaveFilePicker'] = async ({ suggestedName }: { suggestedName: string }) => ({
      name: suggestedName,
      createWritable: async () => {
        const chunks: Uint8Array[] = [];
        return new WritableStream<Uint8Array>({
          write: (chunk) => void chunks.push(chunk),
          close: () =>
            void (target['savedExport'] = {
              name: suggestedName,
              chunks: chunks.length,
              text: new TextDecoder().decode(new Uint8Array(chunks.flatMap((chunk) => [...chunk]))),
            }),
        });
      },
    });
  }, picker);
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, dialogs, errors };
}

/** Opens a page from the navigation. */
async function openFromNavigation(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, exact: true }).waitFor();
}

/** Clicks the download button of `format` in the export group whose label starts with `group`; the file saved. */
async function download(page: Page, group: string, format: 'csv' | 'json' | 'jsonl'): Promise<{ name: string; text: string }> {
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('group', { name: group })
      .getByRole('button', { name: `Download ${format.toUpperCase()}` })
      .click(),
  ]);
  return { name: saved.suggestedFilename(), text: await readFile(await saved.path(), 'utf8') };
}

/** The rows of a CSV export, by column name. */
const csvRows = (text: string): Record<string, string>[] => parseCsv(text, { columns: true });

it("downloads every host, every finding and a host's history as CSV and JSON, named as the server names them", async () => {
  const { page, dialogs, errors } = await openPage();
  await signIn(page, dashboardUrl, adminToken);
  await openFromNavigation(page, 'Hosts');

  const hostsCsv = await download(page, 'The hosts listed', 'csv');
  expect(hostsCsv.name).toBe('hosts.csv');
  expect(csvRows(hostsCsv.text)).toEqual([
    expect.objectContaining({
      hostname: HOSTNAME,
      hostId: HOST_ID,
      keyLabel: KEY_LABEL,
      hardeningIndex: '67',
      warnings: '3',
      reportCount: '2',
      compliance: 'noncompliant',
      failingRules: 'Baseline/no-vulnerable-packages;Baseline/no-warnings', // the added warning is no baseline exception
    }),
  ]);
  const hostsJson = await download(page, 'The hosts listed', 'json');
  expect(hostsJson.name).toBe('hosts.json');
  expect(JSON.parse(hostsJson.text)).toEqual([
    expect.objectContaining({ hostname: HOSTNAME, hostId: HOST_ID, hardeningIndex: 67, reportCount: 2, compliance: 'noncompliant' }),
  ]);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-exports-hosts.png` });

  await openFromNavigation(page, 'Findings');
  const warning = { kind: 'warning', testId: 'AUTH-0001', text: HOSTILE_TEXT, hostname: HOSTNAME, hostId: HOST_ID };
  const findingsCsv = await download(page, 'Every finding', 'csv');
  expect(findingsCsv.name).toBe('findings.csv');
  const findingRows = csvRows(findingsCsv.text);
  expect(findingRows).toContainEqual(expect.objectContaining(warning));
  expect(findingRows.filter((row) => row['kind'] === 'suggestion').length).toBeGreaterThan(10); // the capture's suggestions
  const findingsJson = await download(page, 'Every finding', 'json');
  expect(findingsJson.name).toBe('findings.json');
  expect(JSON.parse(findingsJson.text)).toContainEqual(expect.objectContaining(warning));

  await openFromNavigation(page, 'Hosts');
  await page.getByRole('link', { name: HOSTNAME }).click();
  await page.getByRole('heading', { name: HOSTNAME, exact: true }).waitFor();
  const hostRecordId = decodeURIComponent(new URL(page.url()).hash.replace('#/hosts/', ''));
  const historyCsv = await download(page, 'Every report', 'csv');
  expect(historyCsv.name).toBe(`host-${hostRecordId}-history.csv`);
  expect(csvRows(historyCsv.text).map((row) => [row['hardeningIndex'], row['warnings']])).toEqual([
    ['67', '3'],
    ['61', '2'],
  ]); // the capture's two warnings, and the added one;
  const historyJson = await download(page, 'Every report', 'json');
  expect(historyJson.name).toBe(`host-${hostRecordId}-history.json`);
  expect(JSON.parse(historyJson.text).map((row: { hardeningIndex: number }) => row.hardeningIndex)).toEqual([67, 61]);
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);

it("downloads the tracked findings with their lifecycle as CSV and JSON Lines, with the view's filters", async () => {
  const { page, dialogs, errors } = await openPage();
  await signIn(page, dashboardUrl, adminToken);
  await openFromNavigation(page, 'Findings');
  await page.getByRole('link', { name: "Each host's, with state and owner" }).click();
  await page.getByRole('table').waitFor();
  const group = 'These findings by state';
  const csv = await download(page, group, 'csv');
  expect(csv.name).toBe('finding-states.csv');
  const rows = csvRows(csv.text);
  expect(rows).toContainEqual(expect.objectContaining({ hostname: HOSTNAME, kind: 'warning', testId: 'AUTH-0001', text: HOSTILE_TEXT, state: 'open' }));
  expect(rows.filter((row) => row['kind'] === 'suggestion').length).toBeGreaterThan(10);
  const jsonl = await download(page, group, 'jsonl');
  expect(jsonl.name).toBe('finding-states.jsonl');
  const lines = jsonl.text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string; kind: string; acceptance: unknown });
  expect(lines.map((finding) => finding.id)).toEqual(rows.map((row) => row['id']));
  expect(lines[0]).toHaveProperty('acceptance', null);

  // The view's filters go with the export: warnings only.
  await page.goto(`${dashboardUrl}#/findings?view=tracked&state=open&kind=warning`);
  await page.getByRole('table').waitFor();
  const warnings = csvRows((await download(page, group, 'csv')).text);
  expect(warnings.length).toBeGreaterThan(0);
  expect(new Set(warnings.map((row) => `${row['kind']} ${row['state']}`))).toEqual(new Set(['warning open']));
  expect(warnings.length).toBeLessThan(rows.length);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-exports-finding-states.png` });
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);

it('shows a failed export beside its buttons, and signs out when the server refuses the token', async () => {
  const { page, errors } = await openPage();
  await signIn(page, dashboardUrl, doomed.token);
  await openFromNavigation(page, 'Findings');
  // The database failing mid-way is the server's to test; here its answer arrives as the browser would get it.
  await page.route('**/api/admin/exports/findings?*', (route) =>
    route.fulfill({
      status: 503,
      headers: { 'retry-after': '5' },
      contentType: 'application/problem+json',
      body: JSON.stringify({ title: 'Service Unavailable', status: 503, detail: 'The database is unavailable' }),
    }),
  );
  const exports = page.getByRole('group', { name: /^Every finding/ });
  await exports.getByRole('button', { name: 'Download CSV' }).click();
  expect(await exports.getByRole('alert').innerText()).toBe('The export failed: The database is unavailable');
  expect(await exports.getByRole('button', { name: 'Download CSV' }).isEnabled()).toBe(true);

  await page.unroute('**/api/admin/exports/findings?*');
  expect((await runCli(['admin-tokens', 'revoke', doomed.id], dataDir)).code).toBe(0);
  await exports.getByRole('button', { name: 'Download JSON' }).click();
  await page.getByText('The server refused the admin token (unknown or revoked). Sign in again.').waitFor();
  expect(await page.getByLabel('Admin token').isVisible()).toBe(true);
  expect(errors).toEqual([]);
  await page.close();
}, 30_000);

it("prints a host's report without the navigation: identity, trend, compliance, findings and packages, as a PDF", async () => {
  const { page, dialogs, errors } = await openPage();
  await signIn(page, dashboardUrl, adminToken);
  await openFromNavigation(page, 'Hosts');
  await page.getByRole('link', { name: HOSTNAME }).click();
  await page.getByRole('link', { name: 'Printable report' }).click();
  await page.getByRole('heading', { name: `Host report: ${HOSTNAME}` }).waitFor();
  await page.getByRole('heading', { name: 'Compliance: fail' }).waitFor();
  const compliance = page.getByRole('region', { name: 'Compliance: fail' });
  expect(await compliance.getByRole('row').filter({ hasText: 'no-vulnerable-packages' }).innerText()).toMatch(/no-vulnerable-packages\s+fail\s+81/);
  expect(await compliance.getByRole('row').filter({ hasText: 'hardening-index' }).innerText()).toMatch(/hardening-index\s+pass\s+67/);
  const facts = await page.locator('dl.facts').innerText();
  for (const fact of [HOST_ID, 'Debian GNU/Linux 12 (bookworm)', '3.0.8', `${KEY_LABEL} (valid)`, 'Printed']) expect(facts).toContain(fact);
  expect(await page.content()).not.toContain(lynisCapture.key.slice(0, 8)); // the key shown by its label, never itself
  expect(await page.getByRole('row').filter({ hasText: 'AUTH-0001' }).innerText()).toContain(HOSTILE_TEXT);
  expect(await page.getByRole('img', { name: 'Hardening index: 61, 67' }).count()).toBe(1);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-host-report.png`, fullPage: true });

  const navigation = page.getByRole('navigation', { name: 'Pages' });
  expect(await navigation.isVisible()).toBe(true);
  await page.emulateMedia({ media: 'print' });
  expect(await navigation.isVisible()).toBe(false);
  expect(await page.getByRole('button', { name: 'Print report' }).isVisible()).toBe(false);
  expect(await page.getByRole('heading', { name: `Host report: ${HOSTNAME}` }).isVisible()).toBe(true);

  const path = join(scratch, 'host-report.pdf');
  const bytes = await page.pdf({ path, format: 'A4' });
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const pdf = await getDocument({ data: new Uint8Array(await readFile(path)) }).promise;
  expect(pdf.numPages).toBeGreaterThanOrEqual(1);
  const pages = await Promise.all(Array.from({ length: pdf.numPages }, async (_, i) => (await (await pdf.getPage(i + 1)).getTextContent()).items));
  const text = pages
    .flat()
    .map((item) => ('str' in item ? item.str : ''))
    .join(' ');
  for (const shown of [
    `Host report: ${HOSTNAME}`,
    HOST_ID,
    KEY_LABEL,
    'Hardening index: 67',
    'Compliance: fail',
    'no-vulnerable-packages',
    'Warnings (3)',
    HOSTILE_TEXT,
    'Vulnerable packages',
    'libexpat1',
  ]) {
    expect(text).toContain(shown);
  }
  for (const hidden of ['Refused uploads', 'Sign out', 'Print report']) expect(text).not.toContain(hidden);
  await pdf.destroy();
  await copyFile(path, `${ARTIFACTS}/dashboard-host-report.pdf`); // to look at, beside the screenshots
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);

it('exports the hosts list as filtered and sorted, streamed to the picked file, the same rows as the list shows', async () => {
  const hosts: Array<[string, number]> = [
    ['web-01', 70],
    ['web-02', 55],
    ['web-03', 62],
    ['db-01', 50],
  ];
  for (const [i, [hostname, index]] of hosts.entries()) {
    const hostId = String(i + 1).repeat(40);
    const answer = await fetch(`${server.url}/api/audit/upload/`, {
      method: 'POST',
      body: new URLSearchParams({ data: reportAs(hostId, hostname, index), licensekey: lynisCapture.key, hostid: hostId }),
    });
    expect(answer.status).toBe(200);
  }
  const { page, dialogs, errors } = await openPage(true);
  await signIn(page, dashboardUrl, adminToken);
  await openFromNavigation(page, 'Hosts');
  await page.getByLabel('Host name contains').fill('web');
  await page.getByLabel('Host name contains').press('Enter');
  await page
    .getByRole('columnheader', { name: /Hardening index/ })
    .getByRole('link')
    .click();
  await until(async () => (await page.locator('table.hosts tbody tr').count()) === 3, 'the filtered list');
  await until(async () => new URL(page.url()).hash.includes('sort=hardeningIndex'), 'the sorted list');
  const listed = await page.locator('table.hosts tbody tr').allInnerTexts();

  await page
    .getByRole('group', { name: /^The hosts listed/ })
    .getByRole('button', { name: 'Download CSV' })
    .click();
  await until(async () => (await page.evaluate(() => 'savedExport' in window)) === true, 'the streamed export');
  const saved = (await page.evaluate(() => (window as unknown as { savedExport: unknown }).savedExport)) as { name: string; chunks: number; text: string };
  expect(saved.name).toBe('hosts.csv');
  expect(saved.chunks).toBeGreaterThan(0);
  const rows = csvRows(saved.text);
  expect(rows.map((row) => row['hostname'])).toEqual(['web-01', 'web-03', 'web-02']);
  expect(rows).toHaveLength(listed.length);
  rows.forEach((row, i) => expect(listed[i]).toContain(row['hostname']));
  for (const row of rows) expect(row).toMatchObject({ keyLabel: KEY_LABEL, failingRules: expect.stringContaining('Baseline/no-vulnerable-packages') });
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-exports-filtered-hosts.png` });
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);
