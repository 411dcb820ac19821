// One demo host's Lynis report: the real report the package ships (a copy of the captured Lynis 3.0.8 report, which a
// test keeps byte for byte equal to the fixture), with the lines that tell hosts apart rewritten, so that every report
// the demo fleet stores is shaped as Lynis writes it and is read by the same parser as an upload.
import { readFileSync } from 'node:fs';

/** Where the shipped report lies, from `src/demo/` and from `dist/demo/` alike (`src` is part of the package). */
export const DEMO_REPORT_URL = new URL('../../src/demo/lynis-report.dat', import.meta.url);

/** The shipped report's text, read once. */
let shipped: string | undefined;
export function shippedReport(): string {
  shipped ??= readFileSync(DEMO_REPORT_URL, 'utf8');
  return shipped;
}

/** An operating system as Lynis names it. */
export interface DemoOs {
  name: string;
  fullName: string;
  version: string;
  kernel: string;
  /** Debian and Ubuntu: the report keeps the Debian-only suggestions (`DEB-…`). */
  debianFamily: boolean;
}

/** What one report of one demo host says, beyond what the shipped report says as it is. */
export interface DemoReportLines {
  hostname: string;
  hostId: string;
  hostId2: string;
  os: DemoOs;
  lynisVersion: string;
  hardeningIndex: number;
  /** When the audit ended; it started a minute before. */
  finishedAt: Date;
  groups: string[];
  tags: string[];
  /** The shipped report's finding lines (`warning[]=…`, `suggestion[]=…`, by their index in {@link findingLines}) kept. */
  keptFindings: ReadonlySet<number>;
}

/** The shipped report's warning and suggestion lines, in order: the pool every demo report takes its findings from. */
export function findingLines(report = shippedReport()): string[] {
  return report.split('\n').filter(isFinding);
}

const isFinding = (line: string) => line.startsWith('warning[]=') || line.startsWith('suggestion[]=');
const isWarning = (line: string) => line.startsWith('warning[]=');
/** The warning whose presence the `vulnerable_package[]` lines go with. */
const VULNERABLE_PACKAGES_WARNING = 'warning[]=PKGS-7392|';

/** Whether a finding of the shipped report fits the host: Debian's checks only on Debian and Ubuntu, "this release is old" only on the shipped report's version. */
const fitsHost = (line: string, lines: DemoReportLines) =>
  (lines.os.debianFamily || !line.startsWith('suggestion[]=DEB-')) && (lines.lynisVersion === SHIPPED_LYNIS_VERSION || !line.startsWith('suggestion[]=LYNIS|'));
/** The Lynis version that wrote the shipped report. */
export const SHIPPED_LYNIS_VERSION = '3.0.8';

/** Lynis's time format in `report_datetime_*`: local time, here UTC. */
const lynisTime = (time: Date) => time.toISOString().slice(0, 19).replace('T', ' ');

/** The values of the single-valued lines a demo report rewrites, by key. */
function rewrittenValues(lines: DemoReportLines): Record<string, string> {
  const { os } = lines;
  return {
    report_datetime_start: lynisTime(new Date(lines.finishedAt.getTime() - 51_000)),
    report_datetime_end: lynisTime(lines.finishedAt),
    lynis_version: lines.lynisVersion,
    os_name: os.name,
    os_fullname: os.fullName,
    os_version: os.version,
    linux_version: os.name,
    os_kernel_version: os.kernel.replace(/-.*$/, ''),
    os_kernel_version_full: os.kernel,
    hostname: lines.hostname,
    hostid: lines.hostId,
    hostid2: lines.hostId2,
    hardening_index: String(lines.hardeningIndex),
  };
}

/**
 * The report one demo host sends: the shipped report with its host's names, ids, system, version, time and
 * hardening index, only the findings kept (the `vulnerable_package[]` lines only while their warning is), and the
 * profile's `system-groups=` and `tags=` lines after `hostname=`, where a profile's settings would be read.
 */
export function demoReport(lines: DemoReportLines, report = shippedReport()): string {
  const values = rewrittenValues(lines);
  const findings = findingLines(report);
  const kept = new Set(findings.filter((_, index) => lines.keptFindings.has(index)));
  const vulnerable = [...kept].some((line) => line.startsWith(VULNERABLE_PACKAGES_WARNING));
  const out: string[] = [];
  for (const line of report.split('\n')) {
    if (isFinding(line)) {
      if (kept.has(line) && fitsHost(line, lines)) out.push(line);
      continue;
    }
    if (line.startsWith('vulnerable_package[]=') && !vulnerable) continue;
    const key = line.slice(0, line.indexOf('='));
    if (key === 'vulnerable_packages_found') out.push(`${key}=${vulnerable ? 1 : 0}`);
    else if (key in values) out.push(`${key}=${values[key]}`);
    else out.push(line);
    if (key === 'hostname') out.push(`system-groups=${lines.groups.join(',')}`, `tags=${lines.tags.join(',')}`);
  }
  return out.join('\n');
}

/** The indexes in {@link findingLines} of the warnings, and of the suggestions. */
export function findingIndexes(report = shippedReport()): { warnings: number[]; suggestions: number[] } {
  const warnings: number[] = [];
  const suggestions: number[] = [];
  findingLines(report).forEach((line, index) => (isWarning(line) ? warnings : suggestions).push(index));
  return { warnings, suggestions };
}
