// Summarises a V8 CPU profile (`node --cpu-prof`): where the time went, by function and by package.
// Usage: node bench/profile-summary.mjs <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';

/** Self time by function and by package of one `.cpuprofile`, largest first. */
export function summariseProfile(file, top = 25) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byPackage = new Map();
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const where = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '');
    const fn = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  }
  const rank = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, percent: Math.round((1000 * micros) / total) / 10 }));
  return { totalMs: Math.round(total / 1000), byPackage: rank(byPackage), byFunction: rank(byFunction) };
}

function packageOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const match = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (match) return match[1];
  const own = url.match(/packages\/([^/]+)\//);
  return own ? `@org/audit-server-${own[1]}`.replace('audit-server-server', 'audit-server') : url;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const summary = summariseProfile(process.argv[2], Number(process.argv[3] ?? 25));
  process.stdout.write(`total ${summary.totalMs} ms sampled\n\nby package (self time):\n`);
  for (const { name, percent } of summary.byPackage) process.stdout.write(`  ${String(percent).padStart(5)}%  ${name}\n`);
  process.stdout.write('\nby function (self time):\n');
  for (const { name, percent } of summary.byFunction) process.stdout.write(`  ${String(percent).padStart(5)}%  ${name}\n`);
}
