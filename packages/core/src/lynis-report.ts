import { isUtf8 } from 'node:buffer';
import type { Finding, ReportSummary } from './generated/types.gen.js';

/** A Lynis report read line by line: the summary the contract describes, and every key the report holds. */
export interface ParsedLynisReport {
  summary: ReportSummary;
  /**
   * Every key as the report writes it: a `key=value` line gives a string (the last one wins), `key[]=value`
   * lines an array under `key[]` (so `vulnerable_package[]` lists every vulnerable package). The object has no
   * prototype, so a key like `__proto__` is kept as an ordinary entry.
   */
  values: Record<string, string | string[]>;
}

const LF = '\n';
const CR = 0x0d;
const HASH = 0x23;
const BYTE_ORDER_MARK = 0xfeff;
const UTF8_BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);
const LF_BYTE = 0x0a;
/**
 * Bytes of a report decoded at a time: V8 allocates strings this small in its young generation, while one over
 * 128 KiB goes to its large-object space, which made decoding a 150 KB report whole take ten times as long.
 */
const CHUNK_BYTES = 32 * 1024;
const ARRAY_SUFFIX = '[]';
const DIGITS = /^\d+$/;

/** The keys the summary is made of; the first two also mark a text as a Lynis report. */
const SUMMARY_KEYS = [
  'lynis_version',
  'report_version_major',
  'report_version_minor',
  'hostname',
  'os_name',
  'os_fullname',
  'os_version',
  'os_kernel_version_full',
  'os_kernel_version',
  'report_datetime_start',
  'report_datetime_end',
  'hardening_index',
  'lynis_tests_done',
  'warning[]',
  'suggestion[]',
] as const;
type SummaryKey = (typeof SUMMARY_KEYS)[number];
/** The profile options Lynis copies into the report (`include/profiles`), which label the host. */
const LABEL_KEYS = ['system-groups', 'tags', 'system-customer-name', 'hostname_alias'] as const;
type LabelKey = (typeof LABEL_KEYS)[number];
/** What the report says of the machine itself: `/etc/machine-id`, and whether it may be purged when it stops reporting. */
const MACHINE_KEYS = ['machineid', 'allow-auto-purge'] as const;
/** The keys read on every upload: the summary's, the labels' and the machine's. */
const IS_UPLOAD_KEY: ReadonlySet<string> = new Set([...SUMMARY_KEYS, ...LABEL_KEYS, ...MACHINE_KEYS]);

/** Most groups, and most tags, kept of one report; further ones are dropped. */
export const MAX_HOST_LABELS = 32;
/** Longest group, tag, customer name or alias kept, in UTF-16 code units; longer ones are cut there. */
export const MAX_LABEL_LENGTH = 255;

/**
 * What a report's Lynis profile says to file its host under: `system-groups=` and `tags=` split at commas,
 * trimmed, empty ones dropped, each kept once (in the report's order, at most {@link MAX_HOST_LABELS}, each at most
 * {@link MAX_LABEL_LENGTH} long), and `system-customer-name=` and `hostname_alias=` trimmed (null when absent or
 * empty). The texts are the host's, unchecked: show them only as text.
 */
export interface HostLabels {
  groups: string[];
  tags: string[];
  customerName: string | null;
  hostnameAlias: string | null;
  /** `machineid=` (null when absent or empty) and `allow-auto-purge=1`; absent from labels read before core read them. */
  machineId?: string | null;
  autoPurge?: boolean;
}

/** What the upload path reads from a Lynis report: its summary and its host's labels. */
export interface ReportReading {
  summary: ReportSummary;
  labels: HostLabels;
}

type Values = Record<string, string | string[]>;

/**
 * Reads a Lynis report (`report.dat`). Returns null when the text is not one: it names neither
 * `lynis_version` nor `report_version_major`.
 *
 * Lines are `key=value` (split at the first `=`) or `key[]=value` (appended to an array); `#` comments, blank
 * lines and lines without a key and `=` are skipped, and CRLF line ends are read like LF. The summary's strings
 * are copies: keeping it keeps nothing else of `text` in memory (`values` does).
 */
export function parseLynisReport(text: string): ParsedLynisReport | null {
  const values = Object.create(null) as Values;
  const start = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
  readKeyValueLines(text, start, (lineStart, equals, lineEnd) => {
    addValue(values, text.slice(lineStart, equals), text.slice(equals + 1, lineEnd));
  });
  return isLynisReport(values) ? { summary: summarize(values), values } : null;
}

/**
 * The summary of a report's bytes, the same as `parseLynisReport` makes: null when they are not UTF-8 text or
 * not a Lynis report. It runs on every upload, so it decodes a chunk of lines at a time and keeps only the
 * lines the summary is made of. On a shared 2-core machine: 0.05 ms for the captured 42 KB report, 0.3 ms for
 * 150 KB, 10 to 25 ms for 8 MiB (the more findings, the longer).
 */
export function summarizeReportBytes(report: Buffer): ReportSummary | null {
  return readReportBytes(report)?.summary ?? null;
}

/**
 * The summary of a report's bytes, as {@link summarizeReportBytes} reads it, and the labels its Lynis profile gives
 * the host ({@link HostLabels}), in the same single pass: null when the bytes are not UTF-8 text or not a Lynis report.
 */
export function readReportBytes(report: Buffer): ReportReading | null {
  if (!isUtf8(report)) return null;
  const values = Object.create(null) as Values;
  let chunkStart = report.subarray(0, UTF8_BYTE_ORDER_MARK.length).equals(UTF8_BYTE_ORDER_MARK) ? UTF8_BYTE_ORDER_MARK.length : 0;
  while (chunkStart < report.length) {
    const chunkEnd = endOfWholeLines(report, chunkStart);
    const text = report.toString('utf8', chunkStart, chunkEnd);
    readKeyValueLines(text, 0, (lineStart, equals, lineEnd) => {
      const key = text.slice(lineStart, equals);
      if (IS_UPLOAD_KEY.has(key)) addValue(values, key, text.slice(equals + 1, lineEnd));
    });
    chunkStart = chunkEnd;
  }
  return isLynisReport(values) ? { summary: summarize(values), labels: hostLabels(values) } : null;
}

/** The labels of a report's values (the last line of each key wins, as for every `key=value` line). */
function hostLabels(values: Values): HostLabels {
  const single = (key: LabelKey | (typeof MACHINE_KEYS)[number]): string | null => {
    const value = values[key];
    if (typeof value !== 'string') return null;
    const trimmed = value.trim();
    return trimmed === '' ? null : copyOf(cut(trimmed).trimEnd());
  };
  return {
    groups: labelList(values['system-groups' satisfies LabelKey]),
    tags: labelList(values['tags' satisfies LabelKey]),
    customerName: single('system-customer-name'),
    hostnameAlias: single('hostname_alias'),
    machineId: single('machineid'),
    autoPurge: values['allow-auto-purge'] === '1',
  };
}

/**
 * A comma-separated list: trimmed, empty entries dropped, duplicates (after cutting) kept once, in order, at most
 * {@link MAX_HOST_LABELS}. Walks the text with `indexOf` and stops at the bound, so a line of a million commas costs
 * no more than the entries kept.
 */
function labelList(value: string | string[] | undefined): string[] {
  if (typeof value !== 'string') return [];
  const kept = new Set<string>();
  for (let start = 0; start <= value.length && kept.size < MAX_HOST_LABELS;) {
    let end = value.indexOf(',', start);
    if (end === -1) end = value.length;
    const entry = value.slice(start, end).trim();
    if (entry !== '') kept.add(cut(entry).trimEnd());
    start = end + 1;
  }
  return [...kept].map(copyOf);
}

/** `text` cut to {@link MAX_LABEL_LENGTH} code units, never between the two halves of a surrogate pair. */
function cut(text: string): string {
  if (text.length <= MAX_LABEL_LENGTH) return text;
  const last = text.charCodeAt(MAX_LABEL_LENGTH - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? MAX_LABEL_LENGTH - 1 : MAX_LABEL_LENGTH);
}

/**
 * Where the chunk of whole lines starting at `start` ends: after its last `\n` within {@link CHUNK_BYTES}, or
 * after the first `\n` beyond them when one line is longer. Cut after `\n`, a chunk never splits a UTF-8 character.
 */
function endOfWholeLines(report: Buffer, start: number): number {
  const limit = start + CHUNK_BYTES;
  if (limit >= report.length) return report.length;
  const lastNewline = report.lastIndexOf(LF_BYTE, limit - 1);
  if (lastNewline >= start) return lastNewline + 1;
  const nextNewline = report.indexOf(LF_BYTE, limit);
  return nextNewline === -1 ? report.length : nextNewline + 1;
}

/**
 * Calls `onLine` with the positions of each `key=value` line from `start` on: where it starts, its first `=`,
 * where it ends (before `\r\n` or `\n`). One pass with `indexOf` and no regular expression per line: splitting
 * into lines and matching each with a regular expression took six times as long.
 */
function readKeyValueLines(text: string, start: number, onLine: (lineStart: number, equals: number, lineEnd: number) => void): void {
  let lineStart = start;
  // The first `=` at or after `lineStart`, found once and reused by the lines before it: searching afresh on
  // each line would rescan long runs of lines without `=` over and over.
  let nextEquals = -1;
  while (lineStart < text.length) {
    const newline = text.indexOf(LF, lineStart);
    const next = newline === -1 ? text.length : newline + 1;
    let lineEnd = newline === -1 ? text.length : newline;
    if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === CR) lineEnd--;
    if (lineEnd > lineStart && text.charCodeAt(lineStart) !== HASH) {
      if (nextEquals < lineStart) {
        nextEquals = text.indexOf('=', lineStart);
        if (nextEquals === -1) nextEquals = text.length;
      }
      if (nextEquals > lineStart && nextEquals < lineEnd) onLine(lineStart, nextEquals, lineEnd);
    }
    lineStart = next;
  }
}

/** `key[]` lines append to an array; for other keys the last line wins. */
function addValue(values: Values, key: string, value: string): void {
  if (key.endsWith(ARRAY_SUFFIX)) {
    const list = values[key];
    if (Array.isArray(list)) list.push(value);
    else values[key] = [value];
  } else {
    values[key] = value;
  }
}

function isLynisReport(values: Values): boolean {
  return 'lynis_version' in values || 'report_version_major' in values;
}

/**
 * The summary, holding copies of its strings: V8 keeps a substring of 13 or more characters as a view into the
 * string it was cut from, so a summary of slices would keep the whole report's text in memory as long as it lives.
 */
function summarize(values: Values): ReportSummary {
  const text = (key: SummaryKey): string | null => {
    const value = values[key];
    return typeof value === 'string' && value !== '' ? copyOf(value) : null;
  };
  const major = text('report_version_major');
  const minor = text('report_version_minor');
  const hardeningIndex = wholeNumber(text('hardening_index'));
  return {
    lynisVersion: text('lynis_version'),
    reportVersion: major !== null && minor !== null ? `${major}.${minor}` : null,
    hostname: text('hostname'),
    os: {
      name: text('os_name'),
      fullName: text('os_fullname'),
      version: text('os_version'),
      kernel: text('os_kernel_version_full') ?? text('os_kernel_version'),
    },
    startedAt: text('report_datetime_start'),
    endedAt: text('report_datetime_end'),
    hardeningIndex: hardeningIndex !== null && hardeningIndex <= 100 ? hardeningIndex : null,
    testsPerformed: wholeNumber(text('lynis_tests_done')),
    warnings: findings(values['warning[]' satisfies SummaryKey]),
    suggestions: findings(values['suggestion[]' satisfies SummaryKey]),
  };
}

/** A non-negative integer written in decimal digits only, else null. */
function wholeNumber(value: string | null): number | null {
  if (value === null || !DIGITS.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : null;
}

function findings(lines: string | string[] | undefined): Finding[] {
  if (!Array.isArray(lines)) return [];
  // Cut from one new string of just these lines, each ended by LF (joining two or more parts builds a new
  // string), so that the findings keep no more than their own text in memory.
  const own = [...lines, ''].join(LF);
  const read: Finding[] = [];
  for (let start = 0, end = own.indexOf(LF); end !== -1; start = end + 1, end = own.indexOf(LF, start)) {
    const finding = parseFinding(own.slice(start, end));
    if (finding) read.push(finding);
  }
  return read;
}

/** A string with the same characters that shares no memory with `value` (UTF-16 keeps every code unit as it is). */
function copyOf(value: string): string {
  return Buffer.from(value, 'utf16le').toString('utf16le');
}

/**
 * Reads `TESTID|text|details|solution|`. Lynis does not escape `|`, so a line with more fields has one inside
 * its text: the free-form field, while details and solution are short. Lines without a test id are no finding.
 */
function parseFinding(line: string): Finding | null {
  const fields = line.split('|');
  if (fields.length > 1 && fields[fields.length - 1] === '') fields.pop(); // the closing `|`
  const testId = fields[0]!;
  if (testId === '') return null;
  if (fields.length > 4) return { testId, text: fields.slice(1, -2).join('|'), details: absentAsNull(fields.at(-2)), solution: absentAsNull(fields.at(-1)) };
  return { testId, text: fields[1] ?? '', details: absentAsNull(fields[2]), solution: absentAsNull(fields[3]) };
}

/** Lynis writes `-` (or nothing) for a field it has no value for. */
function absentAsNull(field: string | undefined): string | null {
  return field === undefined || field === '' || field === '-' ? null : field;
}
