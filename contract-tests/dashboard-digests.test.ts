// The dashboard's Digests page in a real browser (Debian's Chromium through playwright-core), against the reference
// server as a process whose SMTP server cannot be reached: a schedule created in the page, a digest issued with
// "Issue now" (its email pending with why the attempt failed), a digest failed for good shown in red with its error as
// text and a Resend button, and the printable digest page (opened by its link), on screen and as printed. Screenshots
// of both go to test-artifacts/.
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { launchChromium, openFromNav, reportAs, signIn, storeReport } from './support/dashboard.js';
import { until } from './support/until.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = `${fileURLToPath(new URL('..', import.meta.url))}test-artifacts`;
/** A host name an attacker controlling the host could write into its report. */
const HOSTILE_NAME = '<img src=x onerror=alert(1)>web-01';
/** A last error that is markup (written by the test: no SMTP server can make the server write one). */
const HOSTILE_ERROR = '<script>alert("smtp")</script><b>550 mailbox unavailable</b>';

let server: ServerProcess;
let browser: Browser;
let dataDir: string;
let removeDataDir: () => Promise<void>;
let adminToken: string;

/** A port nothing listens on: one the system gave and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  const data = await makeDataDir();
  ({ dataDir, remove: removeDataDir } = data);
  const orm = await openDatabase(dataDir);
  const keyId = await importKey(orm, lynisCapture.key);
  ({ token: adminToken } = await createAdminToken(orm, { label: 'digests test' }));
  const groups = { 'system-groups': 'webservers' };
  await storeReport(orm, keyId, '1'.repeat(40), reportAs('1'.repeat(40), HOSTILE_NAME, 71, ['AUTH-0001|<b>bold</b> warning|-|-|'], groups));
  await storeReport(orm, keyId, '2'.repeat(40), reportAs('2'.repeat(40), 'web-02', 52, [], groups));
  await orm.close();
  server = await startServerProcess(dataDir, [
    '--plain-http',
    '--smtp-url',
    `smtp://127.0.0.1:${await closedPort()}`,
    '--mail-from',
    'Audit <audit@example.org>',
  ]);
  // A policy the two hosts are evaluated against: web-01 passes, web-02 fails.
  const created = await admin('/api/admin/policies', 'POST', { name: 'Floor', rules: [{ id: 'floor', expression: 'summary.hardeningIndex >= 60' }] });
  expect(created.status).toBe(201);
  const { id: policyId } = (await created.json()) as { id: string };
  const evaluated = async () => ((await (await admin(`/api/admin/policies/${policyId}/results`)).json()) as { total: number }).total === 2;
  await until(evaluated, 'the policy is evaluated', 15_000);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeDataDir?.();
});

function admin(path: string, method = 'GET', body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A fresh tab that fails the test on any dialog it did not expect and records page errors. */
async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(8000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => void dialog.dismiss());
  return { page, errors };
}

it('schedules and issues a digest, shows a failed one in red with Resend, and prints the digest page', async () => {
  const { page, errors } = await openPage();
  await signIn(page, `${server.url}/dashboard/`, adminToken);
  await openFromNav(page, 'Digests');
  await page.getByLabel('Digest of').selectOption('group');
  await page.getByLabel('Group', { exact: true }).fill('webservers');
  await page.getByLabel('Cadence').selectOption('weekly');
  await page.getByLabel(/^Recipients/).fill('secops@example.org, lead@example.org');
  await page.getByRole('button', { name: 'Schedule digest' }).click();
  const scheduleRow = page.getByRole('row').filter({ hasText: 'group webservers' }).filter({ hasText: 'secops@example.org' });
  await scheduleRow.waitFor();
  expect(await scheduleRow.innerText()).toMatch(/weekly[\s\S]*lead@example\.org[\s\S]*never/);

  // Issued now: its email's first attempt fails (nothing listens), so it waits for the next one.
  await scheduleRow.getByRole('button', { name: 'Issue now' }).click();
  await page.getByRole('status').filter({ hasText: 'Digest of group webservers issued' }).waitFor();
  const [issued] = ((await (await admin('/api/admin/digests')).json()) as { items: { id: string }[] }).items;
  await until(
    async () => ((await (await admin(`/api/admin/digests/${issued!.id}`)).json()) as { delivery: { attempts: number } }).delivery.attempts === 1,
    'the first attempt is made',
    10_000,
  );

  // A second digest, failed for good with an error that is markup (written as the fifth failed attempt would).
  const second = (await (await admin(`/api/admin/digest-schedules/${await scheduleId()}/issue`, 'POST')).json()) as { id: string };
  // Its first attempt made (and the next a minute away), so that the server's delivery does not overwrite the row.
  await until(
    async () => ((await (await admin(`/api/admin/digests/${second.id}`)).json()) as { delivery: { attempts: number } }).delivery.attempts === 1,
    "the second digest's first attempt is made",
    10_000,
  );
  const orm = await openDatabase(dataDir);
  await orm.em.getKnex()('digest').where('id', second.id).update({ status: 'failed', attempts: 5, last_error: HOSTILE_ERROR, next_attempt_at: null });
  await orm.close();
  await page.getByRole('button', { name: 'Reload' }).click();
  const failedCell = page.locator('table.digests td.status-fail');
  await failedCell.filter({ hasText: HOSTILE_ERROR }).waitFor();
  expect(await failedCell.count()).toBe(1);
  expect(await failedCell.innerText()).toMatch(/failed\s+5 attempts/);
  expect(await failedCell.getByRole('button', { name: 'Resend' }).count()).toBe(1);
  expect(await failedCell.evaluate((cell) => getComputedStyle(cell).color)).toBe('rgb(185, 28, 28)');
  const pendingRow = page
    .getByRole('row')
    .filter({ has: page.getByRole('link') })
    .filter({ hasText: 'pending' });
  expect(await pendingRow.innerText()).toMatch(/1 attempt[\s\S]*ECONNREFUSED/);
  expect(await page.locator('table.digests script, table.digests b').count()).toBe(0);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-digests.png`, fullPage: true });

  // Its link (as the email and the webhook event give it) opens the printable page.
  await page.goto(`${server.url}/dashboard/digests/${issued!.id}`);
  await page.getByRole('heading', { name: 'Weekly digest of group webservers' }).waitFor();
  await page.getByRole('heading', { name: /^Compliance: 50\.0%/ }).waitFor();
  const compliance = await page.locator('table.digest-compliance').innerText();
  expect(compliance).toMatch(/Now \(\d{4}-\d{2}-\d{2}\)\s+50\.0%\s+1\s+1\s+0\s+0/);
  // The hosts reported after the period's start: nothing to compare with.
  expect(await page.getByText("No figures reach back to the period's start.").isVisible()).toBe(true);
  const oldest = page.locator('table.digest-oldest');
  expect(await oldest.getByRole('row').filter({ hasText: 'AUTH-0001' }).innerText()).toContain(HOSTILE_NAME);
  expect(await oldest.getByRole('row').filter({ hasText: 'AUTH-0001' }).innerText()).toContain('<b>bold</b> warning');
  expect(await page.locator('article img, article b').count()).toBe(0);
  expect(await page.getByText('No waiver expires within 14 days.').isVisible()).toBe(true);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-digest.png`, fullPage: true });

  await page.emulateMedia({ media: 'print' });
  expect(await page.getByRole('navigation', { name: 'Pages' }).isVisible()).toBe(false);
  expect(await page.getByRole('button', { name: 'Print digest' }).isVisible()).toBe(false);
  expect(await page.getByRole('heading', { name: 'Weekly digest of group webservers' }).isVisible()).toBe(true);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-digest-print.png`, fullPage: true });
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);

async function scheduleId(): Promise<string> {
  const [schedule] = ((await (await admin('/api/admin/digest-schedules')).json()) as { items: { id: string }[] }).items;
  return schedule!.id;
}
