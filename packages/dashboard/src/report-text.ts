// What the dashboard reads out of a report's text itself, where the API's summary does not carry it.

/** The `vulnerable_package[]` lines of a Lynis report: the packages it found with known vulnerabilities, each once, sorted. */
export function vulnerablePackagesOf(report: string): string[] {
  const names = [...report.matchAll(/^vulnerable_package\[\]=(.*?)\r?$/gm)].map((match) => match[1]!.trim()).filter(Boolean);
  return [...new Set(names)].sort();
}
