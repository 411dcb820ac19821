import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { importKey, openDatabase, revokeKey, type DatabaseLocation } from '@org/audit-server';
import { runNodeScript, type CommandRun } from '@org/test-support/node-script';

/** The built CLI, exactly what `npx audit-server` runs. */
export const CLI = fileURLToPath(new URL('../../packages/server/bin/audit-server.js', import.meta.url));

/** A reference server running as its own process on a fresh data directory. */
export interface ServerProcess {
  url: string;
  port: number;
  /** Base URL of /healthz, /readyz and /metrics. */
  opsUrl: string;
  /** Base URL of the admin API, as the server logged it (`off` when not served). */
  adminUrl: string;
  dataDir: string;
  /** Every log line the server printed so far. */
  logs: string[];
  /** What the server wrote to stderr so far (a crash's stack trace). */
  stderr(): string;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code (null when killed) once the process ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Resolves once the server printed a log line `matches` accepts (lines arrive through a pipe, a little after the answer). */
export async function logLine(server: ServerProcess, matches: (line: string) => boolean, timeoutMs = 5000): Promise<string> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const line = server.logs.find(matches);
    if (line) return line;
  }
  throw new Error(`no such log line within ${timeoutMs} ms`);
}

/** Stores `valid` keys and `revoked` (already revoked) keys in a database, as an operator's import would. */
export async function seedKeys(location: string | DatabaseLocation, keys: { valid: string[]; revoked?: string[] }): Promise<void> {
  const orm = await openDatabase(location);
  try {
    for (const key of keys.valid) await importKey(orm, key);
    for (const key of keys.revoked ?? []) await revokeKey(orm, await importKey(orm, key));
  } finally {
    await orm.close();
  }
}

/** A fresh, empty data directory; removed by the returned function. */
export async function makeDataDir(): Promise<{ dataDir: string; remove: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'audit-contract-'));
  return { dataDir, remove: () => rm(dataDir, { recursive: true, force: true }) };
}

/**
 * The environment of an `audit-server` child: this process's, without the shared services' URLs (`REDIS_URL`,
 * `DATABASE_URL`), so that a child uses SQLite in `dataDir` and counts rate limits in memory unless its arguments
 * or `databaseUrl` say otherwise, and servers of different tests never share state.
 */
function childEnv(dataDir: string, databaseUrl?: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { REDIS_URL: _redis, DATABASE_URL: _database, ...env } = process.env;
  return { ...env, DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...extra };
}

/** Runs `audit-server <args>` to completion, with `stdin` as its input when given; on SQLite in `dataDir` unless `databaseUrl`. */
export function runCli(args: string[], dataDir: string, stdin?: string, databaseUrl?: string): Promise<CommandRun> {
  return runNodeScript(CLI, args, childEnv(dataDir, databaseUrl), stdin);
}

/**
 * Starts `audit-server start` on free ports of 127.0.0.1 (collectors' and operations') and waits until it listens.
 * It uses SQLite in `dataDir` unless `options.databaseUrl` names a PostgreSQL database, and counts rate limits in
 * memory unless `extraArgs` name a Redis. `options.env`: environment variables of its own (a secret, a CA to trust).
 */
export async function startServerProcess(
  dataDir: string,
  extraArgs: string[] = [],
  options: { databaseUrl?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [CLI, 'start', '--host', '127.0.0.1', '--port', '0', '--ops-port', '0', ...extraArgs], {
    env: childEnv(dataDir, options.databaseUrl, options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const listening = new Promise<{ url: string; port: number; opsUrl: string; adminUrl: string }>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      logs.push(line);
      const entry = JSON.parse(line) as { msg?: string; url?: string; port?: number; opsUrl?: string; adminUrl?: string };
      if (entry.msg === 'audit server listening') resolve({ url: entry.url!, port: entry.port!, opsUrl: entry.opsUrl!, adminUrl: entry.adminUrl! });
    });
    child.once('exit', (code) => reject(new Error(`audit-server exited with ${code} before listening:\n${stderr}`)));
  });
  const { url, port, opsUrl, adminUrl } = await listening;
  return { url, port, opsUrl, adminUrl, dataDir, logs, stderr: () => stderr, stop: (signal = 'SIGTERM') => stopProcess(child, signal) };
}

function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}
