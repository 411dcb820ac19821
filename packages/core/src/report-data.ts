import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import type { ReportEncoding } from './stores.js';

/** The `data` field turned into report bytes, or the reason it cannot be. */
export type DecodedReportData = { ok: true; encoding: ReportEncoding; bytes: Buffer } | { ok: false; reason: string };

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Whether text can be base64 at all, tried on its first characters only: a report's first line has an `=` early. */
const BASE64_START = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64_START_LENGTH = 76;
/** How a line of a Lynis report starts: `key=` (keys like `os`, `warning[]`), a `#` comment, or nothing. */
const REPORT_LINE_START = /#|\r?$|[A-Za-z0-9_.-]+(?:\[\])?=/my;

/**
 * Decodes the `data` field, given as a latin1 string so that each character is one byte as received, and as those
 * bytes when the form reader kept them (`received`: then a raw report is not copied again).
 *
 * Strictly valid base64 (standard alphabet, padding, no whitespace) is decoded; otherwise the value must be a
 * UTF-8 text report of `key=value` lines, as Lynis sends it. Node's lenient base64 decoder is never used on its
 * own: it turns plain text into junk without complaint, so a decode must re-encode to the same text.
 */
export function decodeReportData(data: string, received?: Buffer): DecodedReportData {
  const decoded = strictBase64(data);
  if (decoded) return { ok: true, encoding: 'base64', bytes: decoded };
  const bytes = received ?? Buffer.from(data, 'latin1');
  const problem = textReportProblem(bytes, data);
  return problem ? { ok: false, reason: problem } : { ok: true, encoding: 'raw', bytes };
}

/**
 * The bytes of `data` when it is strict base64, the text Node's encoder would write for them; else undefined.
 * Checked without a regular expression over the whole text or an encode back to compare (together 1.4 ms for a
 * 150 KB report): Node's decoder skips what is not base64 and stops at the first `=`, so decoding exactly as many
 * bytes as the length and padding promise means every character before the padding is of its alphabet, which only
 * adds the URL-safe `-` and `_` (looked for apart). The last character before padding must leave its unused bits 0.
 */
function strictBase64(data: string): Buffer | undefined {
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64_START.test(data.slice(0, BASE64_START_LENGTH))) return undefined;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length !== (data.length / 4) * 3 - padding || data.includes('-') || data.includes('_')) return undefined;
  const unusedBits = padding === 2 ? 16 : padding === 1 ? 4 : 1;
  return BASE64_ALPHABET.indexOf(data[data.length - 1 - padding]!) % unusedBits === 0 ? bytes : undefined;
}

function textReportProblem(bytes: Buffer, text: string): string | undefined {
  if (!isUtf8(bytes)) return 'neither strict base64 nor UTF-8 text';
  const bad = firstBadLine(text);
  if (bad !== -1) {
    const line = countLines(text, bad);
    return `line ${line} is not a key=value line or a # comment (and the whole value is not strict base64)`;
  }
  if (!/^[A-Za-z0-9_.-]+(?:\[\])?=/m.test(text)) return 'the report has no key=value line';
  return undefined;
}

/**
 * Where the first line that does not start as a report line starts, or -1. Lines end at `\n` or `\r`, as a
 * multiline regular expression sees them; each line's start is tried alone, where one expression for "a line that
 * is not a report line" was tried at every character (three times as long on the captured report).
 */
function firstBadLine(text: string): number {
  let nextLf = text.indexOf('\n');
  let nextCr = text.indexOf('\r');
  for (let at = 0; ;) {
    REPORT_LINE_START.lastIndex = at;
    if (!REPORT_LINE_START.test(text)) return at;
    if (nextLf !== -1 && nextLf < at) nextLf = text.indexOf('\n', at);
    if (nextCr !== -1 && nextCr < at) nextCr = text.indexOf('\r', at);
    const end = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
    if (end === -1) return -1;
    at = end + 1;
  }
}

function countLines(text: string, end: number): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

const LICENSE_KEY_NAME = Buffer.from('license_key', 'latin1');
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const EQUALS = 0x3d;
/** What replaces the value of each `license_key=` line in a stored report. */
export const REDACTED_MARKER = '[redacted]';
const REDACTED = Buffer.from(REDACTED_MARKER, 'latin1');

/**
 * Shortest presented key redacted wherever its bytes occur: a shorter one (an imported legacy key) would match
 * ordinary text, so it is redacted on license key lines only.
 */
export const MIN_KEY_REDACTED_ANYWHERE = 16;

/**
 * Replaces the value of every license key line: `license_key=` or `license_key[]=`, in any letter case, indented
 * or not, up to the line's end (`\n` or `\r`), and, given the `key` the client presented, every other occurrence
 * of its bytes. Lynis writes the unfiltered key into each report, and a report may repeat it anywhere (a plugin's
 * copy of the configuration); keys must never be stored in clear. Other bytes are kept exactly. Works on the bytes,
 * so a report of megabytes is copied at most once, not turned into strings and back; `inPlace` (for a buffer no one
 * else reads) copies it not at all when each value is at least as long as the marker, as real keys are.
 */
export function redactLicenseKeys(report: Buffer, { inPlace = false, key }: { inPlace?: boolean; key?: string } = {}): Buffer {
  const values = mergedRanges([...licenseKeyValues(report), ...occurrencesOf(report, key)]);
  if (values.length === 0) return report;
  if (inPlace && values.every(([start, end]) => end - start >= REDACTED.length)) return redactInPlace(report, values);
  const parts: Buffer[] = [];
  let kept = 0;
  for (const [start, end] of values) {
    parts.push(report.subarray(kept, start), REDACTED);
    kept = end;
  }
  parts.push(report.subarray(kept));
  return Buffer.concat(parts);
}

/** Where the presented key's bytes occur, as `[start, end)` byte ranges, in order; none for a key too short. */
function occurrencesOf(report: Buffer, key: string | undefined): [number, number][] {
  if (key === undefined || key.length < MIN_KEY_REDACTED_ANYWHERE) return [];
  const needle = Buffer.from(key, 'latin1');
  const found: [number, number][] = [];
  for (let at = report.indexOf(needle); at !== -1; at = report.indexOf(needle, at + needle.length)) found.push([at, at + needle.length]);
  return found;
}

/** Byte ranges in order, those that overlap or touch a license key line's value taken into it. */
function mergedRanges(ranges: [number, number][]): [number, number][] {
  const merged: [number, number][] = [];
  for (const [start, end] of ranges.sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && start < last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Where the values of the license key lines are, as `[start, end)` byte ranges, in order. */
function licenseKeyValues(report: Buffer): [number, number][] {
  const values: [number, number][] = [];
  const lineEnds = new LineEnds(report);
  for (let lineStart = 0; lineStart < report.length;) {
    const lineEnd = lineEnds.after(lineStart);
    const valueStart = licenseKeyValueStart(report, lineStart, lineEnd);
    if (valueStart !== undefined) values.push([valueStart, lineEnd]);
    lineStart = lineEnd + 1;
  }
  return values;
}

/** Writes the marker over each value (none shorter than it) and moves the rest up; a view of `report` is returned. */
function redactInPlace(report: Buffer, values: [number, number][]): Buffer {
  let written = values[0]![0];
  let read = written;
  for (const [start, end] of values) {
    written += report.copy(report, written, read, start); // overlapping copies are safe: `written` never passes `read`
    written += REDACTED.copy(report, written);
    read = end;
  }
  written += report.copy(report, written, read);
  return report.subarray(0, written);
}

/** Where the value of a license key line in `report[lineStart, lineEnd)` starts, or undefined for any other line. */
function licenseKeyValueStart(report: Buffer, lineStart: number, lineEnd: number): number | undefined {
  let at = lineStart;
  while (at < lineEnd && (report[at] === SPACE || report[at] === TAB)) at++;
  if (lineEnd - at < LICENSE_KEY_NAME.length + 1) return undefined;
  for (let i = 0; i < LICENSE_KEY_NAME.length; i++) {
    const byte = report[at + i]!;
    const lower = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte; // ASCII letters only
    if (lower !== LICENSE_KEY_NAME[i]) return undefined;
  }
  at += LICENSE_KEY_NAME.length;
  if (report[at] === 0x5b && report[at + 1] === 0x5d) at += 2; // `[]`
  return report[at] === EQUALS && at < lineEnd ? at + 1 : undefined;
}

/** Finds line ends (`\n` or `\r`) in order, searching for each kind only when passed, so a scan stays linear. */
class LineEnds {
  #nextLf = -1;
  #nextCr = -1;

  constructor(private readonly bytes: Buffer) {}

  /** The first line end at or after `from`, or the length of the bytes when there is none. */
  after(from: number): number {
    if (this.#nextLf !== Infinity && this.#nextLf < from) this.#nextLf = this.#find(LF, from);
    if (this.#nextCr !== Infinity && this.#nextCr < from) this.#nextCr = this.#find(CR, from);
    return Math.min(this.#nextLf, this.#nextCr, this.bytes.length);
  }

  #find(byte: number, from: number): number {
    const at = this.bytes.indexOf(byte, from);
    return at === -1 ? Infinity : at;
  }
}

/** SHA-256 (hex) of a report's bytes. */
export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
