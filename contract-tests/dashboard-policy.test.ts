// A policy's page on a demo fleet of 2,000 hosts, in a real browser (Debian's Chromium through playwright-core): the
// Baseline's failures worked through as a queue (paged, searched, sorted by keyboard, one accepted in place with the
// waiver form), and a policy's scope edited with a preview before it is saved, then the policy deleted. Screenshots
// go to test-artifacts/.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Policy, PolicyPreview, PolicyResultPage } from '@org/audit-client/sdk';
import { launchChromium, openFromNav, signIn } from './support/dashboard.js';
import { enableBaseline, startSeededFleet, type SeededFleet } from './support/seeded-fleet.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const VIEWPORT = { width: 1280, height: 800 };

let fleet: SeededFleet;
let browser: Browser;
let baseline: Policy;

beforeAll(async () => {
  fleet = await startSeededFleet();
  baseline = await enableBaseline(fleet);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await fleet?.stop();
});

/** A signed-in tab at 1280×800, on the overview; page errors recorded. */
async function signedIn(): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, fleet.dashboardUrl, fleet.adminToken);
  return { page, errors };
}

/** The results of the baseline the admin API answers for this query. */
const resultsOf = async (query: string) => (await fleet.admin<PolicyResultPage>('GET', `/api/admin/policies/${baseline.id}/results?${query}`)).body;

const queue = (page: Page) => page.locator('table.policy-results');
const caption = (page: Page) => queue(page).locator('caption').innerText();

describe("a policy's page on a fleet of 2,000 hosts", () => {
  it("works through the Baseline's failing hosts: pages, a host name searched, sorted by failing since, one accepted in place", async () => {
    const { page, errors } = await signedIn();
    await openFromNav(page, 'Policies');
    await page.getByRole('link', { name: 'Baseline', exact: true }).click();
    await page.getByRole('heading', { name: 'Policy: Baseline' }).waitFor();
    await expect.poll(() => page.title()).toBe('Baseline · Policy · Audit collector');
    const failing = await resultsOf('status=fail&limit=1');
    expect(failing.total).toBeGreaterThan(75);
    await expect.poll(() => caption(page)).toBe(`Results 1–25 of ${failing.total}`);
    expect(await page.getByRole('link', { name: 'Show these hosts in the hosts list' }).getAttribute('href')).toBe(`#/hosts?failingPolicy=${baseline.id}`);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-policy-page.png` });

    // Two pages on by the pager; the URL keeps the place.
    const pager = page.getByRole('navigation', { name: 'Pages of results' });
    for (const offset of [25, 50]) {
      await pager.getByRole('link', { name: 'Next page' }).click();
      await expect.poll(() => caption(page)).toBe(`Results ${offset + 1}–${offset + 25} of ${failing.total}`);
    }
    expect(page.url()).toContain(`#/policies/${baseline.id}?offset=50`);
    const third = await resultsOf('status=fail&limit=25&offset=50');
    expect(await queue(page).locator('tbody tr').first().locator('td').first().innerText()).toBe(third.items[0]!.hostname);
    await pager.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-policy-queue-page-3.png` });

    // A host name searched: only its results, from the first page.
    const searched = third.items[0]!.hostname!;
    await page.getByLabel('Host name contains').fill(searched);
    await page.getByRole('button', { name: 'Search' }).click();
    const found = await resultsOf(`status=fail&hostname=${encodeURIComponent(searched)}&limit=25`);
    await expect.poll(() => caption(page)).toBe(`Results 1–${found.items.length} of ${found.total}`);
    for (const name of await queue(page).locator('tbody tr td:first-child').allInnerTexts()) expect(name.toLowerCase()).toContain(searched.toLowerCase());
    await page.getByRole('link', { name: 'Clear the search' }).click();
    await expect.poll(() => caption(page)).toBe(`Results 1–25 of ${failing.total}`);

    // Sorted by "failing since" from the keyboard: the longest-failing first, focus kept on the heading.
    const since = queue(page).getByRole('link', { name: /Failing since/ });
    await since.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).toContain('sort=since');
    const longest = await resultsOf('status=fail&sort=since&order=asc&limit=25');
    await expect.poll(() => queue(page).locator('tbody tr').first().locator('td').first().innerText()).toBe(longest.items[0]!.hostname);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Failing since');
    expect(await queue(page).locator('th[aria-sort]').innerText()).toContain('Failing since');
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-policy-sorted-since.png` });

    // The first result accepted in place: the waiver form under its row, then the row read again, waived.
    const first = longest.items[0]!;
    const row = queue(page).locator('tbody tr').first();
    await row.getByRole('button', { name: 'Accept…' }).click();
    const form = page.locator('form.waiver-form');
    await form.waitFor();
    await form.getByLabel('Reason').fill('Replaced next week; tracked in OPS-1234');
    await form.screenshot({ path: `${ARTIFACTS}/dashboard-policy-accept-form.png` });
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-policy-accept-open.png` });
    await form.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect.poll(() => row.locator('td').nth(2).innerText()).toBe('waived');
    await expect.poll(() => form.count()).toBe(0);
    expect(await row.locator('td').first().innerText()).toBe(first.hostname);
    const announcement = page.locator('section[aria-labelledby="queue-title"] p[role="status"]');
    await expect.poll(() => announcement.innerText()).toContain(`Accepted ${first.ruleId} on ${first.hostname} until `);
    expect((await resultsOf(`status=waived&limit=500`)).items.some((result) => result.hostRecordId === first.hostRecordId)).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-policy-accepted.png` });
    expect(errors).toEqual([]);
  });

  it("edits a policy's scope with a preview of the hosts it covers, a faulty rule shown at its rule, saves it, and deletes it", async () => {
    const rules = [{ id: 'hardening-index', expression: 'summary.hardeningIndex >= 60' }];
    const created = await fleet.admin<Policy>('POST', '/api/admin/policies', { name: 'Web hardening', rules });
    expect(created.status).toBe(201);
    const started = performance.now();
    const expected = await fleet.admin<PolicyPreview>('POST', '/api/admin/policies/preview', { name: 'x', scope: { group: 'webservers' }, rules });
    console.log(`Preview of a policy scoped to a group on ${fleet.hosts} hosts: ${Math.round(performance.now() - started)} ms`);
    expect(expected.body.hostsInScope).toBeGreaterThan(0);
    expect(expected.body.hostsInScope).toBeLessThan(fleet.hosts);

    const { page, errors } = await signedIn();
    await page.goto(`${fleet.dashboardUrl}#/policies/${created.body.id}`);
    await page.getByRole('heading', { name: 'Policy: Web hardening' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.locator('form.policy-form');
    await form.getByLabel('Group').fill('webservers');
    await form.getByRole('button', { name: 'Preview' }).click();
    const { hostsInScope, evaluatedHosts, failingHosts } = expected.body;
    const summary = `Covers ${hostsInScope.toLocaleString('en')} hosts (of ${fleet.hosts.toLocaleString('en')} with a report); of the ${evaluatedHosts.toLocaleString('en')} evaluated, ${failingHosts.toLocaleString('en')} fail.`;
    await expect.poll(() => form.locator('.policy-preview p').first().innerText()).toBe(summary);
    await form.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-policy-edit-preview.png` });

    // A rule that does not compile: its error under it, at its position; nothing saved.
    await form.getByLabel('Expression').fill('summary.hardeningIndex >=');
    await form.getByRole('button', { name: 'Preview' }).click();
    const ruleError = form.locator('.rule-error');
    await ruleError.waitFor();
    expect(await form.getByLabel('Expression').getAttribute('aria-invalid')).toBe('true');
    await ruleError.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-policy-edit-rule-error.png` });

    await form.getByLabel('Expression').fill('summary.hardeningIndex >= 60');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => form.count()).toBe(0);
    await expect.poll(() => page.locator('.facts').innerText()).toContain('group webservers');
    const saved = await fleet.admin<Policy>('GET', `/api/admin/policies/${created.body.id}`);
    expect(saved.body).toMatchObject({ scope: { group: 'webservers', tag: null, keyId: null, hostname: null }, rules: [{ expression: rules[0]!.expression }] });

    // Deleted after a confirmation, then back on the list, where it is no more.
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toBe('Delete the policy Web hardening with its results and waivers?');
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Policies', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Web hardening' }).count()).toBe(0);
    expect((await fleet.admin('GET', `/api/admin/policies/${created.body.id}`)).status).toBe(404);
    expect(errors).toEqual([]);
  });
});
