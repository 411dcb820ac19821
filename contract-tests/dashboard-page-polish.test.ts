// The dashboard in a real browser (Debian's Chromium through playwright-core) against the reference server as a
// process: a test event sent from a webhook's page to a receiver on 127.0.0.1 (even with the subscription disabled)
// and its delivery in the log; a host's page reached part by part from its "On this page" links; and license keys
// created with an expiry, linked to their hosts, and rotated with a chosen grace period; an existing key's expiry
// changed and removed from its row.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { startStubServer, type StubServer } from '@org/test-support/stub-server';
import { launchChromium, openFromNav, reportAs, signIn, storeReport } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = `${fileURLToPath(new URL('..', import.meta.url))}test-artifacts`;
const HOST_ID = '7777777777777777777777777777777777777777';
const HOSTNAME = 'db-07';
const KEY_LABEL = 'database servers';
const HOUR_MS = 3_600_000;

let server: ServerProcess;
let receiver: StubServer;
let browser: Browser;
let removeDataDir: () => Promise<void>;
let adminToken: string;
let keyId: string;

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  keyId = await importKey(orm, lynisCapture.key, { label: KEY_LABEL });
  ({ token: adminToken } = await createAdminToken(orm, { label: 'page polish test' }));
  // Two reports, so that the host has a change to show; the newest has the fixture's 45 suggestions.
  await storeReport(orm, keyId, HOST_ID, reportAs(HOST_ID, HOSTNAME, 70), new Date(Date.now() - 2 * HOUR_MS));
  await storeReport(orm, keyId, HOST_ID, reportAs(HOST_ID, HOSTNAME, 64, ['FIRE-4512|No firewall|-|-|']), new Date(Date.now() - HOUR_MS));
  await orm.close();
  receiver = await startStubServer(() => ({ status: 200, body: 'ok' }));
  server = await startServerProcess(data.dataDir, ['--plain-http', '--webhook-allow-private']);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.close();
  await removeDataDir?.();
});

/** An admin API call's JSON answer, as the test's own check of what the page did. */
async function admin<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${adminToken}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  expect(response.ok).toBe(true);
  return (await response.json()) as T;
}

/** A signed-in page at 1280×800, collecting confirmations (accepted) and script errors. */
async function openPage(): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(8000);
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, `${server.url}/dashboard/`, adminToken);
  return { page, dialogs, errors };
}

it('sends a test event from a disabled subscription’s page to its receiver, signed, and shows its delivery', async () => {
  const { webhook, secret } = await admin<{ webhook: { id: string }; secret: string }>('/api/admin/webhooks', {
    method: 'POST',
    body: { url: `${receiver.url}/hook`, events: ['host.stale'], enabled: false, description: 'On-call channel' },
  });
  const { page, errors } = await openPage();
  await page.goto(`${server.url}/dashboard/#/webhooks/${webhook.id}`);
  await page.getByText('No deliveries.').waitFor();
  await page.getByRole('button', { name: 'Send a test event' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Test event' });
  await expect.poll(() => status.innerText()).toMatch(/^Test event msg_[0-9a-f]{32} queued \(pending\)/);
  await expect.poll(() => receiver.requests.length, { timeout: 10_000 }).toBe(1);
  const [request] = receiver.requests;
  const event = new Webhook(secret).verify(request!.body.toString(), request!.headers as Record<string, string>);
  expect(event).toMatchObject({ type: 'webhook.test', data: { test: true, webhookId: webhook.id, description: 'On-call channel' } });
  expect(await status.innerText()).toContain(request!.headers['webhook-id'] as string);
  // The log names the event in words, and no host (a test is about none).
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Reload' }).click();
        await page.locator('table.deliveries caption').waitFor();
        return page.locator('table.deliveries tbody tr').first().locator('td').allInnerTexts();
      },
      { timeout: 10_000 },
    )
    .toEqual([
      expect.stringMatching(/^Test event\nwebhook\.test\nmsg_/),
      '—',
      'delivered',
      '1',
      '200',
      '—',
      expect.stringMatching(/UTC$/),
      expect.stringMatching(/UTC$/),
      'Redeliver',
    ]);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-webhook-test-event.png` });
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);

it("reaches each part of a host's page from the links at its top, the reports and their changes without scrolling past the findings", async () => {
  const { items } = await admin<{ items: { id: string }[] }>(`/api/admin/hosts?hostname=${HOSTNAME}`);
  const hostRecordId = items[0]!.id;
  const { page, errors } = await openPage();
  await page.goto(`${server.url}/dashboard/#/hosts/${hostRecordId}`);
  await page.getByRole('heading', { name: HOSTNAME, level: 1 }).waitFor();
  const nav = page.getByRole('navigation', { name: 'On this page' });
  const parts = await nav.getByRole('link').allInnerTexts();
  expect(parts).toEqual(['Summary', 'Compliance', 'Findings', 'Reports and changes', 'Refused uploads', 'Raw text']);
  // In the first screenful, before the first part.
  const navTop = (await nav.boundingBox())!.y;
  expect(navTop).toBeLessThan(400);
  expect(navTop).toBeLessThan((await page.locator('#host-summary').boundingBox())!.y);
  for (const part of parts) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await nav.getByRole('link', { name: part, exact: true }).click();
    const target = await page.evaluate(() => ({
      id: document.activeElement?.id,
      tag: document.activeElement?.tagName,
      top: document.activeElement?.getBoundingClientRect().top,
    }));
    expect([part, target.tag, target.id]).toEqual([part, 'SECTION', expect.stringMatching(/^host-/)]);
    // Scrolled to it (the last part may stop short of the top: the page ends), and the route is the host's still.
    expect([part, target.top! >= -1 && target.top! < 800]).toEqual([part, true]);
    expect(page.url()).toBe(`${server.url}/dashboard/#/hosts/${hostRecordId}`);
    const heading = await page.locator(`#${target.id} h2`).first().innerText();
    expect([part, heading]).toEqual([part, part === 'Compliance' ? expect.stringMatching(/^Compliance/) : part]);
  }
  // The suggestions come before the reports: the report's 45 lines, tracked as one finding per test id (39).
  expect(await page.locator('#host-findings table.tracked-findings .kind-suggestion').count()).toBe(39);
  await page.evaluate(() => window.scrollTo(0, 0));
  await nav.getByRole('link', { name: 'Reports and changes' }).click();
  const reports = page.getByRole('region', { name: 'Reports and changes', exact: true });
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-host-reports-part.png` });
  await reports.getByRole('link', { name: 'Changes since the report before' }).first().click();
  await expect.poll(() => page.url()).toMatch(/#\/reports\/[0-9a-f-]{36}\/diff$/);
  await page.goBack();
  await page.getByRole('navigation', { name: 'On this page' }).getByRole('link', { name: 'Raw text', exact: true }).click();
  await page.getByRole('link', { name: 'Raw text of the newest report' }).click();
  await expect.poll(() => page.url()).toMatch(/#\/reports\/[0-9a-f-]{36}\/raw$/);
  await page.goto(`${server.url}/dashboard/#/hosts/${hostRecordId}`);
  await page.getByRole('heading', { name: HOSTNAME, level: 1 }).waitFor();
  // Compliance and the tracked findings each load on their own.
  await expect.poll(() => page.getByText('Loading…').count()).toBe(0);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-host-parts.png` });
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);

it('creates a key with an expiry day, links each key to its hosts, and rotates one with a chosen grace period', async () => {
  const { page, dialogs, errors } = await openPage();
  await openFromNav(page, 'Keys', 'License keys');
  await page.getByLabel('Label of a new key').fill('contractors');
  await page.getByLabel('Expires on (local time; blank: never)').fill('2031-03-15');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByLabel('New license key').waitFor();
  const keys = () => admin<{ items: { id: string; label: string | null; expiresAt: string | null; state: string }[] }>('/api/admin/keys');
  expect((await keys()).items.find((key) => key.label === 'contractors')).toMatchObject({ expiresAt: '2031-03-15T00:00:00.000Z', state: 'valid' });
  const contractors = page.getByRole('row').filter({ hasText: 'contractors' });
  await expect.poll(() => contractors.getByRole('cell').nth(5).innerText()).toBe('2031-03-15 00:00:00 UTC');

  // The key the host reports under links to the hosts list filtered by it.
  const row = page.getByRole('row').filter({ hasText: KEY_LABEL });
  const hosts = row.getByRole('link', { name: `Hosts of ${KEY_LABEL}` });
  expect(await hosts.getAttribute('href')).toBe(`#/hosts?key=${keyId}`);
  expect(await hosts.innerText()).toMatch(/^(1|Hosts)$/); // the count once the server answers the facets
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-keys-expiry.png` });

  // Rotated with a two-hour grace: the old key expires two hours from now.
  await contractors.getByText('Rotate', { exact: true }).click();
  await contractors.getByLabel(/^Grace period in hours/).fill('2');
  const before = Date.now();
  await contractors.getByRole('button', { name: 'Rotate key' }).click();
  await page.getByLabel('New license key').waitFor();
  await expect.poll(async () => (await keys()).items.filter((key) => key.label === 'contractors').length).toBe(2);
  const old = (await keys()).items.find((key) => key.label === 'contractors' && key.expiresAt !== '2031-03-15T00:00:00.000Z')!;
  expect(Math.abs(new Date(old.expiresAt!).getTime() - (before + 2 * HOUR_MS))).toBeLessThan(60_000);
  expect(dialogs).toEqual(['Rotate the key "contractors"? The old key keeps working for 2 hours.']);

  await hosts.click();
  await page.getByRole('link', { name: HOSTNAME }).waitFor();
  expect(page.url()).toMatch(new RegExp(`#/hosts\\?key=${keyId}$`));
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);

it("changes an existing key's expiry from its row, by keyboard, and removes it again", async () => {
  const { page, errors } = await openPage();
  await openFromNav(page, 'Keys', 'License keys');
  const row = page.getByRole('row').filter({ hasText: KEY_LABEL });
  const opener = row.getByRole('button', { name: `Expiry of ${KEY_LABEL}…` });
  const day = row.getByLabel(/^Stops working on/);
  const expiryOf = async () =>
    (await admin<{ items: { id: string; expiresAt: string | null }[] }>('/api/admin/keys')).items.find((k) => k.id === keyId)!.expiresAt;

  // Opened from the keyboard: focus on the day; Escape closes the form and gives focus back to the button.
  await opener.focus();
  await page.keyboard.press('Enter');
  expect(await opener.getAttribute('aria-expanded')).toBe('true');
  await expect.poll(() => day.evaluate((input) => input === document.activeElement)).toBe(true);
  await page.keyboard.press('Escape');
  await day.waitFor({ state: 'detached' });
  await expect.poll(() => opener.evaluate((button) => button === document.activeElement)).toBe(true);

  await opener.click();
  expect(await row.getByLabel('No expiry').isChecked()).toBe(true); // the key has none yet
  await day.fill('2030-06-01');
  expect(await row.getByLabel('No expiry').isChecked()).toBe(false);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-key-expiry-change.png` });
  await row.getByRole('button', { name: 'Save expiry' }).click();
  const localMidnight = await page.evaluate(() => new Date('2030-06-01T00:00:00').toISOString());
  await expect.poll(expiryOf).toBe(localMidnight);
  await expect.poll(() => row.getByRole('cell').nth(5).innerText()).toMatch(/^2030-0[56]-\d\d /);
  await expect.poll(() => opener.evaluate((button) => button === document.activeElement)).toBe(true);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-key-expiry-changed.png` });

  await opener.click();
  expect(await day.inputValue()).toBe('2030-06-01'); // the form starts from the key's expiry, as a local day
  expect(await row.getByLabel('No expiry').isChecked()).toBe(false);
  await row.getByLabel('No expiry').check();
  await row.getByRole('button', { name: 'Save expiry' }).click();
  await expect.poll(expiryOf).toBeNull();
  await expect.poll(() => row.getByRole('cell').nth(5).innerText()).toBe('never');
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);
