// Generated code comes from openapi.yaml only: the committed files must be exactly what the generator writes.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('committed *.gen.ts files match what openapi.yaml produces', () => {
  const script = fileURLToPath(new URL('../scripts/generate.mjs', import.meta.url));
  const result = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
}, 60_000);
