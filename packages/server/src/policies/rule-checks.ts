import type { Rule, RuleError } from '@org/audit-server-core';
import { RuleRunner } from './rule-runner.js';

/** Entries of each list of the synthetic report: far more than real reports hold. */
const LIST_ENTRIES = 500;
const PACKAGES = 3000;

/**
 * A large report, the worst a rule is checked against before it is saved: hundreds of warnings, suggestions,
 * vulnerable packages and list entries, thousands of installed packages, and long strings.
 */
const SYNTHETIC_REPORT = (() => {
  const lines = ['report_version_major=1', 'report_version_minor=0', 'lynis_version=3.0.8', 'hardening_index=56', 'os=Linux', `os_name=${'x'.repeat(10_000)}`];
  for (let i = 0; i < LIST_ENTRIES; i++) {
    lines.push(`warning[]=TEST-${1000 + i}|A warning with a long text ${'w'.repeat(200)}|-|-|`);
    lines.push(`suggestion[]=TEST-${1000 + i}|A suggestion with a long text ${'s'.repeat(200)}|-|-|`);
    lines.push(`vulnerable_package[]=package-${i}`, `pam_module[]=pam_${i}.so`, `running_service[]=service-${i}`, `network_listen[]=0.0.0.0:${1000 + i}`);
  }
  lines.push(`installed_packages_array=|${Array.from({ length: PACKAGES }, (_, i) => `package-${i},1.${i}.0-${'v'.repeat(20)}`).join('|')}|`);
  return `${lines.join('\n')}\n`;
})();

let runner: RuleRunner | undefined;

/** Each rule that exceeds its budget on the synthetic report, as a rule error (position null, the message naming the budget). */
export async function budgetErrors(rules: Pick<Rule, 'id' | 'expression'>[]): Promise<RuleError[]> {
  runner ??= new RuleRunner();
  const facts = { hostname: 'synthetic', hostId: 'f'.repeat(40), keyId: '00000000-0000-0000-0000-000000000000', groups: ['web'], tags: ['prod'], lastSeen: Date.now() };
  // One host per rule, so that each rule has the whole budget of a host.
  const { outcomes, incidents } = await runner.run({
    hosts: rules.map((_, index) => ({ text: SYNTHETIC_REPORT, unreadable: null, facts, policies: [index] })),
    policies: rules.map((rule) => ({ id: rule.id, rules: [{ id: rule.id, expression: rule.expression }] })),
    now: Date.now(),
  });
  const errors = new Map<string, string>();
  rules.forEach((rule, index) => {
    const outcome = outcomes[index]?.find((candidate) => candidate.ruleId === rule.id)?.outcome;
    if (outcome?.overrun) errors.set(rule.id, outcome.message!);
  });
  for (const incident of incidents) errors.set(incident.ruleId, incident.message);
  return [...errors].map(([ruleId, message]) => ({ ruleId, position: null, message: `${message} on a large synthetic report (the evaluation budget)` }));
}
