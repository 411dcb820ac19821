// What counts as a report: the minimum an upload's `data` must hold to be stored (the contract's upload description).

const LF = 0x0a;
const CR = 0x0d;
const UTF8_BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);
/** The lines that mark a Lynis report: Lynis writes `report_version_major=` first and `lynis_version=` soon after. */
const HEADER_PREFIXES = [Buffer.from('report_version_major='), Buffer.from('lynis_version=')];
/** The line Lynis writes last, once the audit completed (`lynis` itself, before `data_upload` runs). */
const FINISHED = Buffer.from('finish=true');

/**
 * Why `report` is not a finished Lynis report, or null when it is one: it has a `report_version_major=` or
 * `lynis_version=` line and a `finish=true` line. Read from the bytes, so a report that is not UTF-8 (a Latin-1
 * file name in it) still counts; `Buffer.indexOf` keeps it at a fraction of a millisecond for the captured report.
 */
export function incompleteReportReason(report: Buffer): string | null {
  const start = report.subarray(0, UTF8_BYTE_ORDER_MARK.length).equals(UTF8_BYTE_ORDER_MARK) ? UTF8_BYTE_ORDER_MARK.length : 0;
  if (!HEADER_PREFIXES.some((prefix) => hasLineStartingWith(report, start, prefix, false))) return 'no report_version_major= or lynis_version= line';
  if (!hasLineStartingWith(report, start, FINISHED, true)) return 'no finish=true line';
  return null;
}

/** Whether a line of `report` from `start` on starts with `prefix` (or, `whole`, is exactly `prefix`, CRLF allowed). */
function hasLineStartingWith(report: Buffer, start: number, prefix: Buffer, whole: boolean): boolean {
  for (let at = report.indexOf(prefix, start); at !== -1; at = report.indexOf(prefix, at + 1)) {
    if (at !== start && report[at - 1] !== LF) continue;
    if (!whole) return true;
    const end = at + prefix.length;
    if (end === report.length || report[end] === LF || (report[end] === CR && (end + 1 === report.length || report[end + 1] === LF))) return true;
  }
  return false;
}
