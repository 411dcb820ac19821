// The repository tests itself with nothing beside it: no test, example or bench names a path outside it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A quoted relative path in a URL or import, such as ../../x or ./y. */
const RELATIVE_PATH = /['"`](\.{1,2}\/[^'"`\s$]*)['"`]/g;

describe('the repository is self-contained', () => {
  const files = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '*.js'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file && !file.includes('/generated/'));

  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('names no relative path that leaves the repository', () => {
    const escaping: string[] = [];
    for (const file of files) {
      const text = readFileSync(resolve(ROOT, file), 'utf8');
      for (const [, path] of text.matchAll(RELATIVE_PATH)) {
        const target = relative(ROOT, resolve(ROOT, dirname(file), path!));
        if (target.startsWith('..')) escaping.push(`${file}: ${path}`);
      }
    }
    expect(escaping).toEqual([]);
  });

  it('ships the captured Lynis traffic the tests replay', () => {
    const report = readFileSync(resolve(ROOT, 'fixtures/lynis/report.dat'));
    expect(report.length).toBe(42_733);
    expect(readFileSync(resolve(ROOT, 'fixtures/lynis/upload-request.txt')).length).toBe(52_629);
    expect(readFileSync(resolve(ROOT, 'fixtures/lynis/license-request.txt')).length).toBe(235);
  });
});
