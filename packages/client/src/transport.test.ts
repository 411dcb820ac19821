// The pieces both clients share.
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './transport.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');
  it.each([
    ['5', 5],
    [' 120 ', 120],
    ['Mon, 23 Nov 2026 10:00:30 GMT', 30],
    ['Mon, 23 Nov 2026 09:00:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j is %j seconds', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });
});
