import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import type { ReportEncoding } from './stores.js';

/** The `data` field turned into report bytes, or the reason it cannot be. */
export type DecodedReportData =
  | { ok: true; encoding: ReportEncoding; bytes: Buffer }
  | { ok: false; reason: string };

const BASE64_TEXT = /^[A-Za-z0-9+/]+={0,2}$/;
/** A line of a Lynis report that is not `key=value` (keys like `os`, `warning[]`), not a `#` comment, not empty. */
const NOT_A_REPORT_LINE = /^(?!#|\r?$|[A-Za-z0-9_.-]+(?:\[\])?=).*$/m;

/**
 * Decodes the `data` field, given as a latin1 string so that each character is one byte as received.
 *
 * Strictly valid base64 (standard alphabet, padding, no whitespace) is decoded; otherwise the value must be a
 * UTF-8 text report of `key=value` lines, as Lynis sends it. Node's lenient base64 decoder is never used on its
 * own: it turns plain text into junk without complaint, so a decode must re-encode to the same text.
 */
export function decodeReportData(data: string): DecodedReportData {
  if (data.length % 4 === 0 && BASE64_TEXT.test(data)) {
    const bytes = Buffer.from(data, 'base64');
    if (bytes.toString('base64') === data) return { ok: true, encoding: 'base64', bytes };
  }
  const bytes = Buffer.from(data, 'latin1');
  const problem = textReportProblem(bytes, data);
  return problem ? { ok: false, reason: problem } : { ok: true, encoding: 'raw', bytes };
}

function textReportProblem(bytes: Buffer, text: string): string | undefined {
  if (!isUtf8(bytes)) return 'neither strict base64 nor UTF-8 text';
  const bad = NOT_A_REPORT_LINE.exec(text);
  if (bad) {
    const line = countLines(text, bad.index);
    return `line ${line} is not a key=value line or a # comment (and the whole value is not strict base64)`;
  }
  if (!/^[A-Za-z0-9_.-]+(?:\[\])?=/m.test(text)) return 'the report has no key=value line';
  return undefined;
}

function countLines(text: string, end: number): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

const LICENSE_KEY_FIELD = Buffer.from('license_key=', 'latin1');
const LF = 0x0a;
const CR = 0x0d;
/** What replaces the value of each `license_key=` line in a stored report. */
export const REDACTED_MARKER = '[redacted]';
const REDACTED = Buffer.from(REDACTED_MARKER, 'latin1');

/**
 * Replaces the value of every `license_key=` line (up to the line's end, `\n` or `\r`): Lynis writes the
 * unfiltered key into each report, and keys must never be stored in clear. Other bytes are kept exactly.
 * Works on the bytes, so a report of megabytes is copied once, not turned into strings and back.
 */
export function redactLicenseKeys(report: Buffer): Buffer {
  const parts: Buffer[] = [];
  let kept = 0;
  for (let at = report.indexOf(LICENSE_KEY_FIELD); at !== -1; at = report.indexOf(LICENSE_KEY_FIELD, at + 1)) {
    if (at > 0 && report[at - 1] !== LF && report[at - 1] !== CR) continue;
    const valueStart = at + LICENSE_KEY_FIELD.length;
    let valueEnd = valueStart;
    while (valueEnd < report.length && report[valueEnd] !== LF && report[valueEnd] !== CR) valueEnd++;
    parts.push(report.subarray(kept, valueStart), REDACTED);
    kept = valueEnd;
  }
  if (parts.length === 0) return report;
  parts.push(report.subarray(kept));
  return Buffer.concat(parts);
}

/** SHA-256 (hex) of a report's bytes. */
export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
