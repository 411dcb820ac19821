// A person signs in to the dashboard with email and password in a real browser (Debian's Chromium through
// playwright-core): the account made with `audit-server users add --password-stdin`, the session an HttpOnly
// cookie that survives a reload, and signing out back to the sign-in page. The page is opened on `localhost`, which
// browsers count as a secure context, so the `Secure` `__Host-` cookie is kept over plain HTTP.
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
  const added = await runCli(['users', 'add', '--email', EMAIL, '--role', 'operator', '--name', 'Ada Lovelace', '--password-stdin'], dataDir.dataDir, PASSWORD);
  expect(added.code, added.stderr).toBe(0);
  server = await startServerProcess(dataDir.dataDir, ['--plain-http', '--session-max-hours', '2']);
  dashboardUrl = `${server.url.replace('127.0.0.1', 'localhost')}/dashboard/`;
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await dataDir?.remove();
});

it('signs in with email and password, stays signed in across a reload, and signs out', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(dashboardUrl);
  await page.getByLabel('Email').waitFor();
  expect(await page.getByLabel('Admin token').isVisible()).toBe(false); // the token form waits behind its disclosure
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-sign-in-password.png` });

  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: 'Wrong email or password.' }).waitFor();

  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
  await expect.poll(() => page.locator('header .session').textContent()).toContain('Signed in as Ada Lovelace (operator)');
  const [cookie] = await context.cookies();
  expect(cookie).toMatchObject({ name: '__Host-audit_session', httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
  expect(Math.abs(cookie!.expires - (Date.now() / 1000 + 2 * 3600))).toBeLessThan(60); // --session-max-hours 2
  expect(await page.evaluate(() => document.cookie)).toBe(''); // HttpOnly: no script reads it
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0); // no token kept

  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Hosts', exact: true }).click();
  await page.getByRole('heading', { name: 'Hosts', exact: true }).waitFor();
  await page.reload();
  await page.getByRole('heading', { name: 'Hosts', exact: true }).waitFor();
  await expect.poll(() => page.locator('header .session').innerText()).toContain('Ada Lovelace');
  await page.getByText('Loading…').waitFor({ state: 'detached' }); // the list came, through the cookie alone
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-signed-in-person.png` });

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Email').waitFor();
  await expect.poll(async () => (await context.cookies()).length).toBe(0);
  await page.reload();
  await page.getByLabel('Email').waitFor(); // the session ended on the server too
  expect(errors).toEqual([]);
  await context.close();
}, 60_000);
