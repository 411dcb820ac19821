// The repository tests itself with nothing beside it: no test, example or bench names a path outside it. And the
// packages and examples stand apart from the contract tests: what their tests share lives in the test kit.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A quoted relative path in a URL or import, such as ../../x or ./y. */
const RELATIVE_PATH = /['"`](\.{1,2}\/[^'"`\s$]*)['"`]/g;

const files = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '*.js'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && !file.includes('/generated/'));

/** Every relative path `file` names, as a path from the repository's root. */
function pathsNamedBy(file: string): string[] {
  const text = readFileSync(resolve(ROOT, file), 'utf8');
  return [...text.matchAll(RELATIVE_PATH)].map(([, path]) => relative(ROOT, resolve(ROOT, dirname(file), path!)));
}

describe('the repository is self-contained', () => {
  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('names no relative path that leaves the repository', () => {
    const escaping = files.flatMap((file) =>
      pathsNamedBy(file)
        .filter((target) => target.startsWith('..'))
        .map((target) => `${file}: ${target}`),
    );
    expect(escaping).toEqual([]);
  });

  it('ships the captured Lynis traffic the tests replay', () => {
    const report = readFileSync(resolve(ROOT, 'fixtures/lynis/report.dat'));
    expect(report.length).toBe(42_733);
    expect(readFileSync(resolve(ROOT, 'fixtures/lynis/upload-request.txt')).length).toBe(52_629);
    expect(readFileSync(resolve(ROOT, 'fixtures/lynis/license-request.txt')).length).toBe(235);
  });
});

describe('packages and examples stand apart from the contract tests', () => {
  const outside = files.filter((file) => file.startsWith('packages/') || file.startsWith('examples/'));

  it('has package and example files to check', () => {
    expect(outside.length).toBeGreaterThan(50);
  });

  it('no file of a package or an example imports from contract-tests/ (shared helpers live in test-support/)', () => {
    const reaching = outside.flatMap((file) => {
      const targets = pathsNamedBy(file).filter((target) => target === 'contract-tests' || target.startsWith('contract-tests/'));
      if (/['"]@org\/contract-tests\b/.test(readFileSync(resolve(ROOT, file), 'utf8'))) targets.push('@org/contract-tests');
      return targets.map((target) => `${file}: ${target}`);
    });
    expect(reaching).toEqual([]);
  });

  it('tests reach the captured Lynis traffic only through the test kit (@org/test-support/lynis-fixtures)', () => {
    const tests = files.filter((file) => /^(packages|examples|contract-tests)\//.test(file));
    const reaching = tests.flatMap((file) =>
      pathsNamedBy(file)
        .filter((target) => target.startsWith('fixtures/'))
        .map((target) => `${file}: ${target}`),
    );
    expect(reaching).toEqual([]);
  });
});
