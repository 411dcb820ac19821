import { describe, expect, it } from 'vitest';
import { attemptsText, changeText, percentText, periodText, scopeText } from './digest-text.js';

describe('digest text', () => {
  it('names the scope, the figures and the period as the digest page shows them', () => {
    expect(scopeText({ group: 'webservers', customer: null })).toBe('group webservers');
    expect(scopeText({ customer: 'acme' })).toBe('customer acme');
    expect(scopeText({})).toBe('the fleet');
    expect(percentText(95.83)).toBe('95.8%');
    expect(percentText(null)).toBe('n/a');
    expect([changeText(2.14), changeText(-0.4), changeText(0), changeText(null)]).toEqual(['+2.1', '−0.4', '±0.0', '—']);
    expect([attemptsText(1), attemptsText(5)]).toEqual(['1 attempt', '5 attempts']);
    expect(periodText({ periodStart: '2026-10-26T00:00:00.000Z', periodEnd: '2026-11-02T00:00:00.000Z' })).toBe('2026-10-26 to 2026-11-01');
  });
});
