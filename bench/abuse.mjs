// `npm run bench -- --abuse`: what anonymous clients can make the reference server hold, with its default limits.
// Memory: peak RSS (the kernel's VmHWM) while 100 uploads of 15 MB, 300 license checks of 15 MB and 300 POSTs of
// 15 MB to an unknown path arrive at once, each from its own loopback address, and RSS 10 s after each burst.
// Slow senders: the time a real upload takes while 64 and then 500 uploads trickle in at 1 byte a second with an
// invalid key from one address. Prints the figures and the targets; exits 1 when a server errs, never on a figure.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticReport, uploadBody } from './reports.mjs';
import { createReferenceKey, startReference, unknownKey } from './servers.mjs';

const MiB = 1024 * 1024;
const BODY_BYTES = 15_000_000;
const SETTLE_MS = 10_000;
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const counts = smoke ? { uploads: 10, license: 30, unknown: 30, slow: [64] } : { uploads: 100, license: 300, unknown: 300, slow: [64, 500] };
const log = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes) => Math.round(bytes / MiB);

/** The `n`th client address of a burst: 127.0.1.0 and up, one per request, as a fleet's hosts would be. */
const clientAddress = (n) => `127.0.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;

/**
 * Sends one POST of `body` to `path` from `localAddress` over plain HTTP and resolves with the status answered,
 * or `closed` if the server closed the connection without one (it may stop a refused body that way).
 */
function post(port, path, body, localAddress) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let answer = '';
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(body); // the same buffer for every request: the client holds one copy
    });
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 'closed'));
  });
}

/** Sends `count` requests at once, each from its own address, and reports statuses, peak and settled RSS. */
async function burst(server, name, count, path, body, idle) {
  await sleep(1000);
  server.resetPeakRss();
  const started = performance.now();
  const statuses = {};
  await Promise.all(
    Array.from({ length: count }, (_, n) =>
      post(server.port, path, body, clientAddress(n)).then((status) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const peak = server.peakRss();
  server.assertAlive();
  await sleep(SETTLE_MS);
  const after = server.rss();
  log(
    `${name}: ${count} at once in ${seconds.toFixed(1)} s, answers ${JSON.stringify(statuses)}; RSS peak ${mib(peak)} MiB, ${SETTLE_MS / 1000} s after ${mib(after)} MiB (idle before the first burst ${mib(idle)} MiB)`,
  );
  return { name, count, statuses, seconds: Math.round(seconds * 10) / 10, idleMiB: mib(idle), peakMiB: mib(peak), afterMiB: mib(after) };
}

/** Opens `count` uploads from one address sending 1 byte a second, times a real upload from another, then closes them. */
async function slowSenders(server, count, realBody, slowBody) {
  const head = `POST /api/audit/upload/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${slowBody.length}\r\n\r\n`;
  const sockets = [];
  for (let i = 0; i < count; i++) {
    const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: '127.0.0.2' });
    socket.on('error', () => {});
    socket.write(head);
    sockets.push(socket);
  }
  let sent = 0;
  const trickle = setInterval(() => {
    for (const socket of sockets) if (!socket.destroyed) socket.write(slowBody.subarray(sent, sent + 1));
    sent++;
  }, 1000);
  await sleep(2000);
  const times = [];
  const statuses = {};
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const status = await post(server.port, '/api/audit/upload/', realBody, '127.0.0.3');
    times.push(performance.now() - started);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  const open = sockets.filter((socket) => !socket.destroyed).length;
  clearInterval(trickle);
  for (const socket of sockets) socket.destroy();
  const worstMs = Math.round(Math.max(...times));
  log(
    `${count} slow invalid-key uploads from one address (${open} still open after 2 s): 5 real uploads from another answered ${JSON.stringify(statuses)}, slowest in ${worstMs} ms`,
  );
  server.assertAlive();
  return { count, stillOpen: open, realUploads: statuses, worstMs };
}

const workDir = mkdtempSync(join(tmpdir(), 'audit-abuse-'));
const dataDir = join(workDir, 'reference');
const key = createReferenceKey(dataDir);
const server = await startReference(dataDir, key, { defaults: true });
log(`abuse scenarios against the reference server with its default limits${smoke ? ' (smoke run: fewer requests)' : ''}`);

// Bodies of 15 MB: a report that encodes (as Lynis sends it) to just under 15 MB, and 15 MB of form bytes.
let report = syntheticReport(12 * MiB);
report = syntheticReport(Math.floor(12 * MiB * (BODY_BYTES / uploadBody(report, key).length)));
const bigUpload = uploadBody(report, key);
const filler = Buffer.alloc(BODY_BYTES, 'a');
const realBody = uploadBody(syntheticReport(42 * 1024), key);
const slowBody = uploadBody(syntheticReport(42 * 1024), unknownKey());
log(`upload body ${(bigUpload.length / 1e6).toFixed(1)} MB (report ${(report.length / 1e6).toFixed(1)} MB); other bodies ${BODY_BYTES / 1e6} MB`);

await sleep(1000);
const idle = server.rss();
const bursts = [
  await burst(server, 'uploads of 15 MB', counts.uploads, '/api/audit/upload/', bigUpload, idle),
  await burst(server, 'license checks of 15 MB', counts.license, '/api/audit/license/', filler, idle),
  await burst(server, 'POSTs of 15 MB to an unknown path', counts.unknown, '/api/audit/nonexistent', filler, idle),
];
const slow = [];
for (const count of counts.slow) slow.push(await slowSenders(server, count, realBody, slowBody));
await server.stop();
rmSync(workDir, { recursive: true, force: true });

log();
log('targets:');
let failed = false;
for (const b of bursts) {
  log(`  ${b.peakMiB < 1024 ? 'met   ' : 'MISSED'}  ${b.name}, ${b.count} at once: peak RSS < 1024 MiB: ${b.peakMiB} MiB`);
  log(
    `  ${b.afterMiB <= b.idleMiB + 256 ? 'met   ' : 'MISSED'}  ${b.name}: RSS within 256 MiB of idle ${SETTLE_MS / 1000} s after: ${b.afterMiB} MiB (idle ${b.idleMiB})`,
  );
  if (b.statuses['500']) failed = true;
}
for (const s of slow) {
  log(
    `  ${s.realUploads['200'] === 5 ? 'met   ' : 'MISSED'}  real uploads stored beside ${s.count} slow senders: ${JSON.stringify(s.realUploads)}, slowest ${s.worstMs} ms`,
  );
}
if (failed) {
  log('FAILED: a server error (500) during a burst');
  process.exit(1);
}
