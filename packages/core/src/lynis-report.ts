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
const ARRAY_SUFFIX = '[]';
const DIGITS = /^\d+$/;

/**
 * Reads a Lynis report (`report.dat`). Returns null when the text is not one: it names neither
 * `lynis_version` nor `report_version_major`.
 *
 * Lines are `key=value` (split at the first `=`) or `key[]=value` (appended to an array); `#` comments, blank
 * lines and lines without a key and `=` are skipped, and CRLF line ends are read like LF.
 *
 * It runs on every upload, so it makes one pass with `indexOf` and no regular expression per line: about
 * 0.05 ms for the captured 42 KB report and 10 ms for 8 MiB of it repeated (splitting into lines and matching
 * each with a regular expression took 60 ms), measured on a shared 2-core machine.
 */
export function parseLynisReport(text: string): ParsedLynisReport | null {
  const values: Record<string, string | string[]> = Object.create(null);
  let lineStart = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
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
      if (nextEquals > lineStart && nextEquals < lineEnd) {
        const key = text.slice(lineStart, nextEquals);
        const value = text.slice(nextEquals + 1, lineEnd);
        if (key.endsWith(ARRAY_SUFFIX)) {
          const list = values[key];
          if (Array.isArray(list)) list.push(value);
          else values[key] = [value];
        } else {
          values[key] = value;
        }
      }
    }
    lineStart = next;
  }
  if (!('lynis_version' in values) && !('report_version_major' in values)) return null;
  return { summary: summarize(values), values };
}

/**
 * The summary of a stored report's bytes: null when they are not UTF-8 text or not a Lynis report. Its strings
 * are copies: slices of the report's text would keep all of it in memory for as long as the summary lives.
 */
export function summarizeReportBytes(report: Buffer): ReportSummary | null {
  if (!isUtf8(report)) return null;
  const parsed = parseLynisReport(report.toString('utf8'));
  return parsed && structuredClone(parsed.summary);
}

function summarize(values: Record<string, string | string[]>): ReportSummary {
  const text = (key: string): string | null => {
    const value = values[key];
    return typeof value === 'string' && value !== '' ? value : null;
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
    warnings: findings(values['warning[]']),
    suggestions: findings(values['suggestion[]']),
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
  const read: Finding[] = [];
  for (const line of lines) {
    const finding = parseFinding(line);
    if (finding) read.push(finding);
  }
  return read;
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
