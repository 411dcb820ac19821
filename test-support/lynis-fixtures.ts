// The captured Lynis 3.0.8 traffic (fixtures/lynis, with a README on how it was captured), for the tests of every
// package: the only way tests reach those files.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A file of the capture. */
export type LynisFixture = 'report.dat' | 'license-request.txt' | 'upload-request.txt';

/** The folder holding the capture. */
export const LYNIS_FIXTURES_DIR = fileURLToPath(new URL('../fixtures/lynis/', import.meta.url));

/** The path of one file of the capture. */
export function lynisFixturePath(name: LynisFixture): string {
  return fileURLToPath(new URL(`../fixtures/lynis/${name}`, import.meta.url));
}

/** The bytes of one file of the capture. */
export function readLynisFixture(name: LynisFixture) {
  return readFileSync(lynisFixturePath(name));
}

/** The key, host ids and requests captured from Lynis 3.0.8 (see fixtures/lynis/README.md). */
export const lynisCapture = {
  key: 'deadbeef-0000-0000-0000-000000000001',
  hostId: '0123456789abcdef0123456789abcdef01234567',
  hostId2: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  /** The API prefix the capture was made against (`upload-server=127.0.0.1:8443/api/lynis`). */
  prefix: '/api/lynis',
  licenseRequest: readLynisFixture('license-request.txt'),
  uploadRequest: readLynisFixture('upload-request.txt'),
  report: readLynisFixture('report.dat'),
};

/** The captured request with every occurrence of the key replaced (use a key of the same length: Content-Length stays right). */
export function withKey(request: Buffer, key: string): Buffer {
  return Buffer.from(request.toString('latin1').replaceAll(lynisCapture.key, key), 'latin1');
}

/** The captured request sent to an API mounted under `basePath` (e.g. `/collector`): only the request line changes. */
export function underBasePath(request: Buffer, basePath: string): Buffer {
  return Buffer.from(request.toString('latin1').replace(/^POST \//, `POST ${basePath}/`), 'latin1');
}

/** The report as a store keeps it: the value of its `license_key=` line redacted. */
export const redactedReport = lynisCapture.report.toString('latin1').replace(`license_key=${lynisCapture.key}`, 'license_key=[redacted]');
