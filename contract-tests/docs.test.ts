// The published API docs (`npm run docs`), opened in a real browser: headless Chromium from Debian.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from './support/dashboard.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = `${ROOT}build/docs/index.html`;
const ARTIFACTS = `${ROOT}test-artifacts`;

let server: Server;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  const build = spawnSync('npm', ['run', 'docs'], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  const html = await readFile(DOCS);
  server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

it('shows both operations and the exact license texts, with no script or style from elsewhere', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const outsideCode: string[] = [];
  page.on('request', (request) => {
    // The "API docs by" badge links an image on Redocly's CDN; offline it just does not show. Code must be local.
    const isCode = ['script', 'stylesheet', 'fetch', 'xhr', 'font'].includes(request.resourceType());
    if (isCode && !request.url().startsWith(baseUrl) && !request.url().startsWith('blob:')) outsideCode.push(request.url());
  });
  await page.goto(baseUrl);
  await page.getByText('+ Show').first().click(); // expands the operations of the `audit` tag

  for (const visibleText of ['Check a license key', 'Upload an audit report', 'Response 100', 'Response 500']) {
    await expect.poll(() => page.getByText(visibleText, { exact: true }).first().isVisible(), { message: visibleText }).toBe(true);
  }
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}/api-docs.png`, fullPage: true });
  expect(outsideCode).toEqual([]);
}, 60_000);
