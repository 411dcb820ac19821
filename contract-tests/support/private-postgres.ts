import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@org/test-support/ports';

const run = promisify(execFile);
/** Where Debian's `postgresql` package puts `initdb` and `pg_ctl`, one directory per major version. */
const DEBIAN_POSTGRESQL = '/usr/lib/postgresql';
/** Longest wait for initdb, a start or a stop. */
const COMMAND_TIMEOUT_MS = 60_000;

/** A PostgreSQL server of one test file's own, on a free port of 127.0.0.1, that the test may stop and start again. */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, no password). */
  url: string;
  port: number;
  /** Stops the server (`pg_ctl stop -m fast`: open connections are cut), resolving once it is down. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data, resolving once it accepts connections. */
  start(): Promise<void>;
  /** Stops it if running and removes its data directory. */
  destroy(): Promise<void>;
}

/**
 * Makes and starts a throwaway PostgreSQL server (never the shared one of `DATABASE_URL`): `initdb` in a fresh
 * temporary directory, run as the `postgres` user when this process is root. Needs Debian's `postgresql` package
 * (`.ci/run` installs it).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await postgresBinDir();
  const dir = await mkdtemp(join(tmpdir(), 'audit-private-pg-'));
  const data = join(dir, 'data');
  const asPostgres = await postgresUser();
  if (asPostgres) await chown(dir, asPostgres.uid, asPostgres.gid);
  const pg = (tool: string, args: string[]) => {
    const [command, ...rest] = asPostgres ? ['runuser', '-u', 'postgres', '--', join(bin, tool), ...args] : [join(bin, tool), ...args];
    return run(command, rest, { timeout: COMMAND_TIMEOUT_MS });
  };
  let running = false;
  const port = await freePort();
  const settings = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`;
  const start = async () => {
    await pg('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', '-o', settings, 'start']);
    running = true;
  };
  const stop = async () => {
    await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
    running = false;
  };
  try {
    await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
    await start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      try {
        if (running) await stop();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The newest installed version's `bin` directory. */
async function postgresBinDir(): Promise<string> {
  const versions = await readdir(DEBIAN_POSTGRESQL).catch(() => [] as string[]);
  const newest = versions.filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL server binaries under ${DEBIAN_POSTGRESQL}: install the postgresql package (.ci/run does)`);
  return join(DEBIAN_POSTGRESQL, newest, 'bin');
}

/** The `postgres` user to run the server as, when this process is root (PostgreSQL refuses to run as root). */
async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}
