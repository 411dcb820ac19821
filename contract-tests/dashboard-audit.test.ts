// The dashboard's Audit trail page in a real browser (Debian's Chromium through playwright-core): after a few changes,
// a failed sign-in and an export, an admin finds them in the table (newest first, as text), filters them by outcome
// and operation, and pages to older entries; a viewer has no link to the page. A screenshot goes to test-artifacts/.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openFromNav, signIn } from './support/dashboard.js';
import { startSeededFleet, type SeededFleet } from './support/seeded-fleet.js';
import { runCli } from './support/server-process.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
/** A failed sign-in's email is whatever the client sent: the page must show it as text. */
const HOSTILE_EMAIL = '<img src=x onerror=alert(1)>@example.org';

let fleet: SeededFleet;
let browser: Browser;
let viewerToken: string;

beforeAll(async () => {
  fleet = await startSeededFleet({ hosts: 20 });
  const viewer = await runCli(['admin-tokens', 'create', '--label', 'viewer on call', '--role', 'viewer'], fleet.server.dataDir);
  expect(viewer.code, viewer.stderr).toBe(0);
  viewerToken = viewer.stdout.trim();
  for (const label of ['web tier', 'database tier']) expect((await fleet.admin('POST', '/api/admin/keys', { label })).status).toBe(201);
  const failed = await fetch(`${fleet.server.adminUrl}/api/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: HOSTILE_EMAIL, password: 'not the password' }),
  });
  expect(failed.status).toBe(401);
  expect((await fleet.admin('GET', '/api/admin/exports/hosts?format=json')).status).toBe(200);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await fleet?.stop();
});

async function signedIn(token: string): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => errors.push(`dialog: ${dialog.message()}`));
  await signIn(page, fleet.dashboardUrl, token);
  return { page, errors };
}

const rowTexts = (page: Page) => page.locator('section[aria-labelledby="audit-title"] tbody tr').allInnerTexts();

describe('the Audit trail page', () => {
  it('shows the entries newest first, as text, filters them and pages to older ones', async () => {
    const { page, errors } = await signedIn(fleet.adminToken);
    await openFromNav(page, 'Audit', 'Audit trail');
    await page.locator('section[aria-labelledby="audit-title"] tbody tr').first().waitFor();
    const rows = await rowTexts(page);
    expect(rows[0]).toMatch(/fleet tests\s+admin\s+exportHosts\s+—\s+success \(200\)\s+127\.0\.0\.1/);
    expect(rows[1]).toContain(HOSTILE_EMAIL);
    expect(rows[1]).toMatch(/signIn\s+—\s+failure \(401\)/);
    expect(rows.filter((row) => row.includes('createLicenseKey'))).toHaveLength(2);
    expect(await page.locator('section[aria-labelledby="audit-title"] img').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-audit-trail.png`, fullPage: true });

    await page.getByLabel('Outcome').selectOption('failure');
    await expect.poll(() => rowTexts(page)).toEqual([expect.stringContaining('signIn')]);
    await page.getByLabel('Outcome').selectOption('');
    await page.getByLabel('Operation').fill('createLicenseKey');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(async () => (await rowTexts(page)).length).toBe(2);
    expect(page.url()).toContain('operation=createLicenseKey');
    expect(await page.getByRole('link', { name: 'Older entries' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Download JSONL' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('pages with Older entries when there are more than a page', async () => {
    for (let n = 0; n < 50; n++) expect((await fleet.admin('POST', '/api/admin/keys', { label: `bulk ${n}` })).status).toBe(201);
    const { page } = await signedIn(fleet.adminToken);
    await openFromNav(page, 'Audit', 'Audit trail');
    await page.getByRole('link', { name: 'Older entries' }).click();
    await page.getByRole('link', { name: 'Newest entries' }).waitFor();
    await expect.poll(async () => (await rowTexts(page)).at(-1)).toMatch(/^1\s/);
  });

  it('is not in a viewer’s navigation', async () => {
    const { page } = await signedIn(viewerToken);
    await expect.poll(() => page.locator('header .session').innerText()).toContain('(viewer)');
    expect(await page.locator('nav[aria-label="Pages"]').innerText()).not.toContain('Audit');
  });
});
