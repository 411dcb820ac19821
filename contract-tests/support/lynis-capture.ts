import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LYNIS_FIXTURES } from './server-process.js';

/** The key, host ids and requests captured from Lynis 3.0.8 (see fixtures/lynis/README.md). */
export const lynisCapture = {
  key: 'deadbeef-0000-0000-0000-000000000001',
  hostId: '0123456789abcdef0123456789abcdef01234567',
  hostId2: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  /** The API prefix the capture was made against (`upload-server=127.0.0.1:8443/api/lynis`). */
  prefix: '/api/lynis',
  licenseRequest: readFileSync(join(LYNIS_FIXTURES, 'license-request.txt')),
  uploadRequest: readFileSync(join(LYNIS_FIXTURES, 'upload-request.txt')),
  report: readFileSync(join(LYNIS_FIXTURES, 'report.dat')),
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
