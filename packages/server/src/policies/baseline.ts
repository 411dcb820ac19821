import type { PolicyInput } from '../generated/types.gen.js';

/**
 * Warnings Lynis gives on nearly every host, which the baseline's warnings rule leaves out (the captured Debian 12
 * report in fixtures/lynis has exactly these two):
 * - `PKGS-7392` "Found one or more vulnerable packages": it goes with the `vulnerable_package[]` lines, which the
 *   `no-vulnerable-packages` rule already checks; counting it again would fail one finding twice.
 * - `LOGG-2138` "klogd is not running": Debian and Ubuntu install no klogd, systemd-journald reads the kernel's
 *   messages instead, so the warning is there on a host that loses none of them.
 */
export const BASELINE_IGNORED_WARNINGS = ['PKGS-7392', 'LOGG-2138'] as const;

/** The lowest hardening index the baseline accepts: the captured Debian 12 report scores 56, so 50 leaves room for a service or two. */
export const BASELINE_HARDENING_FLOOR = 50;

const ignored = BASELINE_IGNORED_WARNINGS.map((testId) => `'${testId}'`).join(', ');

/**
 * The policy `enableBaselinePolicy` creates: what most fleets start from, chosen so that a freshly installed, kept
 * up to date Debian or Ubuntu host passes it. Rule ids are those of earlier releases, so waivers and scripts that
 * name them keep working.
 */
export const BASELINE_POLICY: Required<Pick<PolicyInput, 'name' | 'description' | 'enabled' | 'rules'>> & { scope: object } = {
  name: 'Baseline',
  description: `Hardening index at least ${BASELINE_HARDENING_FLOOR}, no vulnerable packages, firewall active, no warnings besides ${BASELINE_IGNORED_WARNINGS.join(' and ')}, audited within the last 7 days.`,
  enabled: true,
  scope: {},
  rules: [
    {
      id: 'hardening-index',
      description: `Hardening index of at least ${BASELINE_HARDENING_FLOOR}: a fresh Debian 12 install with a few services scores about 56; far lower means hardening was undone`,
      expression: `summary.hardeningIndex >= ${BASELINE_HARDENING_FLOOR}`,
    },
    {
      id: 'no-vulnerable-packages',
      description: 'No vulnerable packages: security updates are waiting to be installed (Lynis PKGS-7392)',
      expression: 'size(report.vulnerable_package) == 0',
    },
    {
      id: 'firewall-active',
      description: 'Firewall active (Lynis found a loaded packet filter, `firewall_active=1`): a host exposes only the ports it means to',
      expression: "report.firewall_active == '1'",
    },
    {
      id: 'no-warnings',
      description: `No warnings besides ${BASELINE_IGNORED_WARNINGS.join(' and ')} (vulnerable packages, checked by their own rule; klogd, which systemd-journald replaces): any other warning is worth a look`,
      expression: `size(summary.warnings.filter(w, !(w.testId in [${ignored}]))) == 0`,
    },
    {
      id: 'audited-recently',
      description: 'Audited within the last 7 days: results of an older report say little about the host today',
      expression: "now - host.lastSeen < duration('168h')",
    },
  ],
};
