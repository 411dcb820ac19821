import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseServerConfig } from './config.js';
import { createLogger } from './ops/logger.js';
import { startServer, type RunningServer } from './server.js';

let dataDir: string;
let server: RunningServer;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'audit-timeouts-test-'));
  const config = parseServerConfig({
    dataDir,
    host: '127.0.0.1',
    port: '0',
    plainHttp: true,
    opsPort: 'off',
    headersTimeoutMs: '1000',
    requestTimeoutMs: '2000',
  });
  server = await startServer(config, createLogger('silent'));
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Sends `start` and then nothing more, and resolves with what the server sent before it closed the connection. */
function stallAfter(start: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(start));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.setTimeout(15_000, () => reject(new Error('the server kept a stalled connection open')));
  });
}

it('answers 408 and closes the connection of a client that never finishes its headers', async () => {
  expect(await stallAfter('POST /api/audit/upload/ HTTP/1.1\r\nHost: 127.0.0.1\r\n')).toMatch(/^HTTP\/1\.1 408 /);
});

it('answers 408 and closes the connection of a client that never finishes its body', async () => {
  const headers = 'POST /api/audit/upload/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n';
  expect(await stallAfter(`${headers}licensekey=abc`)).toMatch(/^HTTP\/1\.1 408 /);
});
