import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Core's entry points from source, one per entry of its exports map (`.` → `@org/audit-server-core`, `./node` →
 * `@org/audit-server-core/node`; `./dist/x.js` → `src/x.ts`), matched exactly so the root does not swallow the subpaths.
 */
const coreExports: Record<string, { default: string }> = JSON.parse(readFileSync(new URL('packages/core/package.json', import.meta.url), 'utf8')).exports;
const coreFromSource = Object.entries(coreExports).map(([subpath, target]) => ({
  find: new RegExp(`^@org/audit-server-core${subpath.slice(1)}$`),
  replacement: fileURLToPath(new URL(target.default.replace(/^\.\/dist\/(.+)\.js$/, 'packages/core/src/$1.ts'), import.meta.url)),
}));

export default defineConfig({
  resolve: {
    // Unit tests run core from source; tests that start the server as a process use the build (`npm test` builds first).
    alias: coreFromSource,
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'contract-tests/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Polls wait on a server process or a browser, which a busy CI machine can keep past the default second.
    expect: { poll: { timeout: 8_000 } },
  },
});
