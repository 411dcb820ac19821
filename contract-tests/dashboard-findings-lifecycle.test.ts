// Findings with a lifecycle in a real browser (Debian's Chromium through playwright-core), against the reference
// server: three reports of one host leave its findings open, resolved and regressed; an operator signed in with a
// password acknowledges one (with a due day), is refused as the approver of their own acceptance (the server's
// words shown), accepts another's risk with a second person picked from the list of enabled people as approver, sees
// every state's badge in words, and opens "My findings" on the Findings page. Host names and finding text a host
// wrote are shown as text.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminToken, importKey, openDatabase } from '@org/audit-server';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { launchChromium, reportAs } from './support/dashboard.js';
import { makeDataDir, runCli, startServerProcess, type ServerProcess } from './support/server-process.js';
import { until } from './support/until.js';

const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));
const HOST_ID = '7777777777777777777777777777777777777777';
const HOSTNAME = 'web-<b>07</b>';
const EMAIL = 'ada@example.org';
const PASSWORD = 'correct horse battery staple';
const APPROVER = 'grace@example.org';
/** A disabled account: not offered as an owner or approver. */
const DISABLED = 'bob@example.org';
/** Warnings added to the captured report: one whose text is markup, one that goes and comes back, one that goes. */
const HOSTILE = 'HOST-0001|Telnet enabled <img src=x onerror=alert(1)>|-|-|';
const BACK = 'BACK-0001|Weak SSH cipher allowed|-|-|';
const GONE = 'GONE-0001|Core dumps not restricted|-|-|';

interface Tracked {
  id: string;
  testId: string;
  kind: string;
  state: string;
}

let data: { dataDir: string; remove: () => Promise<void> };
let server: ServerProcess;
let browser: Browser;
let adminToken: string;
let hostRecordId: string;

const api = async (path: string, init: RequestInit = {}) => {
  const answer = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' } });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
};
const upload = async (warnings: string[]) => {
  const text = reportAs(HOST_ID, HOSTNAME, 62, warnings);
  const answer = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: text, licensekey: lynisCapture.key, hostid: HOST_ID }),
  });
  expect(answer.status).toBe(200);
};
const hostFindings = async () => ((await api(`/api/admin/hosts/${hostRecordId}/findings`)).body.items ?? []) as Tracked[];
const stateOf = async (testId: string) => (await hostFindings()).find((finding) => finding.testId === testId)?.state;

beforeAll(async () => {
  data = await makeDataDir();
  const orm = await openDatabase(data.dataDir);
  await importKey(orm, lynisCapture.key);
  ({ token: adminToken } = await createAdminToken(orm, { label: 'findings test' }));
  await orm.close();
  // An operator, not an admin: the people to pick from come from listPeople, which operators may read.
  const added = await runCli(['users', 'add', '--email', EMAIL, '--role', 'operator', '--name', 'Ada Lovelace', '--password-stdin'], data.dataDir, PASSWORD);
  expect(added.code, added.stderr).toBe(0);
  server = await startServerProcess(data.dataDir, ['--plain-http', '--finding-approval', 'distinct']);
  // The second person, who approves an accepted risk.
  const grace = await api('/api/admin/users', { method: 'POST', body: JSON.stringify({ email: APPROVER, displayName: 'Grace Hopper', role: 'operator' }) });
  expect(grace.status, JSON.stringify(grace.body)).toBe(201);
  const bob = await api('/api/admin/users', { method: 'POST', body: JSON.stringify({ email: DISABLED, displayName: 'Bob', role: 'operator' }) });
  expect((await api(`/api/admin/users/${String(bob.body.id)}`, { method: 'PATCH', body: JSON.stringify({ disabled: true }) })).status).toBe(200);

  // Three reports: every warning, then BACK and GONE resolved, then BACK seen again (regressed).
  await upload([HOSTILE, BACK, GONE]);
  hostRecordId = ((await api(`/api/admin/hosts?hostname=web-`)).body.items as { id: string }[])[0]!.id;
  await until(async () => (await stateOf('GONE-0001')) === 'open', 'the first report tracked', 15_000);
  await upload([HOSTILE]);
  await until(async () => (await stateOf('GONE-0001')) === 'resolved', 'the second report tracked', 15_000);
  await upload([HOSTILE, BACK]);
  await until(async () => (await stateOf('BACK-0001')) === 'regressed', 'the third report tracked', 15_000);
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await data?.remove();
});

it('acknowledges and accepts findings on the host page, shows every state in words, and lists My findings', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  const dashboardUrl = `${server.url.replace('127.0.0.1', 'localhost')}/dashboard/`;
  await page.goto(dashboardUrl);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();

  await page.goto(`${dashboardUrl}#/hosts/${hostRecordId}`);
  const findings = page.getByRole('region', { name: 'Findings' });
  const row = (testId: string) =>
    findings.locator('table.tracked-findings > tbody > tr').filter({ has: page.getByRole('link', { name: testId, exact: true }) });
  await row('HOST-0001').waitFor();
  // The host's text is text: the markup shows as written, and no image was made of it.
  await expect.poll(() => row('HOST-0001').getByRole('cell').nth(2).innerText()).toBe('Telnet enabled <img src=x onerror=alert(1)>');
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(HOSTNAME);
  await expect.poll(() => row('BACK-0001').locator('.badge').innerText()).toBe('Regressed');

  // Acknowledge: owned by the person signed in (no owner chosen), due on a day. The owner is picked from the
  // enabled people, not typed as an id.
  await row('HOST-0001').getByRole('button', { name: 'Acknowledge…' }).click();
  const acknowledge = findings.getByRole('group', { name: 'Acknowledge HOST-0001' });
  expect(await acknowledge.getByLabel('Owner').locator('option').allInnerTexts()).toEqual(['Me', `Ada Lovelace (${EMAIL})`, `Grace Hopper (${APPROVER})`]);
  await acknowledge.getByLabel('Due on (optional)').fill('2027-01-15');
  await acknowledge.getByRole('button', { name: 'Acknowledge', exact: true }).click();
  await expect.poll(() => row('HOST-0001').locator('.badge').innerText()).toBe('Acknowledged');
  expect(await row('HOST-0001').locator('td.finding-owner').innerText()).toMatch(/^ada@example\.org\s+due 2027-01-15/);

  // Accept a suggestion's risk: the person asking as approver is refused in the server's words, another person is not.
  const suggestion = (await hostFindings()).find((finding) => finding.kind === 'suggestion' && finding.state === 'open')!;
  await row(suggestion.testId).getByRole('button', { name: 'Accept risk…' }).click();
  const accept = findings.getByRole('group', { name: `Accept the risk of ${suggestion.testId}` });
  await accept.getByLabel('Reason').fill('Kept until the migration (SEC-88)');
  await accept.getByLabel('Accepted until').fill('2027-03-31');
  const approver = accept.getByLabel('Approved by');
  expect(await approver.evaluate((field) => field.tagName)).toBe('SELECT');
  expect(await approver.locator('option').allInnerTexts()).toEqual(['Choose a person', `Ada Lovelace (${EMAIL})`, `Grace Hopper (${APPROVER})`]);
  await approver.selectOption({ label: `Ada Lovelace (${EMAIL})` });
  await accept.getByRole('button', { name: 'Accept risk' }).click();
  const refusal = accept.getByRole('alert');
  await refusal.waitFor();
  expect(await refusal.innerText()).toContain('The approver must be another person than the one asking');
  expect(await row(suggestion.testId).locator('.badge').innerText()).toBe('Open');
  await approver.selectOption({ label: `Grace Hopper (${APPROVER})` });
  await accept.screenshot({ path: `${ARTIFACTS}/accept-risk-approver.png` });
  await accept.getByRole('button', { name: 'Accept risk' }).click();
  await expect.poll(() => row(suggestion.testId).locator('.badge').innerText()).toBe('Accepted');
  const terms = await row(suggestion.testId).locator('dl.acceptance').innerText();
  expect(terms).toMatch(/Reason\s+Kept until the migration \(SEC-88\)\s+Approved by\s+grace@example\.org\s+Until\s+2027-03-31/);

  // Resolved findings are listed apart, folded; every state's badge says its state in words.
  const resolved = findings.locator('details.resolved-findings');
  expect(await resolved.locator('summary').innerText()).toBe('Resolved (1)');
  await resolved.locator('summary').click();
  await expect.poll(() => resolved.locator('tbody tr').filter({ hasText: 'GONE-0001' }).locator('.badge').innerText()).toBe('Resolved');
  const badges = new Set(await findings.locator('.badge').allInnerTexts());
  expect([...badges].sort()).toEqual(['Accepted', 'Acknowledged', 'Open', 'Regressed', 'Resolved']);
  await findings.screenshot({ path: `${ARTIFACTS}/host-findings-states.png` });

  // My findings, from the Findings page: the acknowledged one, linking to its host; the filter is in the URL.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Findings', exact: true }).click();
  await page.getByRole('heading', { name: 'Findings', exact: true }).waitFor();
  await page.getByRole('navigation', { name: 'Findings views' }).getByRole('link', { name: 'My findings' }).click();
  const mine = page.locator('table.tracked-findings > tbody > tr');
  await expect.poll(() => mine.count()).toBe(1);
  expect(page.url()).toContain('#/findings?view=tracked&owner=me');
  expect(await mine.locator('.badge').innerText()).toBe('Acknowledged');
  expect(await mine.getByRole('link', { name: HOSTNAME }).getAttribute('href')).toBe(`#/hosts/${hostRecordId}`);
  // Every tracked finding, then only the regressed ones by the State filter.
  await page.getByRole('link', { name: "Each host's, with state and owner" }).click();
  await expect.poll(() => mine.count()).toBeGreaterThan(3);
  // The box follows the URL, which the click changes a moment later: clicked, then the list and the box waited for
  // (Playwright's check() looks at the box at once, and can see it before the URL has moved).
  const regressed = page.getByRole('checkbox', { name: 'Regressed' });
  await regressed.click();
  await expect.poll(() => mine.count()).toBe(1);
  await expect.poll(() => regressed.isChecked()).toBe(true);
  expect(page.url()).toContain('state=regressed');
  await regressed.click();
  await expect.poll(() => mine.count()).toBeGreaterThan(3);
  await expect.poll(() => regressed.isChecked()).toBe(false);
  await page.screenshot({ path: `${ARTIFACTS}/findings-tracked.png` });

  // The header stays on one line at 1280 px: every page link of the navigation at the same height.
  const tops = await page
    .getByRole('navigation', { name: 'Pages' })
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getBoundingClientRect().top));
  expect(new Set(tops).size).toBe(1);
  expect(errors).toEqual([]);
  await context.close();
});

it('answers the tracked findings as the dashboard and audit-client read them', async () => {
  // Every field of the contract's TrackedFinding, and a comma-separated state filter.
  const [finding] = await hostFindings();
  expect(Object.keys(finding!).sort()).toEqual(
    [
      'id',
      'hostRecordId',
      'hostname',
      'kind',
      'testId',
      'text',
      'state',
      'stateSince',
      'ownerUserId',
      'ownerEmail',
      'dueAt',
      'acceptance',
      'firstSeen',
      'lastSeen',
      'resolvedAt',
      'regressions',
    ].sort(),
  );
  const both = await api('/api/admin/findings/tracked?state=regressed,acknowledged');
  expect((both.body.items as Tracked[]).map((item) => item.testId).sort()).toEqual(['BACK-0001', 'HOST-0001']);
  // A token owns no finding: `owner=me` is refused.
  expect((await api('/api/admin/findings/tracked?owner=me')).status).toBe(400);
});
