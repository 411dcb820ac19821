// Webhooks are never lost: the server is killed with SIGKILL while the event of a stored report is on its way (the
// receiver has the request but has not answered), and the server started again on the same data delivers it, with
// the same id and a valid signature. The killed attempt held a claim on the delivery; the new server takes it over
// once the claim runs out (a minute), so this test takes that long.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { lynisFixturePath } from '@org/test-support/lynis-fixtures';
import { startStubServer, type StubServer } from '@org/test-support/stub-server';
import { makeDataDir, runCli, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';
import { until } from './support/until.js';

const KEY = 'deadbeef-0000-0000-0000-0000000c4a54';
const SERVER_ARGS = ['--plain-http', '--webhook-allow-private'];
const report = readFileSync(lynisFixturePath('report.dat'), 'utf8');

let dataDir: string;
let removeDataDir: () => Promise<void>;
let token: string;
let server: ServerProcess | undefined;
let receiver: StubServer;
beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  await seedKeys(dataDir, { valid: [KEY] });
  token = (await runCli(['admin-tokens', 'create', '--label', 'webhook crash'], dataDir)).stdout.trim();
  // The first delivery is never answered; every later one is.
  receiver = await startStubServer(() => (receiver.requests.length === 1 ? 'hang' : { status: 204, body: '' }));
});
afterAll(async () => {
  await server?.stop('SIGKILL');
  await receiver?.close();
  await removeDataDir?.();
});

async function admin<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${server!.adminUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  expect(response.ok, `${path} answered ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

it('delivers the event of a report stored before a SIGKILL once the server is started again', async () => {
  server = await startServerProcess(dataDir, SERVER_ARGS);
  const { webhook, secret } = await admin<{ webhook: { id: string }; secret: string }>('/api/admin/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['report.stored'] }),
  });
  const upload = await fetch(`${server.url}/api/audit/upload/`, {
    method: 'POST',
    body: new URLSearchParams({ data: report, licensekey: KEY, hostid: 'crash-host', hostid2: 'x' }),
  });
  expect(upload.status).toBe(200);

  await until(async () => receiver.requests.length === 1, 'the first attempt reaching the receiver', 15_000);
  expect(await server.stop('SIGKILL')).toBeNull();

  server = await startServerProcess(dataDir, SERVER_ARGS);
  await until(async () => receiver.requests.length >= 2, 'the event delivered by the restarted server', 90_000);
  const [killed, delivered] = receiver.requests;
  expect(delivered!.headers['webhook-id']).toBe(killed!.headers['webhook-id']);
  const event = new Webhook(secret).verify(delivered!.body.toString(), delivered!.headers as Record<string, string>) as {
    type: string;
    data: { hostId: string; reportId: string };
  };
  expect(event).toMatchObject({ type: 'report.stored', data: { hostId: 'crash-host' } });
  const reports = await admin<{ items: { id: string }[] }>('/api/admin/reports');
  expect(reports.items.map((item) => item.id)).toEqual([event.data.reportId]);

  // The log shows one attempt: the killed one left no outcome behind, only its claim, which ran out.
  await expect
    .poll(async () => (await admin<{ items: { status: string; attempts: number }[] }>(`/api/admin/webhooks/${webhook.id}/deliveries`)).items)
    .toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
}, 150_000);
