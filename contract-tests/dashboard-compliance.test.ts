// The dashboard's compliance views in a real browser (Debian's Chromium through playwright-core), against the
// reference server: the baseline enabled from the Policies page and its counts, a policy whose rule does not parse
// shown with the error under that rule, a failing host accepted on the policy's page, and a host's compliance on its
// page and in the list.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase, sqlDialectOf } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { launchChromium, openFromNav, reportAs, signIn } from './support/dashboard.js';
import { makeDataDir, startServerProcess, type ServerProcess } from './support/server-process.js';

const ARTIFACTS = `${fileURLToPath(new URL('..', import.meta.url))}test-artifacts`;
const GOOD_HOST = '6666666666666666666666666666666666666666';
const WEAK_HOST = '7777777777777777777777777777777777777777';

let server: ServerProcess;
let browser: Browser;
let removeDataDir: () => Promise<void>;
let adminToken: string;
let dataDir: string;

/** The captured report as another host, with another host name and hardening index, and no findings when `clean`. */
function report(hostId: string, hostname: string, index: number, clean: boolean): string {
  const text = reportAs(hostId, hostname, index);
  return clean ? text.replace(/^(warning|vulnerable_package)\[\]=.*\n/gm, '') : text;
}

beforeAll(async () => {
  const data = await makeDataDir();
  removeDataDir = data.remove;
  dataDir = data.dataDir;
  const orm = await openDatabase(data.dataDir);
  await importKey(orm, lynisCapture.key);
  ({ token: adminToken } = await createAdminToken(orm, { label: 'compliance test' }));
  await orm.close();
  server = await startServerProcess(data.dataDir, ['--plain-http']);
  for (const [hostId, text] of [
    [GOOD_HOST, report(GOOD_HOST, 'good-01', 80, true)],
    [WEAK_HOST, report(WEAK_HOST, 'weak-01', 40, false)],
  ] as const) {
    const answer = await fetch(`${server.url}/api/audit/upload/`, {
      method: 'POST',
      body: new URLSearchParams({ data: text, licensekey: lynisCapture.key, hostid: hostId }),
    });
    expect(answer.status).toBe(200);
  }
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await removeDataDir?.();
});

async function openPolicies(page: Page): Promise<void> {
  await signIn(page, `${server.url}/dashboard/`, adminToken);
  await openFromNav(page, 'Policies');
}

/** The cells of the policies table's row of `name`: pass, fail, error, waived. */
const countsOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name }).first().locator('td.number').allInnerTexts();

it('enables the baseline, shows a rule error in place, waives a failing host, and shows compliance on the host', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(8000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await openPolicies(page);
  // Before it is enabled, the preview: good-01 passes every rule, weak-01 fails on its index and its packages.
  const preview = page.getByRole('table', { name: 'Hosts each baseline rule would pass and fail' });
  const counts = (rule: string) => preview.getByRole('row').filter({ hasText: rule }).getByRole('cell').allInnerTexts();
  await expect.poll(async () => (await counts('no-vulnerable-packages')).slice(-3)).toEqual(['1', '1', '0']);
  expect((await counts('hardening-index')).slice(-3)).toEqual(['1', '1', '0']);
  expect((await counts('firewall-active')).slice(-3)).toEqual(['2', '0', '0']);
  await page.getByRole('button', { name: 'Enable the baseline' }).click();
  // The evaluator runs in the background: the page shows the counts once it reloads.
  await expect
    .poll(
      async () => {
        await page.reload();
        await page.getByRole('heading', { name: 'Policies', exact: true }).waitFor();
        return countsOf(page, 'Baseline');
      },
      { timeout: 15_000 },
    )
    .toEqual(['1', '1', '0', '0']);

  // A new policy whose second rule does not parse: the error shows under that rule, with a caret at its position.
  await page.getByLabel('Name', { exact: true }).fill('Web firewall');
  await page.getByRole('button', { name: 'Add a rule' }).click();
  await page.getByLabel('Rule id').nth(1).fill('broken');
  await page.getByLabel('Expression').nth(1).fill('summary.hardeningIndex >= ');
  await page.getByRole('button', { name: 'Create policy' }).click();
  const ruleError = page.locator('fieldset.rule').nth(1).getByRole('alert');
  await expect.poll(() => ruleError.innerText()).toContain('Unexpected token: EOF (at character 27)');
  expect(await ruleError.locator('pre').innerText()).toBe(`summary.hardeningIndex >= \n${' '.repeat(26)}^`);
  await expect.poll(() => page.locator('fieldset.rule').first().getByRole('alert').count()).toBe(0);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-policy-error.png`, fullPage: true });

  // The failing host, accepted on the Baseline's page with the waiver form: its row shows it waived, and it counts
  // as waived, not as passing.
  await page.getByRole('link', { name: 'Baseline', exact: true }).click();
  const queue = page.getByRole('region', { name: 'Hosts to look at' });
  await expect.poll(() => queue.getByRole('row').count()).toBe(3); // heading row and two failing rules of weak-01 (index, packages)
  expect(await queue.getByRole('link', { name: 'weak-01' }).count()).toBe(2);
  const indexRow = queue.locator('tbody tr').filter({ hasText: 'hardening-index' }).first();
  await indexRow.getByRole('button', { name: 'Accept…' }).click();
  await queue.getByLabel('Reason').fill('Lab machine, rebuilt next quarter');
  await queue.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect.poll(() => indexRow.locator('td.status-waived').count()).toBe(1);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-policies.png`, fullPage: true });

  // The overview's compliance card: one of two evaluated hosts passes, the other fails on rules beside the waived one.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Overview', exact: true }).click();
  const card = page.getByRole('listitem').filter({ hasText: 'Compliant (of 2 evaluated; 1 failing, 0 waived)' });
  await expect.poll(() => card.locator('.card-value').innerText()).toBe('50%');

  // The host's page and the hosts list show its compliance.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Hosts', exact: true }).click();
  await page.getByRole('heading', { name: 'Hosts', exact: true }).waitFor();
  expect(await page.getByRole('row').filter({ hasText: 'weak-01' }).locator('td.status-noncompliant').innerText()).toBe('noncompliant');
  expect(await page.getByRole('row').filter({ hasText: 'good-01' }).locator('td.status-compliant').innerText()).toBe('compliant');
  await page.getByRole('link', { name: 'weak-01' }).click();
  await page.getByRole('heading', { name: 'Compliance: fail' }).waitFor();
  const compliance = page.getByRole('region', { name: 'Compliance: fail' });
  expect(await compliance.getByRole('row').filter({ hasText: 'no-vulnerable-packages' }).innerText()).toMatch(/no-vulnerable-packages\s+fail\s+81/);
  expect(await compliance.getByRole('row').filter({ hasText: 'hardening-index' }).innerText()).toMatch(/hardening-index\s+waived\s+40/);
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-host-compliance.png` });
  expect(errors).toEqual([]);
  await page.close();
}, 60_000);

it('shows a quarantined policy with its reason; Enable clears the quarantine, Delete removes the policy', async () => {
  // Quarantined as the evaluator does it (disabled, when and why), written beside the running server.
  const orm = await openDatabase(dataDir);
  const id = randomUUID();
  const time = sqlDialectOf(orm.em).toDatabaseTime(new Date());
  const reason = 'rule slow: the rule exceeded its time budget of 200 ms (3 overruns)';
  await orm.em
    .getKnex()('policy')
    .insert({
      id,
      name: 'Quarantined one',
      description: null,
      enabled: false,
      rules: JSON.stringify([{ id: 'slow', description: null, expression: 'true' }]),
      created_at: time,
      updated_at: time,
      revision: 1,
      strikes: 3,
      quarantined_at: time,
      quarantine_reason: reason,
    });
  await orm.close();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(8000);
  await openPolicies(page);
  const row = () => page.getByRole('row').filter({ hasText: 'Quarantined one' });
  await expect.poll(() => row().getByRole('status').innerText()).toMatch(new RegExp(`^Quarantined .+: ${reason.replace(/[()]/g, '\\$&')}$`));
  expect(await row().innerText()).toContain('(disabled)');
  await row().getByRole('button', { name: 'Enable' }).click();
  await expect.poll(() => row().getByRole('status').count()).toBe(0);
  expect(await row().innerText()).not.toContain('(disabled)');
  // The baseline can be added beside other policies: deleted, its button is back while this policy exists.
  const enableBaseline = page.getByRole('button', { name: 'Enable the baseline' });
  expect(await enableBaseline.count()).toBe(0);
  // Deleting asks first.
  page.on('dialog', (dialog) => void dialog.accept());
  await page.getByRole('row').filter({ hasText: 'Baseline' }).first().getByRole('button', { name: 'Delete' }).click();
  await enableBaseline.click();
  await expect.poll(() => page.getByRole('row').filter({ hasText: 'Baseline' }).count()).toBe(1);
  expect(await enableBaseline.count()).toBe(0);
  await row().getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => row().count()).toBe(0);
  await page.close();
}, 60_000);
