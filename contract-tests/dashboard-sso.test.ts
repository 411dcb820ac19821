// Single sign-on in a real browser (Debian's Chromium through playwright-core) against a real OpenID provider
// (oidc-provider over HTTPS on loopback, its certificate trusted by the server through NODE_EXTRA_CA_CERTS): the
// person clicks "Sign in with SSO", signs in at the provider, and lands on the dashboard signed in as an account
// made just in time, with the role its `groups` claim maps to; a changed claim changes the role at the next
// sign-in; a callback whose `state` was tampered with signs no one in and says why.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '@org/test-support/ports';
import { launchChromium } from './support/dashboard.js';
import { startOpenIdProvider, type OpenIdProvider } from './support/openid-provider.js';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const CLIENT_ID = 'audit-dashboard';
const CLIENT_SECRET = 'a-client-secret-for-the-test-only';
const LOGIN = 'grace';
const EMAIL = 'grace@example.org';

/** The groups the provider puts in the test account's claim; changed between sign-ins. */
let groups = ['sec-ops'];
let dataDir: { dataDir: string; remove: () => Promise<void> };
let provider: OpenIdProvider;
let server: ServerProcess;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  dataDir = await makeDataDir();
  const port = await freePort();
  origin = `http://localhost:${port}`;
  provider = await startOpenIdProvider({
    directory: dataDir.dataDir,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${origin}/api/admin/session/sso/callback`,
    claimsOf: (login) => ({ email: `${login}@example.org`, email_verified: true, name: 'Grace Hopper', groups }),
  });
  server = await startServerProcess(
    dataDir.dataDir,
    [
      '--plain-http',
      '--port',
      String(port),
      '--oidc-issuer',
      provider.issuer,
      '--oidc-client-id',
      CLIENT_ID,
      '--oidc-role-map',
      'sec-admins=admin,sec-ops=operator,auditors=viewer',
      '--oidc-scopes',
      'openid email profile groups',
    ],
    { env: { OIDC_CLIENT_SECRET: CLIENT_SECRET, NODE_EXTRA_CA_CERTS: provider.certificateFile } },
  );
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
  await dataDir?.remove();
});

/** A fresh browser (no cookies) that accepts the provider's self-signed certificate, as the server was told to. */
async function freshPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** From the sign-in page, through the provider's sign-in and consent pages (when it asks), back to the dashboard. */
async function signInAtProvider(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await page.waitForURL((url) => url.href.startsWith(provider.issuer));
  const login = page.locator('input[name="login"]');
  await login.fill(LOGIN);
  await page.locator('input[name="password"]').fill('any password will do');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The server's cookies in the browser (the provider's, on another port of localhost, share its jar). */
const serverCookies = async (context: BrowserContext) => (await context.cookies(origin)).filter((cookie) => cookie.name.startsWith('__Host-audit'));

const userRows = async () => (await runCli(['users', 'list'], dataDir.dataDir)).stdout;

it('signs in through the provider as a person made just in time, with the role of the groups claim', async () => {
  const { context, page, errors } = await freshPage();
  await page.goto(`${origin}/dashboard/`);
  await page.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
  expect(await page.getByRole('link', { name: 'Sign in with SSO' }).getAttribute('href')).toBe('/api/admin/session/sso');
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-sign-in-sso.png` });

  await signInAtProvider(page);
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/dashboard/');
  await expect.poll(() => page.locator('header .session').textContent()).toContain('Signed in as Grace Hopper (operator)');
  const cookies = await serverCookies(context);
  expect(cookies.map((cookie) => cookie.name)).toEqual(['__Host-audit_session']); // the attempt's cookie is gone
  await page.getByText('Loading…').waitFor({ state: 'detached' }); // the overview came, through the cookie alone
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-signed-in-sso.png` });

  expect(await userRows()).toMatch(new RegExp(`${EMAIL}\\s+Grace Hopper\\s+operator\\s`));
  // Neither the client secret nor the session id reaches the server's log.
  const log = server.logs.join('\n');
  expect(log).toContain('signed in through single sign-on');
  expect(log).not.toContain(CLIENT_SECRET);
  expect(log).not.toContain(cookies[0]!.value);
  expect(errors).toEqual([]);
  await context.close();
}, 90_000);

it('sets the role from the claim again at the next sign-in', async () => {
  groups = ['auditors', 'sec-admins'];
  const { context, page, errors } = await freshPage();
  await page.goto(`${origin}/dashboard/`);
  await signInAtProvider(page);
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
  await expect.poll(() => page.locator('header .session').textContent()).toContain('Signed in as Grace Hopper (admin)');
  expect(await userRows()).toMatch(new RegExp(`${EMAIL}\\s+Grace Hopper\\s+admin\\s`));
  expect(errors).toEqual([]);
  await context.close();
}, 90_000);

it('refuses a callback whose state was tampered with: no session, and the sign-in page says why', async () => {
  const { context, page } = await freshPage();
  // The state is changed on its way to the provider, which hands it back unchanged: the callback then carries a
  // state that is not the attempt's, as one changed in the callback's URL would be. (The browser follows the
  // provider's redirect to the callback itself, where no test can change it.)
  await page.route(/\/api\/admin\/session\/sso$/, async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    const location = new URL(response.headers()['location']!);
    location.searchParams.set('state', `${location.searchParams.get('state')}-tampered`);
    await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
  });
  await page.goto(`${origin}/dashboard/`);
  await signInAtProvider(page);
  await page.getByRole('alert').filter({ hasText: 'The sign-in was interrupted or tampered with; try again.' }).waitFor();
  expect(new URL(page.url()).search).toBe(''); // taken out of the address: a reload does not repeat it
  expect(await serverCookies(context)).toEqual([]);
  await expect.poll(() => server.logs.some((line) => line.includes('single sign-on refused') && line.includes('"reason":"state"'))).toBe(true);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-sso-state-refused.png` });
  await context.close();
}, 90_000);
