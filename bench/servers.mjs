// Starting, watching and stopping the two servers under test, each a child process of the bench.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'packages/server/bin/audit-server.js');
const BASELINE = join(ROOT, 'bench/baseline-server.mjs');
const CORE_HTTP = join(ROOT, 'bench/core-http-server.mjs');

/**
 * Settings that would measure the limiter instead of the server: 128 connections from one address, one key,
 * and an unknown key sent thousands of times a second. Passed as flags, so a renamed flag stops the bench.
 */
const BENCH_SETTINGS = [
  { flag: '--rate-limit-address', value: '0', why: 'per-address rate limit off' },
  { flag: '--rate-limit-key', value: '0', why: 'per-key rate limit off' },
  { flag: '--rate-limit-failures', value: '0', why: 'failed-key rate limit off' },
  { flag: '--max-bodies-per-address', value: '256', why: 'bodies per address raised to 256, above the 128 connections' },
  { flag: '--max-body-bytes-in-flight', value: String(512 * 2 ** 20), why: 'body budget raised to 512 MiB, above 32 bodies of 8 MB reports' },
];

/** The {@link BENCH_SETTINGS} the reference server is started with. */
export function benchSettings() {
  return BENCH_SETTINGS;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The reference server's environment: without `DATABASE_URL`, so it measures SQLite in its data directory as the baseline does. */
function referenceEnv() {
  const { DATABASE_URL: _database, ...env } = process.env;
  return env;
}

/** A port that was free a moment ago, for starting a server on a known port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** A server's environment: SQLite in its data directory, or PostgreSQL at `databaseUrl`. */
const databaseEnv = (databaseUrl) => ({ ...referenceEnv(), ...(databaseUrl && { DATABASE_URL: databaseUrl }) });

/** Creates a license key in a reference data directory (or PostgreSQL database) with the CLI, as an operator would. */
export function createReferenceKey(dataDir, { databaseUrl } = {}) {
  if (!existsSync(join(ROOT, 'packages/server/dist/cli.js'))) throw new Error('The server is not built: run `npm run build` first');
  const result = spawnSync(process.execPath, [CLI, 'keys', 'create', '--label', 'bench', '--data-dir', dataDir], {
    encoding: 'utf8',
    env: databaseEnv(databaseUrl),
  });
  if (result.status !== 0) throw new Error(`keys create failed: ${result.stderr}`);
  return result.stdout.trim();
}

/** A key that no server knows, shaped like a real one. */
export const unknownKey = () => randomBytes(24).toString('hex').match(/.{8}/g).join('-');

/** A running server process with what the bench needs to know about it. */
class ServerProcess {
  constructor(name, child, port, logFile) {
    this.name = name;
    this.child = child;
    this.port = port;
    this.logFile = logFile;
    this.exited = false;
    child.once('exit', (code, signal) => {
      this.exited = true;
      this.exitCode = code;
      this.exitSignal = signal;
    });
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Throws if the process is gone: a server that dies under load fails the bench. */
  assertAlive() {
    if (this.exited) throw new Error(`${this.name} server exited (code ${this.exitCode}, signal ${this.exitSignal}); see ${this.logFile}`);
  }

  /** Resident set size now, in bytes. */
  rss() {
    return procStatusBytes(this.child.pid, 'VmRSS');
  }

  /** Starts a new peak: the kernel's high-water mark (VmHWM) is reset to the current RSS. */
  resetPeakRss() {
    writeFileSync(`/proc/${this.child.pid}/clear_refs`, '5');
  }

  /** Highest RSS since the last {@link resetPeakRss}, in bytes. */
  peakRss() {
    return procStatusBytes(this.child.pid, 'VmHWM');
  }

  /** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
  async stop() {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

function procStatusBytes(pid, field) {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

/** Polls until a license check with `licenseKey` is answered 200, or fails after `timeoutMs`. */
export async function waitUntilAnswering(port, licenseKey, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/audit/license/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `licensekey=${licenseKey}&collector_version=105`,
      });
      const text = await response.text();
      if (response.status === 200 && text === 'Response 100') return;
      throw new Error(`license check answered ${response.status} ${text}`);
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`server on port ${port} not answering after ${timeoutMs} ms: ${error.message}`);
      await sleep(5);
    }
  }
}

/**
 * Starts the reference server from the built CLI: plain HTTP on 127.0.0.1, the given data directory, default
 * log level (JSON lines go to `server.log` in the data directory). `nodeFlags` go to node (e.g. `--cpu-prof`);
 * `defaults` keeps every limit at its default instead of the bench's raised ones; `databaseUrl` runs it on that
 * PostgreSQL database instead of SQLite in the data directory.
 */
export async function startReference(dataDir, licenseKey, { port, nodeFlags = [], defaults = false, databaseUrl, name = 'reference' } = {}) {
  port ??= await freePort();
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, 'server.log');
  const log = openSync(logFile, 'a');
  // `defaults`: the limits as an operator gets them, for the abuse scenarios.
  const settings = defaults ? [] : benchSettings().flatMap(({ flag, value }) => [flag, value]);
  // Its own metrics port: several instances run side by side, and other runs may be on the same machine.
  const opsPort = await freePort();
  const args = [
    ...nodeFlags,
    CLI,
    'start',
    '--plain-http',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--ops-port',
    String(opsPort),
    '--data-dir',
    dataDir,
    ...settings,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', log, log], env: databaseEnv(databaseUrl) });
  closeSync(log);
  const server = new ServerProcess(name, child, port, logFile);
  await Promise.race([waitUntilAnswering(port, licenseKey), exitOf(server)]);
  return server;
}

/**
 * Starts the baseline server on a data directory of its own (or, with `databaseUrl`, on that PostgreSQL
 * database), knowing only the SHA-256 of `licenseKey`.
 */
export async function startBaseline(dataDir, licenseKey, { port, databaseUrl } = {}) {
  port ??= await freePort();
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, 'baseline.log');
  const log = openSync(logFile, 'a');
  const keyHash = createHash('sha256').update(licenseKey).digest('hex');
  const child = spawn(process.execPath, [BASELINE, dataDir], {
    stdio: ['ignore', log, log],
    env: { ...databaseEnv(databaseUrl), PORT: String(port), KEY_HASHES: keyHash },
  });
  closeSync(log);
  const server = new ServerProcess('baseline', child, port, logFile);
  await Promise.race([waitUntilAnswering(port, licenseKey), exitOf(server)]);
  return server;
}

async function exitOf(server) {
  await new Promise((resolve) => server.child.once('exit', resolve));
  throw new Error(`${server.name} server exited during start (code ${server.exitCode}); see ${server.logFile}`);
}

/** Starts core's handlers on its node:http adapter, keys in memory (license checks only). */
export async function startCoreHttp(dataDir, licenseKey, { port } = {}) {
  port ??= await freePort();
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, 'core-http.log');
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [CORE_HTTP], {
    stdio: ['ignore', log, log],
    env: { ...process.env, PORT: String(port), BENCH_LICENSE_KEY: licenseKey },
  });
  closeSync(log);
  const server = new ServerProcess('core-http', child, port, logFile);
  await Promise.race([waitUntilAnswering(port, licenseKey), exitOf(server)]);
  return server;
}

/**
 * Runs `use(url)` on a scratch database made for it on the PostgreSQL server of DATABASE_URL, and drops the
 * database afterwards, whatever happened.
 */
export async function withScratchDatabase(purpose, use) {
  if (!process.env.DATABASE_URL) throw new Error(`${purpose} needs a PostgreSQL server: set DATABASE_URL (a user allowed to create databases)`);
  const name = `audit_bench_${purpose.replace(/\W/g, '_')}_${process.pid}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    try {
      return await use(url.toString());
    } finally {
      await admin.query(`drop database ${name} with (force)`);
    }
  } finally {
    await admin.end();
  }
}
