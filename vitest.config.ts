import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Unit tests run core from source; tests that start the server as a process use the build (`npm test` builds first).
    alias: { '@org/audit-server-core': fileURLToPath(new URL('packages/core/src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'contract-tests/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
