// The dashboard on a demo fleet of 2,000 hosts, in a real browser (Debian's Chromium through playwright-core): the
// hosts list as a work queue. Typed filters with suggestions, the export against the list, sorting by compliance
// by keyboard, page titles, and accepting a rule for every host matching the filters. The fleet is seeded once for
// the file (see support/seeded-fleet.ts); screenshots of each scenario go to test-artifacts/.
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Facets, HostPage, Policy, PolicyResultPage } from '@org/audit-client/sdk';
import { fitsWidth, launchChromium, signIn } from './support/dashboard.js';
import { enableBaseline, startSeededFleet, type SeededFleet } from './support/seeded-fleet.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const VIEWPORT = { width: 1280, height: 800 };

let fleet: SeededFleet;
let browser: Browser;
let baseline: Policy;

beforeAll(async () => {
  const started = performance.now();
  fleet = await startSeededFleet();
  baseline = await enableBaseline(fleet);
  console.log(
    `Seeded ${fleet.hosts} hosts in ${Math.round(fleet.seedMs)} ms; server up and the baseline evaluated after ${Math.round(performance.now() - started)} ms`,
  );
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await fleet?.stop();
});

/**
 * A signed-in tab at 1280×800, on the overview; page errors recorded. Exports are saved as downloads (a headless
 * browser cannot answer Chromium's save picker).
 */
async function signedIn(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: VIEWPORT, acceptDownloads: true });
  await context.addInitScript(() => Object.defineProperty(window, 'showSaveFilePicker', { value: undefined }));
  const page = await context.newPage();
  page.setDefaultTimeout(30_000); // a machine busy with other tests can take long to open a tab and draw 200 hosts
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signIn(page, fleet.dashboardUrl, fleet.adminToken);
  return { page, errors };
}

/** `expect.poll` with time for a busy machine to load and draw the list (its default is a second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

/** The list's page of hosts the admin API answers for this query. */
const hostsOf = async (query: string) => (await fleet.admin<HostPage>('GET', `/api/admin/hosts?${query}`)).body;

/** Opens the hosts list at `hash` and waits until its caption reads as a loaded list. */
async function openHosts(page: Page, hash: string): Promise<void> {
  await page.goto(`${fleet.dashboardUrl}${hash}`);
  await page.locator('table.hosts caption').waitFor();
}

/** How many hosts the list says match its filters ("Hosts 1–50 of 612"), 0 when it says none does. */
async function listTotal(page: Page): Promise<number> {
  const caption = (await page.locator('table.hosts caption').textContent()) ?? '';
  return Number(/ of (\d+)$/.exec(caption)?.[1] ?? 0);
}

/** The host names of the list's page, in the order shown. */
const listed = (page: Page) => page.locator('table.hosts tbody tr td:first-child > a').allTextContents();

/** Clicks `Download CSV` in the export group whose label starts with `group`; the rows of the file saved. */
async function downloadCsv(page: Page, group: string): Promise<Record<string, string>[]> {
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('group', { name: group }).getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  return parseCsv(await readFile(await saved.path(), 'utf8'), { columns: true });
}

/** What has focus: its tag, its text, and the `aria-sort` of its heading cell, if any. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return { tag: active?.tagName, text: active?.textContent?.trim(), sort: active?.closest('th')?.getAttribute('aria-sort') ?? null };
  });

describe('the dashboard on a fleet of 2,000 hosts', { timeout: 90_000 }, () => {
  it('suggests a group typed in upper case with its stored spelling and host count, and lists that many hosts', async () => {
    const { page, errors } = await signedIn();
    await openHosts(page, '#/hosts');
    const facets = (await fleet.admin<Facets>('GET', '/api/admin/facets?field=group&q=webservers')).body;
    const webservers = facets.group.find((facet) => facet.value === 'webservers')!;
    expect(webservers.hosts).toBe((await hostsOf('group=webservers&limit=1')).total);
    const group = page.getByRole('combobox', { name: 'Group' });
    await group.pressSequentially('WEBSERVERS');
    // The one list of suggestions shown (the other inputs' are hidden).
    const suggestion = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').first();
    await eventually(() => suggestion.textContent()).toBe(`webservers${webservers.hosts.toLocaleString('en')} hosts`);
    expect(await group.getAttribute('aria-expanded')).toBe('true');
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-fleet-group-suggestion.png` });
    await group.press('Escape');
    expect(await group.getAttribute('aria-expanded')).toBe('false');
    // Enter with no suggestion marked searches for the text as typed: the server matches it whatever its case.
    await group.press('Enter');
    await eventually(() => page.url()).toMatch(/#\/hosts\?group=WEBSERVERS$/);
    await eventually(() => listTotal(page)).toBe(webservers.hosts);
    expect(webservers.hosts).toBeGreaterThan(50);

    // The key filter suggests key labels; taking one by keyboard filters by the key's id.
    const key = page.getByRole('combobox', { name: 'License key' });
    await key.pressSequentially('DEM');
    await eventually(() => suggestion.textContent()).toBe(`demo${fleet.hosts.toLocaleString('en')} hosts`);
    await key.press('ArrowDown');
    expect(await key.getAttribute('aria-activedescendant')).toBe(await suggestion.getAttribute('id'));
    expect(await suggestion.getAttribute('aria-selected')).toBe('true');
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-fleet-key-suggestion.png` });
    await key.press('Enter');
    expect(await key.inputValue()).toBe('demo');
    expect(await key.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(() => page.url()).toMatch(/[?&]key=[0-9a-f-]{36}/);
    await eventually(() => listTotal(page)).toBe(webservers.hosts); // every demo host uses the demo key
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("exports the filtered view: the file's rows are the hosts of the list's pages, and a selection exports just those", async () => {
    const { page, errors } = await signedIn();
    await openHosts(page, '#/hosts?group=databases&sort=hostname&order=asc&size=200');
    const total = await listTotal(page);
    expect(total).toBe((await hostsOf('group=databases&limit=1')).total);
    expect(total).toBeGreaterThan(200); // more than one page
    const names: string[] = [];
    for (let offset = 0; offset < total; offset += 200) {
      await openHosts(page, `#/hosts?group=databases&sort=hostname&order=asc&offset=${offset}&size=200`);
      names.push(...(await listed(page)));
    }
    expect(names).toHaveLength(total);
    const rows = await downloadCsv(page, 'The hosts listed');
    expect(rows.map((row) => row['hostname'])).toEqual(names);

    // Hosts ticked on two pages: the bar's export has those only.
    await openHosts(page, '#/hosts?group=databases&sort=hostname&order=asc');
    const firstThree = (await listed(page)).slice(0, 3);
    for (const name of firstThree) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
    const bar = page.getByRole('region', { name: 'Selected hosts' });
    await eventually(() => bar.locator('strong').textContent()).toBe('3 selected');
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-fleet-selection.png` });
    // Once a selection started, a row's checkbox is a Tab stop before its host's name.
    await page.getByRole('checkbox', { name: `Select ${firstThree[2]}` }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'A', text: firstThree[2] });
    await page.getByRole('link', { name: 'Next page' }).click();
    await eventually(() => page.locator('table.hosts caption').textContent()).toBe(`Hosts 51–100 of ${total}`);
    const onPageTwo = (await listed(page))[0]!;
    await page.getByRole('checkbox', { name: `Select ${onPageTwo}` }).check();
    await eventually(() => bar.locator('strong').textContent()).toBe('4 selected');
    const selected = await downloadCsv(page, 'Export them');
    expect(selected.map((row) => row['hostname'])).toEqual([...firstThree, onPageTwo]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('sorts by compliance by keyboard, Enter again reversing it, focus staying on the heading', async () => {
    const { page, errors } = await signedIn();
    await openHosts(page, '#/hosts?size=200');
    const heading = page.getByRole('link', { name: /^Compliance/ });
    await heading.focus();
    await page.keyboard.press('Enter');
    await eventually(() => focused(page)).toEqual({ tag: 'A', text: 'Compliance\u00a0▼', sort: 'descending' });
    const descending = await hostsOf('sort=compliance&order=desc&limit=200');
    await eventually(() => listed(page)).toEqual(descending.items.map((host) => host.hostname));
    expect(descending.items[0]!.compliance).toBe('noncompliant');
    await page.keyboard.press('Enter'); // no Tab in between: focus stayed on the heading
    await eventually(() => focused(page)).toEqual({ tag: 'A', text: 'Compliance\u00a0▲', sort: 'ascending' });
    const ascending = await hostsOf('sort=compliance&order=asc&limit=200');
    await eventually(() => listed(page)).toEqual(ascending.items.map((host) => host.hostname));
    expect(ascending.items[0]!.compliance).toBe('compliant');
    // The page shown is in the order the contract gives: compliant, waived, noncompliant (unknown last either way).
    const rank = { compliant: 0, waived: 1, noncompliant: 2, unknown: 3 };
    const shown = await page.locator('table.hosts tbody tr td:nth-child(6)').allTextContents();
    expect(shown.map((state) => rank[state as keyof typeof rank])).toEqual(shown.map((state) => rank[state as keyof typeof rank]).sort((a, b) => a - b));
    expect(page.url()).toMatch(/sort=compliance&order=asc/);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-fleet-compliance-sort.png`, clip: { x: 0, y: 250, width: 1280, height: 250 } });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('names each page in the window title: the overview, the hosts list, a host', async () => {
    const { page, errors } = await signedIn();
    expect(await page.title()).toBe('Overview · Audit collector');
    await openHosts(page, '#/hosts?sort=hostname&order=asc');
    await eventually(() => page.title()).toBe('Hosts · Audit collector');
    const first = (await hostsOf('sort=hostname&order=asc&limit=1')).items[0]!;
    await page.getByRole('link', { name: first.hostname!, exact: true }).click();
    await eventually(() => page.title()).toBe(`${first.hostname} · Host · Audit collector`);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-fleet-host-title.png` });
    await page.goBack();
    await page.locator('table.hosts tbody tr').first().waitFor();
    await eventually(() => page.title()).toBe('Hosts · Audit collector');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  // Last: it waives a rule for many hosts, which changes their compliance for the tests above.
  it('accepts a rule for every host matching the filters: all N selected, one waiver each, their results waived', async () => {
    const { page, errors } = await signedIn();
    // The baseline rule the most noncompliant databases fail.
    const filtersOf = (ruleId: string) => `group=databases&compliance=noncompliant&failingPolicy=${baseline.id}&failingRule=${ruleId}`;
    const counts = await Promise.all(baseline.rules.map(async (rule) => ({ rule: rule.id, hosts: (await hostsOf(`${filtersOf(rule.id)}&limit=500`)).items })));
    const { rule, hosts } = counts.sort((a, b) => b.hosts.length - a.hosts.length)[0]!;
    const matching = hosts.length;
    expect(matching).toBeGreaterThan(25);
    await openHosts(page, `#/hosts?${filtersOf(rule)}&size=25`);
    expect(await listTotal(page)).toBe(matching);
    const chips = page.getByRole('list', { name: 'Filters in force' });
    expect(await chips.getByRole('listitem').allTextContents()).toEqual([
      'group databases×',
      'compliance noncompliant×',
      'failing policy Baseline×',
      `failing rule ${rule} of Baseline×`,
    ]);

    await page.getByRole('checkbox', { name: 'Select the hosts of this page' }).check();
    const bar = page.getByRole('region', { name: 'Selected hosts' });
    await eventually(() => bar.locator('strong').textContent()).toBe('25 selected');
    await bar.getByRole('button', { name: `Select all ${matching} matching the filters` }).click();
    await eventually(() => bar.locator('strong').textContent()).toBe(`${matching} selected`);
    // The bar wraps in a narrow window instead of widening the page.
    await page.setViewportSize({ width: 420, height: 800 });
    expect(await fitsWidth(page, 420)).toBe(true);
    await bar.screenshot({ path: `${ARTIFACTS}/dashboard-fleet-bar-narrow.png` });
    await page.setViewportSize(VIEWPORT);
    await bar.getByRole('button', { name: 'Accept a rule…' }).click();
    expect(await page.getByLabel('Policy', { exact: true }).inputValue()).toBe(baseline.id); // the failing policy and rule of the filters
    expect(await page.getByLabel('Rule', { exact: true }).inputValue()).toBe(rule);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Reason', { exact: true }).fill('Database tier reviewed in bulk (ticket OPS-4242)');
    expect(await page.getByRole('radio', { name: `Only the ${matching} selected hosts` }).isChecked()).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-fleet-accept-form.png` });
    await page.getByRole('button', { name: 'Accept', exact: true }).click();

    const status = page.getByRole('status').filter({ hasText: 'waivers created' });
    await eventually(() => status.textContent()).toBe(`${matching} waivers created`);
    // The list loads again: no host fails that rule any more.
    await eventually(() => page.locator('table.hosts caption').textContent()).toBe('No host matches these filters.');
    await page.screenshot({ path: `${ARTIFACTS}/dashboard-fleet-accepted.png` });
    expect((await hostsOf(`${filtersOf(rule)}&limit=1`)).total).toBe(0);
    const waived = (await fleet.admin<PolicyResultPage>('GET', `/api/admin/policies/${baseline.id}/results?ruleId=${rule}&status=waived&limit=500`)).body;
    expect(waived.items.map((result) => result.hostRecordId).sort()).toEqual(hosts.map((host) => host.id).sort());
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
