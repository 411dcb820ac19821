import type { Finding, PackageVersion, ReportChanges, ReportValue } from './generated/types.gen.js';
import type { ParsedLynisReport } from './lynis-report.js';

/** Keys the diff reports in fields of their own, so `values` leaves them out. */
const KEYS_WITH_FIELDS: ReadonlySet<string> = new Set(['hardening_index', 'warning[]', 'suggestion[]', 'installed_packages_array', 'vulnerable_package[]']);
const ARRAY_SUFFIX = '[]';

/**
 * What changed from one Lynis report (`before`) to a later one of the same host (`after`): the hardening index,
 * warnings and suggestions added and resolved, packages added, removed and upgraded, vulnerable packages added
 * and resolved, and every other key added, removed or changed (`key[]` keys compared as sets of values).
 * A pure function of the two parsed reports; every list is in the order of the report it comes from.
 */
export function diffLynisReports(before: ParsedLynisReport, after: ParsedLynisReport): ReportChanges {
  return {
    hardeningIndex: { before: before.summary.hardeningIndex, after: after.summary.hardeningIndex },
    warnings: findingChanges(before.summary.warnings, after.summary.warnings),
    suggestions: findingChanges(before.summary.suggestions, after.summary.suggestions),
    packages: packageChanges(installedPackages(before.values), installedPackages(after.values)),
    vulnerablePackages: setChanges(listOf(before.values, 'vulnerable_package[]'), listOf(after.values, 'vulnerable_package[]'), 'resolved'),
    values: valueChanges(before.values, after.values),
  };
}

/** Findings present only after (added) and only before (resolved), compared whole. */
function findingChanges(before: Finding[], after: Finding[]): ReportChanges['warnings'] {
  const identity = (finding: Finding) => JSON.stringify([finding.testId, finding.text, finding.details, finding.solution]);
  const beforeIds = new Set(before.map(identity));
  const afterIds = new Set(after.map(identity));
  return {
    added: after.filter((finding) => !beforeIds.has(identity(finding))),
    resolved: before.filter((finding) => !afterIds.has(identity(finding))),
  };
}

/** The packages of `installed_packages_array` (`|name,version|name,version|`), by name; the last entry of a name wins. */
function installedPackages(values: ParsedLynisReport['values']): Map<string, string> {
  const packages = new Map<string, string>();
  const line = values['installed_packages_array'];
  if (typeof line !== 'string') return packages;
  for (const entry of line.split('|')) {
    const comma = entry.indexOf(',');
    if (comma > 0) packages.set(entry.slice(0, comma), entry.slice(comma + 1));
  }
  return packages;
}

function packageChanges(before: Map<string, string>, after: Map<string, string>): ReportChanges['packages'] {
  const changes: ReportChanges['packages'] = { added: [], removed: [], changed: [] };
  for (const [name, version] of after) {
    const previous = before.get(name);
    if (previous === undefined) changes.added.push({ name, version } satisfies PackageVersion);
    else if (previous !== version) changes.changed.push({ name, before: previous, after: version });
  }
  for (const [name, version] of before) if (!after.has(name)) changes.removed.push({ name, version });
  return changes;
}

/** The values of a `key[]` key, or of a key written once as a list of one. */
function listOf(values: ParsedLynisReport['values'], key: string): string[] {
  const value = values[key];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Items only in `after` (added) and only in `before` (under `goneName`), each list in its report's order. */
function setChanges<Gone extends string>(before: string[], after: string[], goneName: Gone): { added: string[] } & Record<Gone, string[]> {
  const beforeSet = new Set(before);
  const afterSet = new Set(after);
  return {
    added: [...afterSet].filter((item) => !beforeSet.has(item)),
    [goneName]: [...beforeSet].filter((item) => !afterSet.has(item)),
  } as { added: string[] } & Record<Gone, string[]>;
}

/** Every other key: single values added, removed or changed; `key[]` values added or removed as sets. */
function valueChanges(before: ParsedLynisReport['values'], after: ParsedLynisReport['values']): ReportChanges['values'] {
  const changes: ReportChanges['values'] = { added: [], removed: [], changed: [] };
  const keys = new Set([...Object.keys(before), ...Object.keys(after)].filter((key) => !KEYS_WITH_FIELDS.has(key)));
  for (const key of keys) {
    const [was, is] = [before[key], after[key]];
    if (key.endsWith(ARRAY_SUFFIX) || Array.isArray(was) || Array.isArray(is)) {
      const { added, removed } = setChanges(listOf(before, key), listOf(after, key), 'removed');
      changes.added.push(...added.map((value): ReportValue => ({ key, value })));
      changes.removed.push(...removed.map((value): ReportValue => ({ key, value })));
    } else if (was === undefined) changes.added.push({ key, value: is as string });
    else if (is === undefined) changes.removed.push({ key, value: was });
    else if (was !== is) changes.changed.push({ key, before: was, after: is });
  }
  return changes;
}
