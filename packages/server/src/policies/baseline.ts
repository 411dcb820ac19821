import type { PolicyInput } from '../generated/types.gen.js';

/** The policy `enableBaselinePolicy` creates: what most fleets start from. */
export const BASELINE_POLICY: Required<Pick<PolicyInput, 'name' | 'description' | 'enabled' | 'rules'>> & { scope: object } = {
  name: 'Baseline',
  description: 'Hardening index at least 60, no vulnerable packages, no warnings, audited within the last 7 days.',
  enabled: true,
  scope: {},
  rules: [
    { id: 'hardening-index', description: 'Hardening index of at least 60', expression: 'summary.hardeningIndex >= 60' },
    { id: 'no-vulnerable-packages', description: 'No vulnerable packages', expression: 'size(report.vulnerable_package) == 0' },
    { id: 'no-warnings', description: 'No warnings', expression: 'size(summary.warnings) == 0' },
    { id: 'audited-recently', description: 'Audited within the last 7 days', expression: "now - host.lastSeen < duration('168h')" },
  ],
};
