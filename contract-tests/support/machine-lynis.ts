// The machine has one Lynis: one /etc/lynis profile (which every Lynis run reads), one PID file, one log. Test files
// that run it or change its profile take turns, holding this lock for their whole run; they may run in parallel
// processes, so the lock is a directory (mkdir is atomic) naming its holder, taken over when that process is gone.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOCK = join(tmpdir(), 'audit-collector-machine-lynis.lock');
const POLL_MS = 500;

/** Waits (up to `timeoutMs`) until this process holds the machine's Lynis; answers the function that lets it go. */
export async function holdMachineLynis(timeoutMs = 900_000): Promise<() => Promise<void>> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, POLL_MS))) {
    try {
      await mkdir(LOCK);
      await writeFile(join(LOCK, 'pid'), String(process.pid));
      return () => rm(LOCK, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await holderGone()) await rm(LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`another test file has held the machine's Lynis for ${timeoutMs / 1000} s (${LOCK})`, { cause: error });
    }
  }
}

/** Whether the lock's holder has exited (a test process killed before it let go); a lock being written is not gone. */
async function holderGone(): Promise<boolean> {
  const pid = Number(await readFile(join(LOCK, 'pid'), 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}
