// What the browser tests share: Debian's Chromium, signing in to the dashboard and moving through it, and the
// captured Lynis report made into another host's.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { OrmReportStore } from '@org/audit-server';
import { redactLicenseKeys, readReportBytes } from '@org/audit-server-core';
import { lynisCapture } from '@org/test-support/lynis-fixtures';

const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless, with none of its calls home: the tests never download a browser. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error('Chromium is not installed: run `apt-get install -y chromium` (.ci/run does).');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Signs in to the dashboard at `dashboardUrl` with an admin token; it opens on the overview. */
export async function signIn(page: Page, dashboardUrl: string, token: string): Promise<void> {
  await page.goto(dashboardUrl);
  await signInWithToken(page, token);
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
}

/** Fills in the sign-in page's token form (behind "Use an admin token instead" unless open already) and sends it. */
export async function signInWithToken(page: Page, token: string): Promise<void> {
  const field = page.getByLabel('Admin token');
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor(); // the sign-in page is up
  if (!(await field.isVisible())) await page.getByText('Use an admin token instead').click();
  await field.fill(token);
  await page.getByRole('button', { name: 'Sign in with token' }).click();
}

/** Follows the navigation's link `name` and waits for the page's heading `heading` (the same by default). */
export async function openFromNav(page: Page, name: string, heading = name): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/** Whether nothing of the page runs off a window `width` wide. */
export async function fitsWidth(page: Page, width: number): Promise<boolean> {
  // Charts follow their box's width a frame after it changed.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return (await page.evaluate(() => document.documentElement.scrollWidth)) <= width;
}

/** Lines of the Lynis profile a report carries (`system-groups=`, `tags=`, …), or report values to replace. */
export type ReportLines = Record<string, string>;

/** The captured report with another host id, host name, hardening index, extra warning lines, other values and lines. */
export function reportAs(
  hostId: string,
  hostname: string,
  hardeningIndex: number,
  extraWarnings: string[] = [],
  lines: ReportLines = {},
  rawLines: string[] = [],
): string {
  let text = lynisCapture.report
    .toString('utf8')
    .replace(/^hostname=.*$/m, `hostname=${hostname}`)
    .replace(/^hardening_index=.*$/m, `hardening_index=${hardeningIndex}`)
    .replace(/^hostid=.*$/m, `hostid=${hostId}`);
  for (const [key, value] of Object.entries(lines)) {
    const line = new RegExp(`^${key}=.*$`, 'm'); // keys are letters, '-' and '_' only
    text = line.test(text) ? text.replace(line, () => `${key}=${value}`) : `${text}${key}=${value}\n`;
  }
  return text.concat(extraWarnings.map((warning) => `warning[]=${warning}\n`).join(''), rawLines.map((line) => `${line}\n`).join(''));
}

/**
 * Stores a report as the server would have on receiving it at `receivedAt`, straight into its database (before the
 * server starts): no upload, so no quota of new hosts a day, and any time in the past.
 */
export async function storeReport(
  orm: ConstructorParameters<typeof OrmReportStore>[0],
  keyId: string,
  hostId: string,
  text: string,
  receivedAt = new Date(),
): Promise<void> {
  const bytes = Buffer.from(text);
  const read = readReportBytes(bytes)!;
  await new OrmReportStore(orm).save({
    keyId,
    hostId,
    receivedAt,
    encoding: 'raw',
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    content: redactLicenseKeys(bytes),
    summary: read.summary,
    labels: read.labels,
  });
}
