// Starts the Hono example on @hono/node-server and replays the requests captured from Lynis.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryKeyStore, InMemoryReportStore, type RequestRejectedEvent } from '@org/audit-server-core';
import { lynisCapture, redactedReport, withKey } from '@org/test-support/lynis-fixtures';
import { exchangeRaw } from '@org/test-support/raw-https';
import { createCollectorApp } from './app.js';

const keyStore = new InMemoryKeyStore();
const keyId = keyStore.add(lynisCapture.key);
const reportStore = new InMemoryReportStore();
const rejected: RequestRejectedEvent[] = [];
let server: ServerType;
let port: number;
const replay = (request: Buffer) => exchangeRaw(port, request, { tls: false });

beforeAll(async () => {
  const app = await createCollectorApp({ keyStore, reportStore, toolSegment: 'lynis', hooks: { onRequestRejected: (event) => void rejected.push(event) } });
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server?.close(resolve)));

describe('example: Hono with the fetch handler', () => {
  it('answers the captured license check with exactly "Response 100"', async () => {
    const response = await replay(lynisCapture.licenseRequest);
    expect([response.status, response.headers['content-type'], response.body.toString()]).toEqual([200, 'text/plain; charset=utf-8', 'Response 100']);
  });

  it('stores the captured upload with the key redacted', async () => {
    const response = await replay(lynisCapture.uploadRequest);
    expect(response.status).toBe(200);
    const stored = reportStore.reports.get(response.body.toString().slice('OK '.length))!;
    expect(stored).toMatchObject({ keyId, hostId: lynisCapture.hostId, size: lynisCapture.report.length });
    expect(stored.content.toString('latin1')).toBe(redactedReport);
  });

  it('refuses the captured upload with an altered key, naming the client address', async () => {
    const response = await replay(withKey(lynisCapture.uploadRequest, 'deadbeef-0000-0000-0000-000000000002'));
    expect([response.status, response.body.toString()]).toEqual([401, 'Invalid license key']);
    expect(rejected).toEqual([expect.objectContaining({ reason: 'invalid-key', hostId: lynisCapture.hostId, remoteAddress: '127.0.0.1' })]);
  });

  it('leaves other paths to Hono', async () => {
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('Collector');
    expect((await fetch(`http://127.0.0.1:${port}/api/other`)).status).toBe(404);
  });
});
