// The dashboard offers each role only what it may do, in a real browser (Debian's Chromium through playwright-core):
// signed in with a viewer token, the Keys page has no Create key, Revoke or quota forms and a policy's failures no
// Accept… and a webhook no test event or redelivery; an operator may accept failures but not edit the policy; an admin sees everything. The server enforces the
// roles whatever the dashboard shows (admin-roles.test.ts). Screenshots go to test-artifacts/.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Policy } from '@org/audit-client/sdk';
import { launchChromium, openFromNav, signIn } from './support/dashboard.js';
import { enableBaseline, startSeededFleet, type SeededFleet } from './support/seeded-fleet.js';
import { runCli } from './support/server-process.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));

let fleet: SeededFleet;
let browser: Browser;
let baseline: Policy;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  fleet = await startSeededFleet({ hosts: 60 });
  baseline = await enableBaseline(fleet);
  for (const role of ['viewer', 'operator']) {
    const created = await runCli(['admin-tokens', 'create', '--label', `${role} on call`, '--role', role], fleet.server.dataDir);
    expect(created.code, created.stderr).toBe(0);
    tokens[role] = created.stdout.trim();
  }
  tokens['admin'] = fleet.adminToken;
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await fleet?.stop();
});

/** A tab signed in with the token of `role`, once the header names the role; page errors recorded. */
async function signedInAs(role: string): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, fleet.dashboardUrl, tokens[role]!);
  await expect.poll(() => page.locator('header .session').innerText()).toContain(`(${role})`);
  return { page, errors };
}

/** Opens the Baseline's page and waits for its queue of failing hosts. */
async function openBaseline(page: Page): Promise<void> {
  await openFromNav(page, 'Policies');
  await page.getByRole('link', { name: 'Baseline', exact: true }).click();
  await page.getByRole('heading', { name: 'Policy: Baseline' }).waitFor();
  await page.locator('table.policy-results tbody tr').first().waitFor();
}

const buttons = (page: Page, name: string) => page.getByRole('button', { name, exact: true }).count();

describe('what the dashboard offers each role', () => {
  it('offers a viewer no change: no key creation, quotas, rotation or revocation, no Accept… and no policy edits', async () => {
    const { page, errors } = await signedInAs('viewer');
    expect(await page.locator('header .session').textContent()).toContain('Signed in as viewer on call (viewer)');
    await openFromNav(page, 'Keys', 'License keys');
    await page.locator('table tbody tr').first().waitFor();
    expect(await buttons(page, 'Create key')).toBe(0);
    expect(await buttons(page, 'Revoke')).toBe(0);
    expect(await page.getByText('Quotas', { exact: true }).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-roles-viewer-keys.png` });

    await openBaseline(page);
    expect(await buttons(page, 'Accept…')).toBe(0);
    for (const name of ['Edit', 'Delete', 'Disable']) expect(await buttons(page, name), name).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-roles-viewer-policy.png`, fullPage: true });

    // A webhook's page: its delivery log, without a test event or a redelivery (an operator's).
    const hook = await fleet.admin<{ id: string }>('POST', '/api/admin/webhooks', { url: 'https://hooks.example.org/audit', events: ['report.stored'] });
    expect(hook.status).toBe(201);
    await openFromNav(page, 'Webhooks');
    await page.getByRole('link', { name: 'https://hooks.example.org/audit' }).click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    for (const name of ['Send a test event', 'Redeliver', 'Save changes', 'Delete subscription']) expect(await buttons(page, name), name).toBe(0);
    expect(errors).toEqual([]);
  });

  it("offers an operator the failures' Accept… but no policy edits, and an admin both", async () => {
    const operator = await signedInAs('operator');
    await openBaseline(operator.page);
    expect(await buttons(operator.page, 'Accept…')).toBeGreaterThan(0);
    expect(await buttons(operator.page, 'Edit')).toBe(0);
    await openFromNav(operator.page, 'Keys', 'License keys');
    expect(await buttons(operator.page, 'Create key')).toBe(0);

    const admin = await signedInAs('admin');
    await openBaseline(admin.page);
    expect(await buttons(admin.page, 'Accept…')).toBeGreaterThan(0);
    expect(await buttons(admin.page, 'Edit')).toBe(1);
    await openFromNav(admin.page, 'Keys', 'License keys');
    expect(await buttons(admin.page, 'Create key')).toBe(1);
    expect([...operator.errors, ...admin.errors]).toEqual([]);
    expect(baseline.name).toBe('Baseline');
  });

  it("offers a host's lifecycle by role: nothing to a viewer, state and merge to an operator, deletion to an admin", async () => {
    const [host] = (await fleet.admin<{ items: { id: string; hostname: string; reportCount: number }[] }>('GET', '/api/admin/hosts?limit=1')).body.items;
    const openHost = async (page: Page) => {
      await page.goto(`${fleet.dashboardUrl}#/hosts/${host!.id}`);
      await page.getByRole('heading', { name: host!.hostname, level: 1 }).waitFor();
      await page.locator('.host-state .badge').waitFor();
    };
    const viewer = await signedInAs('viewer');
    await openHost(viewer.page);
    expect(await viewer.page.getByRole('region', { name: 'Host actions' }).count()).toBe(0);
    await openFromNav(viewer.page, 'Hosts');
    await viewer.page.getByRole('checkbox', { name: `Select ${host!.hostname}` }).check();
    expect(await buttons(viewer.page, 'Decommission…')).toBe(0);

    const operator = await signedInAs('operator');
    await openHost(operator.page);
    const actions = operator.page.getByRole('region', { name: 'Host actions' });
    expect(await actions.getByRole('button').allTextContents()).toEqual(['Decommission', 'Merge another host into this one…']);
    // The merge form refuses the host's own id before asking the server.
    await actions.getByRole('button', { name: 'Merge another host into this one…' }).click();
    await actions.getByLabel(/^Id of the host to merge into this one/).fill(host!.id);
    await actions.getByRole('button', { name: 'Continue' }).click();
    await actions.getByRole('alert').filter({ hasText: "That is this host's own id" }).waitFor();

    // An admin deletes it: the button waits for its name, then the hosts list opens without it.
    const admin = await signedInAs('admin');
    await openHost(admin.page);
    const adminActions = admin.page.getByRole('region', { name: 'Host actions' });
    await adminActions.getByRole('button', { name: 'Delete host…' }).click();
    expect(await adminActions.innerText()).toContain('It cannot be undone.');
    const confirm = adminActions.getByRole('button', { name: 'Delete host and its reports' });
    expect(await confirm.isDisabled()).toBe(true);
    await adminActions.getByLabel(/^To confirm, type the host name/).fill(`${host!.hostname}x`);
    expect(await confirm.isDisabled()).toBe(true);
    await adminActions.getByLabel(/^To confirm, type the host name/).fill(host!.hostname);
    await admin.page.screenshot({ path: `${ARTIFACTS}/host-delete-confirm.png` });
    await confirm.click();
    await admin.page.getByRole('heading', { name: 'Hosts', exact: true }).waitFor();
    expect(new URL(admin.page.url()).hash).toBe('#/hosts');
    expect((await fleet.admin('GET', `/api/admin/hosts/${host!.id}`)).status).toBe(404);
    expect([...viewer.errors, ...operator.errors, ...admin.errors]).toEqual([]);
  });
});
