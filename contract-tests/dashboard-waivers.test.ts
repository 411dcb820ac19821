// Exceptions (waivers) in a real browser (Debian's Chromium through playwright-core), against the reference server:
// a failing rule accepted in place on a host's page with the waiver form, for the host's group, seen waived, then
// found on the Exceptions page by the group's name and its creator, and deleted there after a confirmation.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { launchChromium, openFromNav, reportAs, signIn } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';
import { until } from './support/until.js';

const ARTIFACTS = `${fileURLToPath(new URL('..', import.meta.url))}test-artifacts`;
const WEAK_HOST = '8888888888888888888888888888888888888888';

let server: ServerProcess;
let browser: Browser;
let removeDataDir: () => Promise<void>;
let adminToken: string;
let hostRecordId: string;
let policyId: string;

const api = async (path: string, init: RequestInit = {}) => {
  const answer = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
  });
  return (await answer.json()) as Record<string, unknown>;
};

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  const orm = await openDatabase(data.dataDir);
  await importKey(orm, lynisCapture.key);
  ({ token: adminToken } = await createAdminToken(orm, { label: 'exceptions test' }));
  await orm.close();
  server = await startServerProcess(data.dataDir, ['--plain-http']);
  // A host of two groups whose hardening index fails the policy; a group name a host wrote is shown as text.
  const text = reportAs(WEAK_HOST, 'weak-02', 40, [], { 'system-groups': 'Web-Tier,<b>lab</b>' });
  const upload = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: text, licensekey: lynisCapture.key, hostid: WEAK_HOST }),
  });
  expect(upload.status).toBe(200);
  ({ id: policyId } = (await api('/api/admin/policies', {
    method: 'POST',
    body: JSON.stringify({ name: 'Web', rules: [{ id: 'hardening-index', expression: 'summary.hardeningIndex >= 60' }] }),
  })) as { id: string });
  hostRecordId = ((await api('/api/admin/hosts?hostname=weak-02')).items as { id: string }[])[0]!.id;
  await until(async () => ((await api(`/api/admin/hosts/${hostRecordId}/compliance`)).results as unknown[]).length > 0, 'the host evaluated', 15_000);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeDataDir?.();
});

it('accepts a failing rule for the host’s group in place, then finds and deletes it on the Exceptions page', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(8000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, `${server.url}/dashboard/`, adminToken);
  await page.goto(`${server.url}/dashboard/#/hosts/${hostRecordId}`);
  const compliance = page.getByRole('region', { name: /^Compliance/ });
  await compliance.getByRole('heading', { name: 'Compliance: fail' }).waitFor();
  const row = compliance.getByRole('row').filter({ hasText: 'hardening-index' });
  const accept = row.getByRole('button', { name: 'Accept Web / hardening-index…' });

  // Opened and cancelled with Escape: focus goes into the form, then back to the button that opened it.
  await accept.click();
  const form = compliance.getByRole('form', { name: 'Accept: Web / hardening-index' });
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('id')?.endsWith('-reason'))).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => form.count()).toBe(0);
  await expect.poll(() => accept.evaluate((button) => button === document.activeElement)).toBe(true);

  // Opened from the keyboard, for the group: the expiry is 90 days ahead and the groups are the host's, as text.
  await page.keyboard.press('Enter');
  await form.getByLabel('Reason').fill('Web tier rebuilt next quarter (OPS-42)');
  const expires = form.getByLabel('Expires on');
  const in90Days = await page.evaluate(() => {
    const day = new Date();
    day.setDate(day.getDate() + 90);
    return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
  });
  expect(await expires.inputValue()).toBe(in90Days);
  expect(await expires.getAttribute('max')).not.toBeNull();
  await form.getByRole('radio', { name: 'A group of hosts' }).check();
  const group = form.getByLabel('Group', { exact: true });
  expect(await group.locator('option').allInnerTexts()).toEqual(['Web-Tier', '<b>lab</b>']);
  await group.selectOption('Web-Tier');
  await compliance.screenshot({ path: `${ARTIFACTS}/dashboard-waiver-form.png` });
  await form.getByRole('button', { name: 'Accept', exact: true }).click();
  await compliance.getByRole('status').filter({ hasText: 'Accepted Web / hardening-index for the group Web-Tier' }).waitFor();
  await expect.poll(() => row.locator('td.status-waived').count()).toBe(1);
  expect(await row.getByRole('button').count()).toBe(0);
  await compliance.screenshot({ path: `${ARTIFACTS}/dashboard-waiver-accepted.png` });

  // On the Exceptions page, soonest expiry first: a fleet-wide exception ending in 5 days, marked, then the group's,
  // each with the policy, the rule, what it covers by name, the reason and who created it.
  const soon = new Date(Date.now() + 5 * 86_400_000).toISOString();
  await api('/api/admin/waivers', { method: 'POST', body: JSON.stringify({ policyId, reason: 'Audit postponed', expiresAt: soon }) });
  await openFromNav(page, 'Exceptions');
  const exception = page.getByRole('row').filter({ hasText: 'OPS-42' });
  await exception.waitFor();
  const rows = page.locator('tbody tr');
  expect(await rows.count()).toBe(2);
  expect(await rows.first().getByRole('cell').allInnerTexts()).toEqual([
    'Web',
    'every rule',
    'every host',
    'Audit postponed',
    'exceptions test',
    expect.stringMatching(/^\d{4}-\d{2}-\d{2}/),
    expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+\s*expiring soon$/),
    'Delete…',
  ]);
  expect(await exception.getByRole('cell').allInnerTexts()).toEqual([
    'Web',
    'hardening-index',
    'group Web-Tier',
    'Web tier rebuilt next quarter (OPS-42)',
    'exceptions test',
    expect.stringMatching(/^\d{4}-\d{2}-\d{2}/),
    expect.stringMatching(new RegExp(`^${in90Days}`)),
    'Delete…',
  ]);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-exceptions.png`, fullPage: true });

  // Deleted after a confirmation: gone from the list, and the host fails again.
  await exception.getByRole('button', { name: /^Delete the exception Web \/ hardening-index for group Web-Tier/ }).click();
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-exceptions-confirm.png`, fullPage: true });
  await exception.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect.poll(() => exception.count()).toBe(0);
  await expect.poll(() => rows.count()).toBe(1); // the list read again after the delete
  expect(((await api('/api/admin/waivers')).items as { reason: string }[]).map((waiver) => waiver.reason)).toEqual(['Audit postponed']);
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);
