// The People and Tokens pages in a real browser (Debian's Chromium through playwright-core): an admin signs in with
// email and password, adds a person with a scope on the People page, and creates a personal token on the Tokens
// page, shown once; the token works against the API, and the server keeps its SHA-256 only.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from './support/dashboard.js';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const EMAIL = 'ada@example.org';
const PASSWORD = 'correct horse battery staple';

let dataDir: { dataDir: string; remove: () => Promise<void> };
let server: ServerProcess;
let browser: Browser;
let dashboardUrl: string;

beforeAll(async () => {
  dataDir = await makeDataDir();
  const added = await runCli(['users', 'add', '--email', EMAIL, '--role', 'admin', '--name', 'Ada Lovelace', '--password-stdin'], dataDir.dataDir, PASSWORD);
  expect(added.code, added.stderr).toBe(0);
  server = await startServerProcess(dataDir.dataDir, ['--plain-http']);
  dashboardUrl = `${server.url.replace('127.0.0.1', 'localhost')}/dashboard/`;
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await dataDir?.remove();
});

it('lets an admin add a person on the People page and create a personal token on the Tokens page, shown once', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(dashboardUrl);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();

  const nav = page.getByRole('navigation', { name: 'Pages' });
  await nav.getByRole('link', { name: 'People', exact: true }).click();
  await page.getByRole('heading', { name: 'People', exact: true }).waitFor();
  expect(await page.title()).toContain('People');
  await page.getByText('Add a person').click();
  await page.locator('#person-email').fill('grace@example.org');
  await page.locator('#person-name').fill('Grace Hopper');
  await page.locator('#person-role').selectOption('operator');
  await page.locator('#person-password').fill('a long passphrase of words');
  await page.locator('#person-customers').fill('acme, beta');
  await page.getByRole('button', { name: 'Add person' }).click();
  const grace = page.getByRole('row').filter({ hasText: 'grace@example.org' });
  await grace.waitFor();
  expect(await grace.innerText()).toMatch(/Grace Hopper\s+operator\s+customers acme, beta\s+password\s+active\s+never/);
  expect(await page.getByRole('row').filter({ hasText: EMAIL }).innerText()).toMatch(/admin\s+all hosts\s+password\s+active/);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-people.png`, fullPage: true });

  await page.locator('header .session').getByRole('link', { name: 'Tokens', exact: true }).click();
  await page.getByRole('heading', { name: 'API tokens', exact: true }).waitFor();
  await page.getByText('Create a personal token').click();
  await page.locator('#my-token-label').fill('nightly export');
  await page.locator('#my-token-role').selectOption('viewer');
  await page.getByRole('button', { name: 'Create personal token' }).click();
  const shown = page.getByLabel('New API token');
  await shown.waitFor();
  const token = (await shown.innerText()).trim();
  expect(token).toMatch(/^adm_[0-9a-f]{64}$/);
  await page.getByRole('button', { name: 'Copy the new token' }).waitFor();
  const mine = page.getByRole('table', { name: 'Your personal tokens, newest first' });
  await mine.getByRole('row').filter({ hasText: 'nightly export' }).waitFor();
  const everyToken = page.getByRole('table', { name: 'Every API token, oldest first' });
  expect(await everyToken.getByRole('row').filter({ hasText: 'nightly export' }).innerText()).toMatch(/personal\s+ada@example\.org\s+viewer\s+all hosts/);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-tokens.png`, fullPage: true });

  // The token works, as a viewer acting for Ada; the page never shows it again.
  const session = await fetch(`${server.url}/api/admin/session`, { headers: { authorization: `Bearer ${token}` } });
  expect(await session.json()).toMatchObject({ kind: 'token', role: 'viewer', label: 'nightly export' });
  await page.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await mine.getByRole('row').filter({ hasText: 'nightly export' }).waitFor();
  expect(await page.content()).not.toContain(token);
  expect(server.logs.join('\n')).not.toContain(token);
  expect(errors).toEqual([]);
  await context.close();
}, 90_000);
