import { describe, expect, it } from 'vitest';
import type { Waiver } from '@org/audit-client/sdk';
import { bySoonestExpiry, coverageOf, expiryState } from './waivers.js';

const NOW = new Date('2026-11-26T12:00:00Z');

describe('waivers as the Exceptions page shows them', () => {
  it('marks a waiver ending within 14 days as expiring soon, and an ended one as expired', () => {
    expect(expiryState('2026-12-10T12:00:00Z', NOW)).toBe('soon');
    expect(expiryState('2026-12-10T12:00:01Z', NOW)).toBeUndefined();
    expect(expiryState('2026-11-26T12:00:00Z', NOW)).toBe('expired');
  });

  it('names what a waiver covers: its host (linked), its group, or every host', () => {
    expect(coverageOf({ hostRecordId: 'h-1', hostname: 'web-01', group: null })).toEqual({ text: 'web-01', hostRecordId: 'h-1' });
    expect(coverageOf({ hostRecordId: 'h-1', hostname: null, group: null })).toEqual({ text: '(no host name)', hostRecordId: 'h-1' });
    expect(coverageOf({ hostRecordId: null, hostname: null, group: 'web' })).toEqual({ text: 'group web' });
    expect(coverageOf({ hostRecordId: null, hostname: null, group: null })).toEqual({ text: 'every host' });
  });

  it('lists the soonest expiry first', () => {
    const waiver = (id: string, expiresAt: string) => ({ id, expiresAt }) as Waiver;
    const sorted = bySoonestExpiry([waiver('b', '2027-01-02T00:00:00.000Z'), waiver('c', '2026-12-01T00:00:00.000Z'), waiver('a', '2027-01-02T00:00:00.000Z')]);
    expect(sorted.map((w) => w.id)).toEqual(['c', 'a', 'b']);
  });
});
