import { describe, expect, it } from 'vitest';
import { asOfDay, asOfText, lastPastDay } from './as-of.js';

describe('as of a past day', () => {
  it('takes real calendar days only', () => {
    expect(asOfDay('2026-10-01')).toBe('2026-10-01');
    for (const bad of [undefined, '', '2026-02-30', '2026-13-01', '2026-10-01T12:00:00Z', 'yesterday']) expect(asOfDay(bad), String(bad)).toBeUndefined();
  });
  it('says the day as the banner reads it, and offers days up to yesterday (UTC)', () => {
    expect(asOfText('2026-10-01')).toBe('As of 1 Oct 2026 (end of day, UTC)');
    expect(asOfText('2026-12-31')).toBe('As of 31 Dec 2026 (end of day, UTC)');
    expect(lastPastDay(Date.parse('2026-11-26T00:30:00Z'))).toBe('2026-11-25');
  });
});
