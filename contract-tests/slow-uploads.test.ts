// Slow senders cannot block the intake: with the reference server's defaults, hundreds of uploads trickling in at
// 1 byte a second with an invalid key (as an attacker mimicking Lynis would send them: `data` first, so the key
// cannot be checked before the report) do not delay a real upload from another address.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lynisCapture, withKey } from '@org/test-support/lynis-fixtures';
import { exchangeRaw, sendRaw, type OpenRequest } from '@org/test-support/raw-https';
import { storedReports } from './support/reports.js';
import { makeDataDir, seedKeys, startServerProcess, type ServerProcess } from './support/server-process.js';

const INVALID_KEY = 'deadbeef-0000-0000-0000-00000000bad0'; // same length as the captured key: Content-Length stays right
const slowRequest = withKey(lynisCapture.uploadRequest, INVALID_KEY);
const bodyStart = slowRequest.indexOf('\r\n\r\n') + 4;

let dataDir: string;
let removeDataDir: () => Promise<void>;
const slow: OpenRequest[] = [];
let trickle: NodeJS.Timeout | undefined;

beforeAll(async () => {
  ({ dataDir, remove: removeDataDir } = await makeDataDir());
  await seedKeys(dataDir, { valid: [lynisCapture.key] });
});
afterEach(() => {
  clearInterval(trickle);
  for (const request of slow.splice(0)) request.socket.destroy();
});
afterAll(async () => {
  await removeDataDir?.();
});

/** Opens `count` uploads from `address`, sends their head and first body byte, then one more byte a second. */
async function startSlowUploads(server: ServerProcess, count: number, address: string): Promise<{ opened: number; refusedAtOnce: () => Promise<number> }> {
  let opened = 0;
  for (let i = 0; i < count; i++) {
    try {
      slow.push(await sendRaw(server.port, slowRequest.subarray(0, bodyStart + 1), { localAddress: address }));
      opened++;
    } catch {
      // the server may close connections over its per-address cap before TLS: that is a refusal too
    }
  }
  let sent = bodyStart + 1;
  trickle = setInterval(() => {
    for (const request of slow) if (!request.socket.destroyed) request.socket.write(slowRequest.subarray(sent, sent + 1));
    sent++;
  }, 1000);
  // Requests refused before their body is read are answered at once and closed; the others are still open.
  const refusedAtOnce = async () => {
    const answers = await Promise.all(
      slow.map((request) =>
        Promise.race([
          request.response.then(
            (response) => response.status,
            () => 'closed' as const,
          ),
          new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 500)),
        ]),
      ),
    );
    return answers.filter((answer) => answer !== 'open').length;
  };
  return { opened, refusedAtOnce };
}

/** A real Lynis upload from another address; resolves with its status and how long it took. */
async function realUpload(server: ServerProcess): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await exchangeRaw(server.port, lynisCapture.uploadRequest, { localAddress: '127.0.0.3' });
  return { status: response.status, ms: performance.now() - started };
}

describe('with the default limits', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(dataDir, ['--tool-segment', 'lynis']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([64, 500])('%i slow invalid-key uploads from one address do not delay a real upload from another', async (count) => {
    const before = (await storedReports(dataDir)).length;
    const attack = await startSlowUploads(server, count, '127.0.0.2');
    const refused = await attack.refusedAtOnce();
    // At most the per-address cap of bodies (32) is held; the rest was refused at once (or, past the cap of
    // connections per address, closed before TLS).
    expect(attack.opened - refused).toBeLessThanOrEqual(32);
    const upload = await realUpload(server);
    expect(upload.status).toBe(200);
    expect(upload.ms).toBeLessThan(2000); // not held up behind the slow senders (before: 503 for two minutes)
    expect((await storedReports(dataDir)).length).toBe(before + 1);
  });
});

describe('with the per-address caps out of the way', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(dataDir, [
      '--tool-segment',
      'lynis',
      '--max-bodies-per-address',
      '1000',
      '--max-connections-per-address',
      '1000',
      '--body-grace-ms',
      '3000',
    ]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('500 slow uploads hold no upload capacity, and are cut off by the minimum rate with 408', async () => {
    const attack = await startSlowUploads(server, 500, '127.0.0.2');
    expect(attack.opened).toBe(500);
    // Counted by the bytes they sent, the slow bodies take almost nothing of the memory budget.
    const upload = await realUpload(server);
    expect(upload).toMatchObject({ status: 200 });
    expect(upload.ms).toBeLessThan(2000);
    // After the grace period every slow body falls below 500 bytes a second: 408, connection closed.
    const statuses = await Promise.all(
      slow.map((request) =>
        request.response.then(
          (response) => response.status,
          () => 'closed',
        ),
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([408]));
    await Promise.all(slow.map((request) => request.closed));
  }, 30_000);
});
