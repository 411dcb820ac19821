// The client's profile fixture read by the real Lynis and by the client's parser: both must find the same settings.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { lynisKeyAsSent, parseLynisProfiles } from '@org/audit-client';
import { lynisPath } from './support/lynis.js';

const FIXTURE = fileURLToPath(new URL('../packages/client/fixtures/custom.prf', import.meta.url));

it('reads upload-server, upload-options and license-key of the fixture as `lynis show settings` does', () => {
  const result = spawnSync(lynisPath(), ['--profile', FIXTURE, 'show', 'settings', '--brief', '--nocolors'], { encoding: 'utf8', timeout: 60_000 });
  expect(result.status).toBe(0);
  // `show settings` prints name=value lines, with spaces in values written as :space:.
  const shown = Object.fromEntries(
    result.stdout.split('\n').filter((line) => line.includes('=')).map((line) => {
      const equals = line.indexOf('=');
      return [line.slice(0, equals), line.slice(equals + 1).replaceAll(':space:', ' ')];
    }),
  );
  const parsed = parseLynisProfiles([{ name: 'custom.prf', text: readFileSync(FIXTURE, 'utf8') }]);
  expect(parsed.uploadServer).toBe(shown['upload-server']);
  expect(parsed.uploadOptions).toBe(shown['upload-options']);
  expect(parsed.licenseKey).toBe(lynisKeyAsSent(shown['license-key']));
  expect(shown['upload-server']).toBe('127.0.0.1:8443/api/v1/audit');
});
