// What a listener accepts before any request: TLS versions and suites, the time a TLS handshake may take, and the
// number of connections one client address may hold open.
import { mkdtemp, rm } from 'node:fs/promises';
import { connect as connectTcp, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTls, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseServerConfig } from './config.js';
import { createLogger } from './ops/logger.js';
import { startServer, type RunningServer } from './server.js';

let dataDir: string;
let server: RunningServer;
const sockets: Socket[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'audit-connections-test-'));
  const config = parseServerConfig({ dataDir, host: '127.0.0.1', port: '0', opsPort: 'off', tlsHandshakeTimeoutMs: '500', maxConnectionsPerAddress: '5' });
  server = await startServer(config, createLogger('silent'));
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Completes a TLS handshake with the server (trusting any certificate), or rejects with the reason it failed. */
function handshake(options: ConnectionOptions & { localAddress?: string } = {}): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ host: '127.0.0.1', port: server.port, rejectUnauthorized: false, ...options }, () => resolve(socket));
    sockets.push(socket);
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('closed before the handshake finished')));
    socket.setTimeout(5000, () => reject(new Error('no handshake within 5 s')));
  });
}

describe('TLS policy', () => {
  it('takes TLS 1.2 only with AEAD suites with forward secrecy', async () => {
    const gcm = await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' });
    expect([gcm.getProtocol(), gcm.getCipher().standardName]).toEqual(['TLSv1.2', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256']);
    const chacha = await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-CHACHA20-POLY1305' });
    expect(chacha.getProtocol()).toBe('TLSv1.2');
    for (const ciphers of ['ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA', 'ECDHE-ECDSA-AES128-SHA256', 'ECDHE-ECDSA-AES256-SHA384']) {
      await expect(handshake({ maxVersion: 'TLSv1.2', ciphers }), ciphers).rejects.toThrow(/handshake failure/);
    }
  });

  it('refuses TLS 1.1, and takes TLS 1.3 with its default suites', async () => {
    // The client must be allowed to offer TLS 1.1 at all (security level 0), so that the refusal is the server's.
    await expect(handshake({ minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' })).rejects.toThrow(/protocol version/);
    const modern = await handshake();
    expect(modern.getProtocol()).toBe('TLSv1.3');
    expect(modern.getCipher().standardName).toBe('TLS_AES_256_GCM_SHA384');
  });
});

it('closes a connection that does not finish its TLS handshake within the handshake timeout', async () => {
  const started = Date.now();
  const closedAfter = await new Promise<number>((resolve, reject) => {
    const socket = connectTcp(server.port, '127.0.0.1'); // connects, then never says anything
    sockets.push(socket);
    socket.on('error', () => {});
    socket.once('close', () => resolve(Date.now() - started));
    socket.setTimeout(10_000, () => reject(new Error('the server kept a silent connection open for 10 s')));
  });
  expect(closedAfter).toBeGreaterThanOrEqual(400);
  expect(closedAfter).toBeLessThan(3000);
});

describe('connections per client address', () => {
  /** Whether the server lets a connection from `localAddress` through its TLS handshake and answers a request on it. */
  async function served(localAddress: string): Promise<boolean> {
    try {
      const socket = await handshake({ localAddress });
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      const [answer] = await new Promise<string[]>((resolve) => socket.once('data', (chunk) => resolve([String(chunk)])));
      return answer!.startsWith('HTTP/1.1 404');
    } catch {
      return false;
    }
  }

  it('closes connections over the cap at once, for that address only, until some are closed', async () => {
    const held: TLSSocket[] = [];
    for (let i = 0; i < 5; i++) held.push(await handshake({ localAddress: '127.0.0.2' }));
    const started = Date.now();
    await expect(handshake({ localAddress: '127.0.0.2' })).rejects.toThrow(/disconnected|ECONNRESET|closed/);
    expect(Date.now() - started).toBeLessThan(400); // at once, not after the handshake timeout
    expect(await served('127.0.0.3')).toBe(true);

    held.splice(0, 2).forEach((socket) => socket.destroy());
    // The server sees the close a moment later: try for up to 2 s.
    let accepted = false;
    for (const until = Date.now() + 2000; !accepted && Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
      accepted = await served('127.0.0.2');
    }
    expect(accepted).toBe(true);
    // 4 held (3 old, 1 new): one more fits, then the cap is reached again.
    held.push(await handshake({ localAddress: '127.0.0.2' }));
    await expect(handshake({ localAddress: '127.0.0.2' })).rejects.toThrow();
  });
});
