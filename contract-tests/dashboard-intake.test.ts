// The dashboard's side of the intake in a real browser (Debian's Chromium through playwright-core), against the
// reference server in strict identity mode: a host whose hostid2 changed is flagged on the hosts list and its page,
// its new identity accepted in one click, and a key's quotas of hosts set on the keys page; the admin API agrees.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { launchChromium, openFromNav, reportAs, signIn } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const HOST_ID = '7777777777777777777777777777777777777777';
const NEW_ID2 = 'e'.repeat(64);

let server: ServerProcess;
let browser: Browser;
let removeDataDir: () => Promise<void>;
let adminToken: string;
let keyId: string;
let dashboardUrl: string;

const upload = async (hostid2: string) =>
  (
    await fetch(`${server.url}/api/audit/upload/`, {
      method: 'POST',
      body: new URLSearchParams({ data: reportAs(HOST_ID, 'moved-01', 60), licensekey: lynisCapture.key, hostid: HOST_ID, hostid2 }),
    })
  ).status;
const adminGet = async <T>(path: string): Promise<T> =>
  (await (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as T;

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  keyId = await importKey(orm, lynisCapture.key, { label: 'intake key' });
  ({ token: adminToken } = await createAdminToken(orm, { label: 'intake test' }));
  await orm.close();
  server = await startServerProcess(data.dataDir, ['--plain-http', '--host-identity', 'strict']);
  dashboardUrl = `${server.url}/dashboard/`;
  expect(await upload(lynisCapture.hostId2)).toBe(200);
  expect(await upload(NEW_ID2)).toBe(409); // a reinstalled host, say: refused until accepted
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeDataDir?.();
});

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(8000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

it('flags the host on the list and its page, and accepts the new identity in one click', async () => {
  const { page, errors } = await openPage();
  await signIn(page, dashboardUrl, adminToken);
  await openFromNav(page, 'Hosts');
  const row = page.getByRole('row').filter({ hasText: 'moved-01' });
  await expect.poll(() => row.textContent()).toContain('Identity changed, reports refused');
  await row.getByRole('link', { name: 'moved-01' }).click();
  const flag = page.getByRole('region', { name: 'Identity changed' });
  await flag.waitFor();
  expect(await flag.textContent()).toContain(`${lynisCapture.hostId2} → ${NEW_ID2}`);
  await flag.getByRole('button', { name: 'Accept new identity' }).click();
  await flag.waitFor({ state: 'detached' });
  const [host] = (await adminGet<{ items: { hostId2: string; identityChange: unknown }[] }>(`/api/admin/hosts?hostId=${HOST_ID}`)).items;
  expect(host).toMatchObject({ hostId2: NEW_ID2, identityChange: null });
  expect(await upload(NEW_ID2)).toBe(200);
  expect(errors).toEqual([]);
  await page.close();
});

it("sets a key's quotas of hosts on the keys page", async () => {
  const { page, errors } = await openPage();
  await signIn(page, dashboardUrl, adminToken);
  await openFromNav(page, 'Keys', 'License keys');
  const row = page.getByRole('row').filter({ hasText: 'intake key' });
  expect(await row.textContent()).toContain('server default');
  await row.getByText('Quotas', { exact: true }).click();
  await row.getByLabel('New hosts a day for intake key').fill('25');
  await row.getByLabel('Most hosts for intake key').fill('400');
  await row.getByRole('button', { name: 'Save quotas' }).click();
  await expect
    .poll(async () =>
      (await adminGet<{ items: { id: string; newHostsPerDay: number | null; maxHosts: number | null }[] }>('/api/admin/keys')).items.find(
        (key) => key.id === keyId,
      ),
    )
    .toMatchObject({ newHostsPerDay: 25, maxHosts: 400 });
  await expect.poll(() => row.textContent()).toContain('400');
  expect(errors).toEqual([]);
  await page.close();
});
