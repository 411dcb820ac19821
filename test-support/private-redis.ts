import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './ports.js';

/** Longest wait for a start or a stop. */
const TIMEOUT_MS = 10_000;

/** A Redis server of one test file's own, on a free port of 127.0.0.1, that the test may kill and start again. */
export interface PrivateRedis {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Kills the server (SIGKILL, as a crash would), resolving once the process has ended. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted), resolving once it accepts connections. */
  start(): Promise<void>;
}

/** Starts a throwaway `redis-server` (never the shared one of `REDIS_URL`) that keeps nothing on disk. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`redis-server did not start within ${TIMEOUT_MS} ms:\n${output}`)), TIMEOUT_MS);
      const fail = (error: Error) => {
        clearTimeout(timer);
        started.kill('SIGKILL');
        reject(error);
      };
      started.once('error', fail); // e.g. redis-server not installed (.ci/run installs it)
      started.once('exit', (code) => fail(new Error(`redis-server exited with ${code}:\n${output}`)));
      started.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          started.removeAllListeners('exit');
          resolve();
        }
      });
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop };
}
