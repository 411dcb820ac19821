// Driving the dashboard in Debian's Chromium (never a downloaded browser), shared by the dashboard's browser tests.
import { chromium, type Browser, type Page } from 'playwright-core';

/** Headless Chromium, offline: no background requests of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Opens the dashboard at `dashboardUrl` and signs in with `token`; it opens on the overview. */
export async function signIn(page: Page, dashboardUrl: string, token: string): Promise<void> {
  await page.goto(dashboardUrl);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
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
