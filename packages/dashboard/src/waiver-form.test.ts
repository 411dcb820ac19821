import { describe, expect, it } from 'vitest';
import { startOfLocalDay } from './date-input.js';
import { defaultExpiry, expiryBounds, expiryProblem, waiverInputOf } from './waiver-form.js';

const NOW = new Date(2026, 10, 26, 14, 30); // 26 November 2026, 14:30 local time
const TARGET = { policyId: 'p-1', ruleId: 'firewall-active', hostRecordId: 'h-1' };
const VALUES = { reason: '  Firewalled upstream  ', expiresAt: '2027-02-24T00:00:00.000Z' };

describe('the waiver form', () => {
  it('proposes 90 days ahead, or the last day the server allows when that is sooner', () => {
    expect(defaultExpiry(NOW, 365)).toBe('2027-02-24');
    expect(defaultExpiry(NOW, 30)).toBe('2026-12-26');
  });

  it('offers tomorrow up to maxDays ahead, and says why another day cannot be used', () => {
    expect(expiryBounds(NOW, 365)).toEqual({ min: '2026-11-27', max: '2027-11-26' });
    expect(expiryProblem('2027-11-26', NOW, 365)).toBeUndefined();
    expect(expiryProblem('2027-11-27', NOW, 365)).toBe('An exception may run for at most 365 days (until 2027-11-26).');
    expect(expiryProblem('2026-11-26', NOW, 365)).toBe('The exception must end after today.');
    expect(expiryProblem('', NOW, 365)).toBe('Choose the day the exception ends.');
  });

  it('ends a waiver at the start of its local day, so the last day offered stays within the maximum', () => {
    expect(startOfLocalDay('2027-02-24')).toBe(new Date(2027, 1, 24).toISOString());
    const last = new Date(startOfLocalDay(expiryBounds(NOW, 365).max)).getTime();
    expect(last - NOW.getTime()).toBeLessThanOrEqual(365 * 24 * 3600 * 1000);
  });

  it('maps each scope to the waiver it asks for', () => {
    expect(waiverInputOf({ ...VALUES, scope: 'host' }, TARGET)).toEqual({
      policyId: 'p-1',
      ruleId: 'firewall-active',
      hostRecordId: 'h-1',
      reason: 'Firewalled upstream',
      expiresAt: VALUES.expiresAt,
    });
    expect(waiverInputOf({ ...VALUES, scope: 'group', group: 'web' }, TARGET)).toEqual({
      policyId: 'p-1',
      ruleId: 'firewall-active',
      group: 'web',
      reason: 'Firewalled upstream',
      expiresAt: VALUES.expiresAt,
    });
    expect(waiverInputOf({ ...VALUES, scope: 'fleet' }, { policyId: 'p-1' })).toEqual({
      policyId: 'p-1',
      ruleId: null,
      reason: 'Firewalled upstream',
      expiresAt: VALUES.expiresAt,
    });
  });

  it('refuses a host scope without the host and a group scope without the group', () => {
    expect(() => waiverInputOf({ ...VALUES, scope: 'host' }, { policyId: 'p-1' })).toThrow('A host waiver needs the host.');
    expect(() => waiverInputOf({ ...VALUES, scope: 'group' }, TARGET)).toThrow('Choose the group.');
  });
});
