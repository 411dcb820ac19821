import type { Rule, RuleError } from '../generated/types.gen.js';
import { RULE_BUDGET } from './rule-budget.js';
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

/** Most rules a policy has (the contract's `maxItems`). */
const MAX_RULES = 50;

let runner: RuleRunner | undefined;

/** Each rule that exceeds its budget on the synthetic report, as a rule error (position null, the message naming the budget). */
export async function budgetErrors(rules: Pick<Rule, 'id' | 'expression'>[]): Promise<RuleError[]> {
  // The report is parsed once for every rule, each rule with its own time budget (not a share of a host's).
  runner ??= new RuleRunner({ limits: { ...RULE_BUDGET, hostTimeMs: MAX_RULES * RULE_BUDGET.timeMs } });
  const facts = {
    hostname: 'synthetic',
    hostId: 'f'.repeat(40),
    keyId: '00000000-0000-0000-0000-000000000000',
    groups: ['web'],
    tags: ['prod'],
    lastSeen: Date.now(),
  };
  const { outcomes, incidents } = await runner.run({
    hosts: [{ text: SYNTHETIC_REPORT, unreadable: null, facts, policies: [0] }],
    policies: [{ id: 'check', rules: rules.map((rule) => ({ id: rule.id, expression: rule.expression })) }],
    now: Date.now(),
  });
  const errors = new Map<string, string>();
  for (const { ruleId, outcome } of outcomes[0] ?? []) if (outcome.overrun) errors.set(ruleId, outcome.message!);
  for (const incident of incidents) errors.set(incident.ruleId, incident.message);
  return [...errors].map(([ruleId, message]) => ({ ruleId, position: null, message: `${message} on a large synthetic report (the evaluation budget)` }));
}
