import { describe, expect, it } from 'vitest';
import { parseLynisReport } from '@org/audit-server-core';
import { HEAP_RULE, SLOW_RULE, STALLING_RULE } from '@org/test-support/hostile-rules';
import { lynisCapture } from '@org/test-support/lynis-fixtures';
import { BASELINE_POLICY } from './baseline.js';
import { RULE_BUDGET, RuleBudget } from './rule-budget.js';
import { compileRule, evaluateRule, isExpressionError, type CompiledRule } from './rule-expression.js';
import { ruleVariables, type HostFacts } from './rule-variables.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const HOST: HostFacts = {
  hostname: 'web-01',
  hostId: 'a'.repeat(40),
  keyId: '0f8fad5b-d9cb-469f-a165-70867728950e',
  groups: ['web'],
  tags: ['prod'],
  lastSeen: new Date('2026-11-23T11:00:00Z'),
};

/** The captured Lynis 3.0.8 report: hardening index 56, 81 vulnerable packages, 2 warnings. */
const captured = parseLynisReport(lynisCapture.report.toString('utf8'))!;

function compiled(expression: string): CompiledRule {
  const rule = compileRule(expression);
  if (isExpressionError(rule)) throw new Error(`${expression}: ${rule.message}`);
  return rule;
}

const evaluate = (expression: string, text = lynisCapture.report.toString('utf8'), host = HOST) =>
  evaluateRule(compiled(expression), ruleVariables(parseLynisReport(text)!, host, NOW));

/** A minimal Lynis report with the given lines. */
const report = (...lines: string[]) => ['report_version_major=1', 'report_version_minor=0', 'lynis_version=3.0.8', ...lines, ''].join('\n');

describe('rules evaluated on a report', () => {
  it('the issue examples give pass or fail, and show the value the comparison looked at', () => {
    expect(captured.summary.hardeningIndex).toBe(56);
    expect(evaluate('summary.hardeningIndex >= 50')).toEqual({ status: 'pass', value: '56', message: null });
    expect(evaluate('summary.hardeningIndex >= 60')).toEqual({ status: 'fail', value: '56', message: null });
    expect(evaluate('size(report.vulnerable_package) == 0')).toEqual({ status: 'fail', value: '81', message: null });
    expect(evaluate("!('PKGS-7392' in summary.warnings.map(w, w.testId))").status).toBe('fail');
    expect(evaluate("!('NOPE-0000' in summary.warnings.map(w, w.testId))").status).toBe('pass');
    expect(evaluate("report.firewall_active == '1'").status).toBe(captured.values['firewall_active'] === '1' ? 'pass' : 'fail');
    expect(evaluate("now - host.lastSeen < duration('168h')").status).toBe('pass');
    expect(evaluate("now - host.lastSeen < duration('168h')", undefined, { ...HOST, lastSeen: new Date('2026-11-10T00:00:00Z') }).status).toBe('fail');
  });

  it('a Lynis list key the report lacks is an empty list; any other missing key is an error naming it', () => {
    expect(evaluate('size(report.vulnerable_package) == 0', report('hardening_index=70'))).toEqual({ status: 'pass', value: '0', message: null });
    expect(evaluate("report.firewall_active == '1'", report('hardening_index=70'))).toMatchObject({
      status: 'error',
      message: expect.stringContaining('firewall_active'),
    });
    expect(evaluate("has(report.firewall_active) && report.firewall_active == '1'", report()).status).toBe('fail');
  });

  it('reads installed packages as a map of name to version, and the host facts', () => {
    expect(evaluate("report.installed_packages_array['openssl'].startsWith('3.0')").status).toBe('pass');
    expect(evaluate("!('telnetd' in report.installed_packages_array)").status).toBe('pass');
    expect(evaluate("'web' in host.groups && 'prod' in host.tags && host.hostname == 'web-01'").status).toBe('pass');
  });

  it('a rule that gives no boolean, or fails at run time, is an error, not a pass or a fail', () => {
    expect(evaluate('summary.hardeningIndex')).toMatchObject({ status: 'error', message: 'the expression gave 56, not true or false' });
    expect(evaluate('summary.hardeningIndex / 0 > 1')).toMatchObject({ status: 'error', message: 'division by zero' });
    expect(evaluate('summary.hardeningIndex >= 60', report())).toMatchObject({ status: 'error', value: 'null' });
  });

  it('keys named like object internals are ordinary keys', () => {
    const text = report('__proto__=polluted', 'constructor=x', 'toString=y');
    expect(evaluate("report['__proto__'] == 'polluted' && report['constructor'] == 'x'", text).status).toBe('pass');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('the baseline policy compiles; the captured report, a kept Debian 12 host, fails only on its vulnerable packages', () => {
    const results = Object.fromEntries(BASELINE_POLICY.rules.map((rule) => [rule.id, evaluate(rule.expression).status]));
    expect(results).toEqual({
      'hardening-index': 'pass',
      'no-vulnerable-packages': 'fail',
      'firewall-active': 'pass',
      'no-warnings': 'pass',
      'audited-recently': 'pass',
    });
  });
});

describe('rules checked when saved', () => {
  it('a syntax or type error names its position', () => {
    expect(compileRule('summary.hardeningIndex >= ')).toMatchObject({ position: 26, message: 'Unexpected token: EOF' });
    expect(compileRule('hosts.size() > 1')).toMatchObject({ position: 0, message: 'Unknown variable: hosts' });
    expect(compileRule("size(summary) + 'a' > 1")).toMatchObject({ message: expect.stringContaining('no such overload') });
    expect(compileRule('1 + 2')).toEqual({ position: 0, message: 'the expression gives int, not bool' });
  });

  it('refuses what could cost more than in proportion to the report', () => {
    expect(compileRule("report.os_name.matches('(a+)+$')")).toMatchObject({ message: expect.stringContaining('matches() is not allowed') });
    expect(compileRule('report.pam_module.exists(a, report.pam_module.exists(b, a == b))')).toMatchObject({
      position: 28,
      message: expect.stringContaining('inside another comprehension'),
    });
    expect(compileRule(Array(120).fill('summary.hardeningIndex').join(' + ') + ' > 1')).toMatchObject({ message: expect.stringContaining('maxAstNodes') });
    expect(isExpressionError(compileRule('report.pam_module.exists(a, a == "x") && summary.warnings.all(w, w.testId != "y")'))).toBe(false);
  });

  it('knows which rules read the clock', () => {
    expect(compiled("now - host.lastSeen < duration('1h')").readsNow).toBe(true);
    expect(compiled('summary.hardeningIndex >= 60').readsNow).toBe(false);
    expect(compiled('summary.warnings.all(now, now.testId != "x")').readsNow).toBe(true);
  });
});

describe('budgets (issue 24: rules whose shape passes but whose cost does not)', () => {
  const variables = () => ruleVariables(captured, HOST, NOW);

  it('the hostile rules pass the shape checks, as they did when saved', () => {
    for (const rule of [STALLING_RULE, HEAP_RULE, SLOW_RULE]) expect(isExpressionError(compileRule(rule)), rule).toBe(false);
  });

  it('a rule building a string of a million characters is an error at once, saying which budget', () => {
    const started = performance.now();
    expect(evaluateRule(compiled(STALLING_RULE), variables())).toEqual({
      status: 'error',
      value: null,
      message: `the rule built a string longer than ${RULE_BUDGET.stringCharacters} characters`,
      overrun: 'size',
    });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('a join is measured before it is built: the heap-exhausting rule is an error, not an out-of-memory', () => {
    expect(evaluateRule(compiled(HEAP_RULE), variables())).toMatchObject({
      status: 'error',
      overrun: 'size',
      message: expect.stringMatching(/^the rule built a string longer than/),
    });
  });

  it('a rule that builds little but runs long is stopped by the clock', () => {
    const started = performance.now();
    expect(evaluateRule(compiled(SLOW_RULE), variables())).toEqual({
      status: 'error',
      value: null,
      message: `the rule exceeded its time budget of ${RULE_BUDGET.timeMs} ms`,
      overrun: 'time',
    });
    expect(performance.now() - started).toBeLessThan(RULE_BUDGET.timeMs + 1000);
  });

  it('lists built count too, one by one and in all; an excess swallowed by || is still an error', () => {
    const small = { ...RULE_BUDGET, listElements: 10, totalElements: 25 };
    expect(evaluateRule(compiled("'abcdefghijkl'.split('').size() > 0"), variables(), new RuleBudget(small))).toMatchObject({
      message: 'the rule built a list longer than 10 elements',
    });
    expect(evaluateRule(compiled("[1,2,3].map(x, 'abcdefghi'.split('')).size() > 0 || true"), variables(), new RuleBudget(small))).toMatchObject({
      status: 'error',
      message: 'the rule built more than 25 list elements in all',
    });
  });

  it('ordinary rules are unaffected', () => {
    expect(evaluate("report.vulnerable_package.map(p, p + '!').size() > 0 && summary.warnings.exists(w, w.testId.startsWith('A'))")).toMatchObject({
      status: expect.stringMatching(/pass|fail/),
    });
    expect(evaluate('summary.hardeningIndex >= 50')).toEqual({ status: 'pass', value: '56', message: null });
  });
});
