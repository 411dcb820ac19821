// The smallest report the collector stores (see docs/host-identity-and-quotas.md, "What counts as a report"), for
// tests that upload made-up reports: one place that knows the rule, rather than copies of its lines.

/**
 * A minimal finished Lynis report: the header lines Lynis writes first, `lines` (each a `key=value` line), and the
 * `finish=true` line it writes last once the audit completed.
 */
export function minimalReport(...lines: string[]): string {
  return ['# Lynis Report', 'report_version_major=1', 'report_version_minor=0', ...lines, 'finish=true', ''].join('\n');
}
