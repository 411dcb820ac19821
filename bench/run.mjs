// `npm run bench`: the reference server against a bare baseline, measured alternately in one run.
// `npm run bench -- --smoke` (or BENCH_SMOKE=1): the same steps, about a second each, so the script cannot rot;
// it fails on a server error or a wrong answer, never on speed. `--cpu-prof` profiles the reference server;
// `--only <text>` runs only the scenarios whose name contains the text (results are then not written);
// `--only ready` runs only the restart step: ready to answer after a restart on an existing data directory.
// `--abuse` runs the abuse scenarios instead (bench/abuse.mjs): memory under floods, slow senders.
// `--admin` times the admin API on a fleet-sized database instead (bench/admin-queries.mjs); `--fleet` does so at
// 100,000 hosts. `--postgres` runs the upload scenarios on PostgreSQL instead (bench/postgres.mjs); the full run
// ends with them when DATABASE_URL is set.
import { cpus, freemem, totalmem, tmpdir, release } from 'node:os';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sqlite3 from 'sqlite3';
import { throughputChart } from './chart.mjs';
import { compareAlternately, printComparisonTable } from './compare.mjs';
import { measure } from './load.mjs';
import { summariseProfile } from './profile-summary.mjs';
import { FLEET_HOSTS, checkEncodingAgainstCapture, fixtureReport, fleetUploadBodies, licenseBody, syntheticReport, uploadBody } from './reports.mjs';
import { compactionSettled, storageTargets } from './storage.mjs';
import { benchSettings, createReferenceKey, startBaseline, startCoreHttp, startReference, unknownKey } from './servers.mjs';

if (process.argv.includes('--admin')) {
  await import('./admin-queries.mjs'); // a run of its own: see bench/admin-queries.mjs
  process.exit(process.exitCode ?? 0);
}
if (process.argv.includes('--postgres')) {
  await import('./postgres.mjs'); // a run of its own: see bench/postgres.mjs
  process.exit(process.exitCode ?? 0);
}
if (process.argv.includes('--fleet')) {
  await import('./admin-queries.mjs'); // the admin queries at 100,000 hosts: see bench/admin-queries.mjs
  process.exit(process.exitCode ?? 0);
}
if (process.argv.includes('--abuse')) {
  await import('./abuse.mjs'); // a run of its own: see bench/abuse.mjs
  process.exit(process.exitCode ?? 0);
}

const KB = 1024;
const MB = 1024 * KB;
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const cpuProfile = process.argv.includes('--cpu-prof');
const settings = smoke
  ? { seconds: 1, rounds: 1, warmupSeconds: 0.5, bigUploads: { [8 * MB]: 32 }, settleMs: 1000, restarts: 1 }
  : { seconds: 4, rounds: 2, warmupSeconds: 2, bigUploads: { [2 * MB]: 96, [8 * MB]: 64 }, settleMs: 5000, restarts: 3 };
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex > 0 ? process.argv[onlyIndex + 1] : undefined;
const CONNECTIONS = [32, 128];
const SWEEP_SIZES = [10 * KB, 50 * KB, 150 * KB, 500 * KB, 2 * MB, 8 * MB];
const RESULTS = fileURLToPath(new URL('results/', import.meta.url));

const log = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes) => Math.round(bytes / MB);

checkEncodingAgainstCapture();
const workDir = mkdtempSync(join(tmpdir(), 'audit-bench-'));
const referenceDir = join(workDir, 'reference');
const profileDir = join(workDir, 'profile');
const key = createReferenceKey(referenceDir);
const nodeFlags = cpuProfile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
let reference = await startReference(referenceDir, key, { nodeFlags });
let baseline = await startBaseline(join(workDir, 'baseline'), key);
const coreHttp = await startCoreHttp(join(workDir, 'core-http'), key);
const servers = () => [reference, baseline];
const referenceDatabase = join(referenceDir, 'audit.sqlite');
/** How long the reference server's background compression took to catch up after each of its upload rounds (ms). */
const compactionWaits = [];
const uploadsAnswered200 = { reference: 0, baseline: 0 };
let failures = [];

log(`audit server benchmark${smoke ? ' (smoke run: short, numbers not meaningful)' : ''}`);
log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${mib(totalmem())} MiB, Node ${process.version}`);
log(`server: the reference server from the built CLI, plain HTTP, fresh data directory, log level info (JSON lines to a file);`);
log(`  for one license scenario, core's handlers on its node:http adapter with keys in memory`);
log(`baseline: node:http + URLSearchParams, keys as SHA-256 in a Map, SQLite WAL synchronous=FULL, one prepared INSERT per upload`);
const limits = benchSettings();
log(
  `limits changed for the bench: ${limits.length ? limits.map((l) => `${l.why} (${l.flag} ${l.value})`).join('; ') : 'none (this server build has no rate limits)'}`,
);
log(`load: autocannon in this process; servers measured alternately, ${settings.rounds} round(s) each`);
log();

const fixture = fixtureReport();
const report150 = syntheticReport(150 * KB);
const scenarios = [];
for (const connections of CONNECTIONS) {
  scenarios.push(
    { name: 'license check, valid key', path: 'license', body: licenseBody(key), expected: 200, connections },
    { name: "license check, valid key, core's node:http adapter", subject: 'core-http', path: 'license', body: licenseBody(key), expected: 200, connections },
    { name: 'license check, unknown key', path: 'license', body: licenseBody(unknownKey()), expected: 401, connections },
    { name: `upload, Lynis fixture (${Math.round(fixture.length / KB)} KB)`, path: 'upload', body: uploadBody(fixture, key), expected: 200, connections },
    { name: 'upload, 150 KB report', path: 'upload', body: uploadBody(report150, key), expected: 200, connections, bytes: 150 * KB },
    { name: 'upload, 150 KB report as base64', path: 'upload', body: uploadBody(Buffer.from(report150.toString('base64')), key), expected: 200, connections },
  );
}
// A fleet's uploads, each connection sending for one host after another: new hosts' rows are written, then kept ones.
scenarios.push({ name: `upload, Lynis fixture, ${FLEET_HOSTS} hosts`, path: 'upload', body: fleetUploadBodies(fixture, key), expected: 200, connections: 32 });
for (const bytes of SWEEP_SIZES.filter((size) => size !== 150 * KB)) {
  const name = `upload sweep, ${bytes >= MB ? `${bytes / MB} MB` : `${bytes / KB} KB`} report`;
  scenarios.push({
    name,
    path: 'upload',
    body: uploadBody(syntheticReport(bytes), key),
    expected: 200,
    connections: 32,
    bytes,
    amount: settings.bigUploads[bytes],
  });
}

/** Runs one scenario against the server under test (the reference server, or core on node:http) and the baseline. */
async function runScenario(scenario) {
  const subject = scenario.subject === 'core-http' ? coreHttp : reference;
  const result = await compareAlternately(
    scenario,
    { reference: subject, baseline },
    {
      rounds: settings.rounds,
      seconds: settings.seconds,
      failures,
      onRound: async (role, measured) => {
        if (scenario.path !== 'upload') return;
        uploadsAnswered200[role] += measured.statuses[200] ?? 0;
        // The reference server compresses the reports it stored in the background once uploads are quiet: that work
        // is let finish before the baseline's turn, so that it is paid in neither window (as after a nightly burst).
        if (role === 'reference' && subject === reference) compactionWaits.push(await compactionSettled(referenceDatabase));
      },
    },
  );
  return { ...result, server: subject.name };
}

// Warm-up: the JIT of both servers, not measured.
for (const server of servers()) {
  for (const [path, body] of [
    ['license', licenseBody(key)],
    ['upload', uploadBody(fixture, key)],
  ]) {
    const result = await measure({ url: `${server.url}/api/audit/${path}/`, body, connections: 32, seconds: settings.warmupSeconds, expectedStatus: 200 });
    if (path === 'upload') uploadsAnswered200[server.name] += result.statuses[200] ?? 0;
  }
}
await sleep(500);
const idleRss = { reference: mib(reference.rss()), baseline: mib(baseline.rss()) };

const results = [];
let afterBigUploads;
for (const scenario of scenarios.filter((s) => !only || s.name.includes(only))) {
  const result = await runScenario(scenario);
  results.push(result);
  log(
    `${result.name}, ${result.connections} connections: reference ${result.reference.requestsPerSecond}/s, baseline ${result.baseline.requestsPerSecond}/s (× ${result.ratio})`,
  );
  if (scenario.bytes === 8 * MB) {
    await sleep(settings.settleMs);
    afterBigUploads = { reference: mib(reference.rss()), baseline: mib(baseline.rss()), afterMs: settings.settleMs };
  }
}

/** Uploads store reports as received and the server compresses them in the background: stored bytes are measured once that is done. */
const compactionMs = results.some((result) => result.path === 'upload') ? await compactionSettled(referenceDatabase) : undefined;

const READY_NAME = 'ready after a restart';
if (only) {
  await coreHttp.stop();
  const readiness = READY_NAME.includes(only) ? await measureReadiness() : undefined;
  await Promise.all(servers().map((server) => server.stop()));
  log();
  if (results.length) printTable(results);
  if (afterBigUploads)
    log(
      `RSS ${settings.settleMs / 1000} s after the 8 MB uploads: ${afterBigUploads.reference} / ${afterBigUploads.baseline} MiB (idle ${idleRss.reference} / ${idleRss.baseline})`,
    );
  if (compactionMs !== undefined)
    log(
      `every stored report compressed (by the server, in the background) at most ${(Math.max(...compactionWaits) / 1000).toFixed(1)} s after an upload round ended`,
    );
  if (compactionMs !== undefined) for (const t of await storageTargets(referenceDatabase)) log(`${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.value}`);
  if (readiness) {
    log(readinessLine(readiness));
    const target = readinessTarget(readiness);
    log(`  ${target.met ? 'met   ' : 'MISSED'}  ${target.target}: ${target.value}`);
  }
  if (cpuProfile) printProfile();
  else rmSync(workDir, { recursive: true, force: true });
  process.exit(failures.length ? 1 : 0);
}

await coreHttp.stop();
const readiness = await measureReadiness();
await baseline.stop();

// Every 200 must be a stored report: count the rows.
const storedReports = {
  reference: await countReports(join(referenceDir, 'audit.sqlite')),
  baseline: await countReports(join(workDir, 'baseline', 'baseline.sqlite')),
};
for (const name of ['reference', 'baseline']) {
  if (storedReports[name] < uploadsAnswered200[name])
    failures.push(`${name}: ${uploadsAnswered200[name]} uploads answered 200 but only ${storedReports[name]} stored`);
}

const sweep = SWEEP_SIZES.map((bytes) => {
  const r = results.find((result) => result.bytes === bytes && result.connections === 32);
  return { bytes, reference: r.reference.requestsPerSecond, baseline: r.baseline.requestsPerSecond };
});
const targets = evaluateTargets(results);
const largest = results.find((r) => r.bytes === 8 * MB);
const memory = {
  idleMiB: idleRss,
  peakUnder32Uploads8MBMiB: { reference: largest.reference.peakRssMiB, baseline: largest.baseline.peakRssMiB },
  afterMiB: afterBigUploads,
};
targets.push({
  target: 'peak RSS, 32 concurrent 8 MB uploads < 1024 MiB',
  value: `${memory.peakUnder32Uploads8MBMiB.reference} MiB`,
  met: memory.peakUnder32Uploads8MBMiB.reference < 1024,
});
targets.push({
  target: `RSS back near idle ${settings.settleMs / 1000} s later (≤ idle + 128 MiB)`,
  value: `${afterBigUploads.reference} MiB (idle ${idleRss.reference} MiB)`,
  met: afterBigUploads.reference <= idleRss.reference + 128,
});
targets.push(...(await storageTargets(referenceDatabase)));
targets.push(readinessTarget(readiness));

log();
printTable(results);
log();
log(
  `peak RSS under 32 concurrent 8 MB uploads: reference ${memory.peakUnder32Uploads8MBMiB.reference} MiB, baseline ${memory.peakUnder32Uploads8MBMiB.baseline} MiB; idle before: ${idleRss.reference} / ${idleRss.baseline} MiB; ${settings.settleMs / 1000} s after: ${afterBigUploads.reference} / ${afterBigUploads.baseline} MiB`,
);
log(readinessLine(readiness));
log(
  `every stored report compressed (by the server, in the background) at most ${(Math.max(...compactionWaits) / 1000).toFixed(1)} s after an upload round ended`,
);
log(
  `uploads answered 200 / reports stored: reference ${uploadsAnswered200.reference} / ${storedReports.reference}, baseline ${uploadsAnswered200.baseline} / ${storedReports.baseline}`,
);
log();
log('targets:');
for (const t of targets) log(`  ${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.value}`);

const profile = cpuProfile ? printProfile() : undefined;

const output = {
  date: new Date().toISOString(),
  mode: smoke ? 'smoke' : 'full',
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryMiB: mib(totalmem()),
    freeMemoryMiB: mib(freemem()),
    node: process.version,
    kernel: release(),
  },
  settings: { ...settings, connections: CONNECTIONS, limitsChangedForBench: limits.map((l) => `${l.flag} ${l.value}: ${l.why}`) },
  scenarios: results,
  sweep,
  memory,
  compactionSettledMs: compactionWaits,
  readinessMs: readiness,
  uploads: { answered200: uploadsAnswered200, stored: storedReports },
  targets,
  ...(profile && { profile: { byPackage: profile.byPackage, byFunction: profile.byFunction } }),
};
// The smoke run's numbers mean nothing: they go beside the temporary data, never over the committed results.
const outDir = smoke ? join(tmpdir(), 'audit-bench-smoke') : RESULTS;
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, smoke ? 'smoke.json' : 'latest.json'), `${JSON.stringify(output, null, 2)}\n`);
writeFileSync(
  join(outDir, smoke ? 'smoke.svg' : 'throughput-vs-size.svg'),
  throughputChart(sweep, 'Uploads stored per second vs report size (32 connections)'),
);
log();
log(`written: ${join(outDir, smoke ? 'smoke.json' : 'latest.json')} and the chart beside it`);
if (!cpuProfile) rmSync(workDir, { recursive: true, force: true });

if (failures.length) {
  log();
  log('FAILED:');
  for (const failure of failures) log(`  ${failure}`);
  process.exit(1);
}

// The PostgreSQL scenarios end the full run (the smoke run leaves them to `--postgres --smoke`).
if (!smoke && !cpuProfile) {
  log();
  if (process.env.DATABASE_URL) await import('./postgres.mjs');
  else log('PostgreSQL scenarios skipped: set DATABASE_URL to run them (npm run bench -- --postgres runs them alone)');
}

/**
 * Ready to answer on an existing data directory: stops the reference server, starts it again on the same directory
 * and times its first answer; then the baseline alike, alternately. Leaves both running.
 */
async function measureReadiness() {
  const times = { reference: [], baseline: [] };
  for (let i = 0; i < settings.restarts; i++) {
    await reference.stop();
    let started = Date.now();
    reference = await startReference(referenceDir, key, { port: reference.port });
    times.reference.push(Date.now() - started);
    await baseline.stop();
    started = Date.now();
    baseline = await startBaseline(join(workDir, 'baseline'), key, { port: baseline.port });
    times.baseline.push(Date.now() - started);
  }
  await reference.stop();
  return times;
}

function readinessLine(times) {
  return `ready to answer after a restart on the existing data directory (ms): reference ${times.reference.join(', ')}; baseline ${times.baseline.join(', ')}`;
}

function readinessTarget(times) {
  const worst = Math.max(...times.reference);
  return { target: 'ready ≤ 500 ms after start, existing data directory', value: `${worst} ms (worst of ${times.reference.length})`, met: worst <= 500 };
}

function evaluateTargets(all) {
  const list = [];
  for (const r of all.filter((result) => result.name.startsWith('license check') && result.server !== 'core-http')) {
    list.push({ target: `${r.name} ≥ 0.4 × baseline (reference server, ${r.connections} connections)`, value: `× ${r.ratio}`, met: r.ratio >= 0.4 });
  }
  for (const r of all.filter((result) => result.server === 'core-http')) {
    list.push({
      target: `license check ≥ 0.7 × baseline (core's node:http adapter, ${r.connections} connections)`,
      value: `× ${r.ratio}`,
      met: r.ratio >= 0.7,
    });
  }
  for (const r of all.filter((result) => result.path === 'upload')) {
    list.push({
      target: `${r.name}, ${r.connections} connections: ≥ 0.9 × baseline, p99 ≤ 1.3 ×`,
      value: `× ${r.ratio}, p99 × ${r.p99Ratio}`,
      met: r.ratio >= 0.9 && r.p99Ratio <= 1.3,
    });
  }
  return list;
}

function printTable(all) {
  printComparisonTable(all, log);
}

function countReports(file) {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => {
      if (error) return reject(error);
      db.get('SELECT count(*) AS n FROM report', (queryError, row) => db.close(() => (queryError ? reject(queryError) : resolve(row.n))));
    });
  });
}

/** Prints where the reference server's first profiled run spent its time, and returns that summary. */
function printProfile() {
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  const summary = { ...summariseProfile(join(profileDir, file), 15), file: join(profileDir, file) };
  log();
  log(`CPU profile of the reference server (first run, ${summary.totalMs} ms sampled), self time by package:`);
  for (const { name, percent } of summary.byPackage) log(`  ${String(percent).padStart(5)}%  ${name}`);
  log('by function:');
  for (const { name, percent } of summary.byFunction) log(`  ${String(percent).padStart(5)}%  ${name}`);
  return summary;
}
