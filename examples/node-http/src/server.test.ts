// Starts the example on bare node:http and replays the requests captured from Lynis.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryKeyStore, InMemoryReportStore } from '@org/audit-server-core';
import { lynisCapture, redactedReport, withKey } from '@org/test-support/lynis-fixtures';
import { exchangeRaw } from '@org/test-support/raw-https';
import { createCollectorServer } from './server.js';

const keyStore = new InMemoryKeyStore();
const keyId = keyStore.add(lynisCapture.key);
const reportStore = new InMemoryReportStore();
let server: Server;
let port: number;
const replay = (request: Buffer) => exchangeRaw(port, request, { tls: false });

beforeAll(async () => {
  server = await createCollectorServer({ keyStore, reportStore, toolSegment: 'lynis' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server?.close(resolve)));

describe('example: bare node:http', () => {
  it('answers the captured license check with exactly "Response 100", and an altered key with "Response 500"', async () => {
    const valid = await replay(lynisCapture.licenseRequest);
    expect([valid.status, valid.body.toString()]).toEqual([200, 'Response 100']);
    const altered = await replay(withKey(lynisCapture.licenseRequest, 'deadbeef-0000-0000-0000-000000000002'));
    expect([altered.status, altered.body.toString()]).toEqual([401, 'Response 500']);
  });

  it('stores the captured upload with the key redacted', async () => {
    const response = await replay(lynisCapture.uploadRequest);
    expect(response.status).toBe(200);
    const stored = reportStore.reports.get(response.body.toString().slice('OK '.length))!;
    expect(stored).toMatchObject({ keyId, hostId: lynisCapture.hostId, hostId2: lynisCapture.hostId2, size: lynisCapture.report.length });
    expect(stored.content.toString('latin1')).toBe(redactedReport);
  });

  it('answers its own paths beside the API', async () => {
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).text()).toBe('ok');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });
});
