import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The built CLI, exactly what `npx audit-server` runs. */
export const CLI = fileURLToPath(new URL('../../packages/server/bin/audit-server.js', import.meta.url));
/** The captured Lynis traffic shipped beside the repository. */
export const LYNIS_FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/lynis/', import.meta.url));

/** A reference server running as its own process on a fresh data directory. */
export interface ServerProcess {
  url: string;
  port: number;
  /** Base URL of /healthz, /readyz and /metrics. */
  opsUrl: string;
  dataDir: string;
  /** Every log line the server printed so far. */
  logs: string[];
  /** Sends SIGTERM and resolves with the exit code once the process ended. */
  stop(): Promise<number | null>;
}

/** A fresh, empty data directory; removed by the returned function. */
export async function makeDataDir(): Promise<{ dataDir: string; remove: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'audit-contract-'));
  return { dataDir, remove: () => rm(dataDir, { recursive: true, force: true }) };
}

/** Runs `audit-server <args>` to completion. */
export function runCli(args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, DATA_DIR: dataDir } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `audit-server start` on free ports of 127.0.0.1 (collectors' and operations') and waits until it listens. */
export async function startServerProcess(dataDir: string, extraArgs: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [CLI, 'start', '--host', '127.0.0.1', '--port', '0', '--ops-port', '0', ...extraArgs], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const listening = new Promise<{ url: string; port: number; opsUrl: string }>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      logs.push(line);
      const entry = JSON.parse(line) as { msg?: string; url?: string; port?: number; opsUrl?: string };
      if (entry.msg === 'audit server listening') resolve({ url: entry.url!, port: entry.port!, opsUrl: entry.opsUrl! });
    });
    child.once('exit', (code) => reject(new Error(`audit-server exited with ${code} before listening:\n${stderr}`)));
  });
  const { url, port, opsUrl } = await listening;
  return { url, port, opsUrl, dataDir, logs, stop: () => stopProcess(child) };
}

function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}
