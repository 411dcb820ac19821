// Request bodies for the bench, encoded exactly as Lynis (curl --data-urlencode) sends them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURES = new URL('../fixtures/lynis/', import.meta.url);
/** The captured Lynis report (`fixtures/lynis/report.dat` in this repository). */
export const fixtureReport = () => readFileSync(fileURLToPath(new URL('report.dat', FIXTURES)));

export const HOST_ID = '0123456789abcdef0123456789abcdef01234567';
export const HOST_ID2 = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

// curl keeps letters, digits and -._~, turns a space into +, and every other byte into %XX (uppercase hex).
const KEPT = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~') KEPT[c.charCodeAt(0)] = 1;
const HEX = '0123456789ABCDEF';

/** Encodes bytes the way `curl --data-urlencode` does. */
export function curlEncode(bytes) {
  const out = Buffer.allocUnsafe(bytes.length * 3);
  let n = 0;
  for (const byte of bytes) {
    if (KEPT[byte]) out[n++] = byte;
    else if (byte === 0x20) out[n++] = 0x2b;
    else {
      out[n++] = 0x25;
      out[n++] = HEX.charCodeAt(byte >> 4);
      out[n++] = HEX.charCodeAt(byte & 15);
    }
  }
  return out.subarray(0, n);
}

/**
 * A host's `hostid2`: each machine has its own, as Lynis derives it from the machine's SSH host key (hosts sharing
 * one, and a host name, would be one machine to the server's identity merge).
 */
const hostId2Of = (hostId) => (hostId === HOST_ID ? HOST_ID2 : createHash('sha256').update(`hostid2 of ${hostId}`).digest('hex'));

/** An upload body with the fields in Lynis' order: data, licensekey, hostid, hostid2. */
export function uploadBody(data, licenseKey, hostId = HOST_ID) {
  return Buffer.concat([
    Buffer.from('data='),
    curlEncode(data),
    Buffer.from(`&licensekey=${curlEncode(Buffer.from(licenseKey))}&hostid=${hostId}&hostid2=${hostId2Of(hostId)}`),
  ]);
}

/** Hosts of the fleet-shaped upload scenarios. */
export const FLEET_HOSTS = 1000;

/** The same report uploaded by `hosts` different hosts: one body each, as a fleet sends them. */
export function fleetUploadBodies(data, licenseKey, hosts = FLEET_HOSTS) {
  return Array.from({ length: hosts }, (_, i) => uploadBody(data, licenseKey, createHash('sha1').update(`bench host ${i}`).digest('hex')));
}

/** A license check body as Lynis sends it. */
export const licenseBody = (licenseKey) => Buffer.from(`licensekey=${curlEncode(Buffer.from(licenseKey))}&collector_version=105`);

/** Fails unless {@link curlEncode} reproduces the captured upload's `data` field byte for byte. */
export function checkEncodingAgainstCapture() {
  const request = readFileSync(fileURLToPath(new URL('upload-request.txt', FIXTURES)));
  const body = request.subarray(request.indexOf('\r\n\r\n') + 4);
  const captured = body.subarray('data='.length, body.indexOf('&licensekey='));
  if (!curlEncode(fixtureReport()).equals(captured)) throw new Error('curlEncode does not reproduce the captured Lynis upload');
}

/** The line Lynis writes last once the audit finished; the server stores no report without it. */
const FINISHED = 'finish=true\n';

/**
 * A synthetic Lynis report of exactly `size` bytes (at least 2 KB): the fixture's header lines, an
 * `installed_packages_array` line with one `|name,version|` entry per ~50 bytes of report (3,000 packages at
 * 150 KB), then per-test lines (`suggestion[]=`, `file_permission[]=`…) up to the size, and `finish=true` last, as
 * a finished audit has it. Valid UTF-8 `key=value` text throughout.
 */
export function syntheticReport(size) {
  const header = fixtureReport().toString('utf8').split('\n').slice(0, 30).join('\n') + '\n';
  const packages = Math.max(10, Math.round(size / 50));
  let text = header;
  let line = 'installed_packages_array=';
  for (let i = 0; i < packages && header.length + line.length < size / 2; i++)
    line += `|lib${(i * 7919).toString(36)}-pkg${i},${1 + (i % 9)}.${i % 23}.${i % 5}-${1 + (i % 3)}|`;
  text += `${line}\n`;
  const filler = [
    (i) => `suggestion[]=PKGS-${7300 + (i % 100)}|Install a package to harden component ${i}, see the documentation.|-|-|\n`,
    (i) => `file_permission[]=/etc/app-${i}/config.conf|640|root|root|\n`,
    (i) => `network_listen_port[]=127.0.0.1:${1024 + (i % 60000)}|tcp|service-${i}|\n`,
    (i) => `warning[]=AUTH-${9200 + (i % 100)}|Finding number ${i}: review this setting.|-|-|\n`,
  ];
  const lines = [];
  let length = Buffer.byteLength(text);
  for (let i = 0; length < size - 64 - FINISHED.length; i++) {
    const next = filler[i % filler.length](i);
    lines.push(next);
    length += next.length;
  }
  text += lines.join('');
  const padding = size - FINISHED.length - Buffer.byteLength(text);
  if (padding > 0) text += padding === 1 ? '\n' : `#${'-'.repeat(padding - 2)}\n`;
  return Buffer.from(text + FINISHED, 'utf8');
}
