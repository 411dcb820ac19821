// The dashboard's "Add hosts" page in a real browser (Debian's Chromium through playwright-core), against the
// reference server as a process on HTTPS with its self-signed certificate: an operator creates an enrollment, is shown
// its one-line command once (with the warning that it carries a secret) and copies it; the list shows it; revoking
// asks first. A viewer sees the list only.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { createAdminToken, createKey, openDatabase } from '@org/audit-server';
import { launchChromium, openFromNav, signIn } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = `${fileURLToPath(new URL('..', import.meta.url))}test-artifacts`;

let server: ServerProcess;
let browser: Browser;
let removeDataDir: () => Promise<void>;
let operator: string;
let viewer: string;

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  await createKey(orm, { label: 'web fleet' });
  ({ token: operator } = await createAdminToken(orm, { label: 'ops team', role: 'operator' }));
  ({ token: viewer } = await createAdminToken(orm, { label: 'auditor', role: 'viewer' }));
  await orm.close();
  server = await startServerProcess(data.dataDir);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeDataDir?.();
});

async function openPage(token: string): Promise<Page> {
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width: 1280, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  await signIn(page, `${server.url}/dashboard/`, token);
  await openFromNav(page, 'Add hosts');
  return page;
}

it('lets an operator create an enrollment, shows its command once with a warning, copies it, and revokes after asking', async () => {
  const page = await openPage(operator);
  const form = page.getByRole('form', { name: 'New enrollment' });
  expect(await form.getByLabel('License key').inputValue()).toMatch(/^[0-9a-f-]{36}$/);
  // A week ahead unless changed.
  const expiry = await form.getByLabel('Command works until (local time)').inputValue();
  const week = new Date();
  week.setDate(week.getDate() + 7);
  expect(expiry).toBe(`${week.getFullYear()}-${String(week.getMonth() + 1).padStart(2, '0')}-${String(week.getDate()).padStart(2, '0')}`);
  await form.getByLabel('System groups (comma-separated)').fill('webservers, dmz');
  await form.getByLabel('Tags (comma-separated)').fill('production');
  await form.getByLabel('Customer').fill('Acme Corp');
  await form.getByLabel('Most hosts (blank: no maximum)').fill('25');
  await form.getByRole('button', { name: 'Create command' }).click();

  const command = page.getByLabel('Command to run on each host');
  await command.waitFor();
  const text = await command.inputValue();
  expect(text).toMatch(
    new RegExp(
      `^curl -fsS -k --pinnedpubkey 'sha256//[A-Za-z0-9+/]{43}=' -H 'Authorization: Bearer enr_[0-9a-f]{64}' 'https://127\\.0\\.0\\.1:${server.port}/enroll\\.sh' \\| sudo sh$`,
    ),
  );
  expect(await command.getAttribute('readonly')).not.toBeNull();
  await page.getByText('Copy this command now: it is shown only this once.').waitFor();
  await page.getByText(/It carries a secret that enrolls hosts until/).waitFor();
  await page.getByRole('button', { name: 'Copy the command' }).click();
  await page.getByText('Copied.').waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);

  const row = page.getByRole('row').filter({ hasText: 'web fleet' });
  const cells = await row.getByRole('cell').allTextContents();
  expect(cells).toEqual([
    'web fleet',
    'webservers, dmz',
    'production',
    'Acme Corp',
    '0 / 25',
    'active',
    expect.any(String),
    'ops team',
    expect.any(String),
    'Revoke',
  ]);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-add-hosts.png`, fullPage: true });

  await page.getByRole('button', { name: 'Done' }).click();
  expect(await page.getByLabel('Command to run on each host').count()).toBe(0);
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await row.getByRole('button', { name: /^Revoke the enrollment of web fleet/ }).click();
  await row.getByRole('cell', { name: 'revoked', exact: true }).waitFor();
  expect(asked).toBe('Revoke this enrollment? Its command stops working at once; hosts that enrolled keep reporting.');
  expect(await row.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
}, 60_000);

it('shows a viewer the enrollments, without the form or the revoke button', async () => {
  const page = await openPage(viewer);
  await page.getByRole('row').filter({ hasText: 'web fleet' }).first().waitFor();
  expect(await page.getByRole('form', { name: 'New enrollment' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Create command' }).count()).toBe(0);
}, 60_000);
