// The dashboard's Webhooks page in a real browser (Debian's Chromium through playwright-core), against the reference
// server as a process and a receiver on 127.0.0.1 that fails the first delivery: a subscription created in the page
// (its secret shown once), a real Lynis report's `report.stored` event failing then delivered after Redeliver, each
// attempt verified as Standard Webhooks signs it, the log filtered, hostile text shown as text, a refused URL shown
// in place, the subscription edited and deleted, and the pages fitting a narrow window.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { openApiDocument } from '@org/audit-server-core';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { startStubServer, type StubServer } from '@org/test-support/stub-server';
import { fitsWidth, launchChromium, openFromNav, signIn } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = `${fileURLToPath(new URL('..', import.meta.url))}test-artifacts`;
/** The setting that lets webhooks reach 127.0.0.1, where the test's receiver listens. */
const ALLOW_PRIVATE_RECEIVERS = '--webhook-allow-private';
const HOST_ID = '8888888888888888888888888888888888888888';
/** The event types a subscription may choose, as the contract lists them. */
const EVENT_TYPES = (openApiDocument.components?.schemas?.['WebhookEventType'] as { enum: string[] }).enum;
/** A host name an attacker controlling the host could write into its report; it travels in `report.stored`'s body. */
const HOSTILE_NAME = '<img src=x onerror=alert(1)>evil-host';
/** A last error that is markup (written into the log by the test: no receiver can make the server write one). */
const HOSTILE_ERROR = '<script>alert("error")</script><b onmouseover=alert(2)>answered 500</b>';

let server: ServerProcess;
let receiver: StubServer;
let browser: Browser;
let removeDataDir: () => Promise<void>;
let adminToken: string;
/** Requests the receiver answered so far. */
let receiverAnswered = 0;

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  await importKey(orm, lynisCapture.key);
  ({ token: adminToken } = await createAdminToken(orm, { label: 'webhooks test' }));
  await orm.close();
  // The receiver fails the first delivery it gets and takes every one after it.
  receiver = await startStubServer((request) =>
    receiverAnswered++ === 0 ? { status: 500, body: 'down for maintenance' } : { status: 200, body: `ok ${request.url}` },
  );
  server = await startServerProcess(data.dataDir, ['--plain-http', ALLOW_PRIVATE_RECEIVERS]);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.close();
  await removeDataDir?.();
});

/** The admin API's answer, as the test's own check of what the page did. */
async function admin<T>(path: string): Promise<T> {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

/** The cells of the delivery log's rows, as text, after reloading it until `done` accepts them. */
async function deliveryLog(page: Page, done: (rows: string[][]) => boolean): Promise<string[][]> {
  let rows: string[][] = [];
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Reload' }).click();
        await page.locator('table.deliveries caption').waitFor();
        // Read in one go: row by row, a row could be read after the reload's render had removed it.
        rows = await page
          .locator('table.deliveries tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll(':scope > td')].map((td) => (td as HTMLElement).innerText)));
        return done(rows);
      },
      { timeout: 15_000, interval: 250 },
    )
    .toBe(true);
  return rows;
}

/** A request the receiver got, verified as a Standard Webhooks library verifies it (throws when the signature is wrong). */
const verified = (secret: string, index: number) => {
  const request = receiver.requests[index]!;
  return new Webhook(secret).verify(request.body.toString(), request.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
};

it('creates a subscription with its secret shown once, logs a failed then redelivered report.stored, edits and deletes it', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(8000);
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, `${server.url}/dashboard/`, adminToken);
  await openFromNav(page, 'Webhooks');
  await page.getByText('No subscriptions yet.').waitFor();
  expect(await page.getByRole('checkbox').count()).toBe(EVENT_TYPES.length + 1); // every event of the contract's enum, and Enabled

  // A URL the contract refuses: the server's problem detail, in place under the form's button.
  const form = page.locator('form.webhook-form');
  await form.getByLabel('Receiver URL').fill('ftp://hooks.example.org/audit');
  await form.getByRole('checkbox', { name: 'report.stored' }).check();
  await form.getByRole('button', { name: 'Create subscription' }).click();
  await expect.poll(() => form.getByRole('alert').innerText()).toMatch(/url/);
  expect(await page.getByText('No subscriptions yet.').count()).toBe(1);

  await form.getByLabel('Receiver URL').fill(`${receiver.url}/hook`);
  await form.getByLabel('Description').fill('SIEM intake');
  await form.getByRole('checkbox', { name: 'host.regressed' }).check();
  await form.getByLabel('Regression threshold').fill('10');
  await form.getByLabel('Most deliveries a minute').fill('30');
  await form.getByRole('button', { name: 'Create subscription' }).click();
  const secret = (await page.getByLabel('Signing secret').textContent())!;
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
  expect(await form.getByRole('alert').count()).toBe(0);
  expect(await form.getByLabel('Receiver URL').inputValue()).toBe(''); // the form is empty for the next one
  const row = page.getByRole('row').filter({ hasText: `${receiver.url}/hook` });
  expect(await row.locator('td').allInnerTexts()).toEqual([
    `${receiver.url}/hook\nSIEM intake`,
    'report.stored\nhost.regressed',
    'standard',
    'regressed by 10 points, at most 30 deliveries a minute',
    '0 pending\n0 failed',
    expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/),
  ]);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-webhooks.png`, fullPage: true });
  await page.getByRole('button', { name: 'Done' }).click();
  expect(await page.getByLabel('Signing secret').count()).toBe(0);
  expect(await page.content()).not.toContain(secret);

  // A real Lynis report, from a host whose name is markup: its report.stored event fails once (the receiver answers 500).
  const report = lynisCapture.report.toString('utf8').replace(/^hostname=.*$/m, `hostname=${HOSTILE_NAME}`);
  const upload = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: report, licensekey: lynisCapture.key, hostid: HOST_ID }),
  });
  expect(upload.status).toBe(200);
  await row.getByRole('link').click();
  await page.getByRole('heading', { name: `Webhook: ${receiver.url}/hook` }).waitFor();
  expect(page.url()).toMatch(/#\/webhooks\/[0-9a-f-]{36}$/);
  expect(await page.content()).not.toContain(secret); // only its first characters
  // Waited for as laid out too (the error on a line under the status code): on a loaded machine a read of the
  // fresh table sometimes gave the cell's text without that line break.
  const failed = await deliveryLog(page, (rows) => rows.length === 1 && rows[0]![3] === '1' && rows[0]![4] === '500\nanswered 500');
  expect(failed[0]!.slice(0, 5)).toEqual([expect.stringMatching(/^Report stored\nreport\.stored\nmsg_/), HOSTILE_NAME, 'pending', '1', '500\nanswered 500']);
  expect(failed[0]![5]).toMatch(/UTC/); // when it is tried again
  // The host is named as text, linking to its page.
  expect(await page.locator('table.deliveries tbody tr').first().getByRole('link', { name: HOSTILE_NAME }).getAttribute('href')).toMatch(
    /^#\/hosts\/[0-9a-f-]{36}$/,
  );
  expect(verified(secret, 0).type).toBe('report.stored');

  // Redeliver: queued at once, sent now instead of after the backoff, and delivered.
  await page.getByRole('button', { name: 'Redeliver' }).click();
  await page.getByRole('status').filter({ hasText: 'queued again' }).waitFor();
  const delivered = await deliveryLog(page, (rows) => rows[0]![2] === 'delivered');
  expect(delivered[0]!.slice(2, 6)).toEqual(['delivered', '1', '200', '—']);
  expect(receiver.requests).toHaveLength(2);
  const event = verified(secret, 1);
  expect(event).toMatchObject({ type: 'report.stored', data: { hostId: HOST_ID, hostname: HOSTILE_NAME } });
  expect(receiver.requests[1]!.headers['webhook-id']).toBe(receiver.requests[0]!.headers['webhook-id']); // the same event

  // Redelivered once more: the receiver gets the same event again, signed again.
  await page.getByRole('button', { name: 'Redeliver' }).click();
  await expect.poll(() => receiver.requests.length, { timeout: 10_000 }).toBe(3);
  expect(verified(secret, 2).type).toBe('report.stored');
  await deliveryLog(page, (rows) => rows[0]![2] === 'delivered' && rows[0]![3] === '1');

  // A delivery whose last error is markup, and the body sent naming the hostile host: both shown as text.
  const webhookId = page.url().split('/').at(-1)!;
  await writeFailedDelivery(webhookId, HOSTILE_ERROR);
  await page.getByLabel('Status').selectOption('failed');
  await expect.poll(() => page.url()).toMatch(/\?status=failed$/);
  const hostile = await deliveryLog(page, (rows) => rows.length === 1 && rows[0]![2] === 'failed' && rows[0]![4] === `502\n${HOSTILE_ERROR}`);
  expect(hostile[0]![4]).toBe(`502\n${HOSTILE_ERROR}`);
  await page.getByLabel('Status').selectOption('');
  await deliveryLog(page, (rows) => rows.length === 2);
  // Newest first: the real delivery, then the one written a minute back.
  await page.locator('table.deliveries tbody tr').first().getByText('Body sent').click();
  expect(await page.locator('table.deliveries tbody tr').first().locator('pre').innerText()).toContain(`"hostname":"${HOSTILE_NAME}"`);
  expect(await page.locator('main img, main script, main b').count()).toBe(0);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-webhook-log.png`, fullPage: true });

  // Edited: a URL the contract refuses is shown in place; then the format and events change, the secret stays.
  const edit = page.locator('form.webhook-form');
  await edit.getByLabel('Receiver URL').fill('ftp://hooks.example.org/audit');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => edit.getByRole('alert').innerText()).toMatch(/url/);
  await edit.getByLabel('Receiver URL').fill(`${receiver.url}/slack`);
  await edit.getByLabel('Format').selectOption('slack');
  await edit.getByRole('checkbox', { name: 'host.stale' }).check();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('heading', { name: `Webhook: ${receiver.url}/slack` }).waitFor();
  expect(await edit.getByRole('alert').count()).toBe(0);
  const saved = await admin<{ url: string; format: string; events: string[]; staleDays: number; regressionThreshold: number; description: string }>(
    `/api/admin/webhooks/${webhookId}`,
  );
  expect(saved).toMatchObject({
    url: `${receiver.url}/slack`,
    format: 'slack',
    events: ['report.stored', 'host.regressed', 'host.stale'],
    staleDays: 7,
    regressionThreshold: 10,
    description: 'SIEM intake',
  });

  // Narrow windows: nothing runs off the side.
  for (const hash of [`#/webhooks/${webhookId}`, '#/webhooks']) {
    await page.goto(`${server.url}/dashboard/${hash}`);
    await page.locator('main h1').waitFor();
    await page.getByText('Loading…').waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 420, height: 800 });
    expect(await fitsWidth(page, 420), `${hash} at 420 px`).toBe(true);
    if (hash !== '#/webhooks') await page.screenshot({ path: `${ARTIFACTS}/dashboard-webhook-narrow.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  // Deleted after a confirmation, with its log.
  await page.getByRole('link', { name: `${receiver.url}/slack` }).click();
  await page.getByRole('button', { name: 'Delete subscription' }).click();
  await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
  await page.getByText('No subscriptions yet.').waitFor();
  expect(dialogs).toEqual([`Delete the subscription to ${receiver.url}/slack and its delivery log?`]);
  expect((await admin<{ items: unknown[] }>('/api/admin/webhooks')).items).toEqual([]);
  expect(errors).toEqual([]);
  expect(server.logs.join('\n')).not.toContain(secret);
  await page.close();
}, 90_000);

/** Adds a failed delivery with `lastError` to a subscription's log, in the server's database, as a second connection. */
async function writeFailedDelivery(webhookId: string, lastError: string): Promise<void> {
  const orm = await openDatabase(server.dataDir);
  try {
    const now = Date.now(); // SQLite keeps times as milliseconds
    await orm.em
      .getKnex()('webhook_delivery')
      .insert({
        id: randomUUID(),
        webhook_id: webhookId,
        event_id: 'msg_hostile',
        event_type: 'report.stored',
        payload: '{}',
        status: 'failed',
        attempts: 10,
        last_status_code: 502,
        last_error: lastError,
        next_attempt_at: null,
        created_at: now - 60_000,
      });
  } finally {
    await orm.close();
  }
}
