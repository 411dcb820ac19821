import { spawnSync } from 'node:child_process';

/** The installed Lynis; fails with what to install when it is missing. */
export function lynisPath(): string {
  const found = spawnSync('sh', ['-c', 'command -v lynis || ls /usr/sbin/lynis'], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('Lynis is not installed: run `apt-get install -y lynis` (.ci/run does). This test needs the real client.');
  return found.split('\n')[0]!;
}
