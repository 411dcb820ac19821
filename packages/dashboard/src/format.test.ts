import { describe, expect, it } from 'vitest';
import { formatBytes, formatTime, formatUtc, pageCaption } from './format.js';

describe('formatting', () => {
  it('shows a time of the API in a time zone, named, to the second, and a dash for none', () => {
    expect(formatTime('2026-11-23T14:05:09.123Z', 'UTC')).toBe('2026-11-23 14:05:09 UTC');
    expect(formatTime('2026-11-23T14:05:09.123Z', 'Europe/Paris')).toBe('2026-11-23 15:05:09 GMT+1');
    expect(formatTime('2026-07-01T02:30:00Z', 'America/New_York')).toBe('2026-06-30 22:30:00 EDT');
    expect(formatTime('2026-11-23T23:59:59Z', 'Asia/Kolkata')).toBe('2026-11-24 05:29:59 GMT+5:30');
    expect(formatTime('2026-11-23T00:00:00Z', 'UTC')).toBe('2026-11-23 00:00:00 UTC'); // midnight is 00, never 24
    expect(formatTime(null)).toBe('—');
    expect(formatTime(undefined)).toBe('—');
  });

  it("shows a time in the browser's own time zone when none is given", () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatTime('2026-11-23T14:05:09Z')).toBe(formatTime('2026-11-23T14:05:09Z', zone));
  });

  it('gives the ISO 8601 UTC time for hovering, to the second', () => {
    expect(formatUtc('2026-11-23T14:05:09.123Z')).toBe('2026-11-23T14:05:09Z');
    expect(formatUtc(null)).toBeUndefined();
    expect(formatUtc('not a time')).toBeUndefined();
  });

  it('shows sizes in KB (at least 1) or MB', () => {
    expect(formatBytes(10)).toBe('1 KB');
    expect(formatBytes(48_600)).toBe('49 KB');
    expect(formatBytes(2_345_678)).toBe('2.3 MB');
  });

  it('captions a page of a list with its range, or says why it is empty', () => {
    expect(pageCaption('Hosts', { offset: 50, total: 120, items: new Array(50) }, 'None.')).toBe('Hosts 51–100 of 120');
    expect(pageCaption('Hosts', { offset: 100, total: 120, items: new Array(20) }, 'None.')).toBe('Hosts 101–120 of 120');
    expect(pageCaption('Hosts', { offset: 0, total: 0, items: [] }, 'No host has uploaded a report yet.')).toBe('No host has uploaded a report yet.');
  });
});
