import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, formatTime, formatUtc, pageCaption, readableRuleValue } from './format.js';

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

  it('writes durations as people do, two units at most, rounding carried over', () => {
    expect(formatDuration(168.881)).toBe('2 min 49 s');
    expect(formatDuration(0.35)).toBe('350 ms');
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(42.54)).toBe('42.5 s');
    expect(formatDuration(7)).toBe('7 s');
    expect(formatDuration(59.97)).toBe('1 min');
    expect(formatDuration(120)).toBe('2 min');
    expect(formatDuration(3600 * 3 + 5 * 60 + 20)).toBe('3 h 5 min');
    expect(formatDuration(604_800)).toBe('7 d');
    expect(formatDuration(86_400 * 8 + 7200)).toBe('8 d 2 h');
    expect(formatDuration(-90)).toBe('-1 min 30 s');
  });

  it("shows the durations in a rule's value as people write them, keeping the exact value aside", () => {
    expect(readableRuleValue('duration("168.881s")')).toEqual({ text: '2 min 49 s', exact: 'duration("168.881s")' });
    expect(readableRuleValue('[duration("60s"), duration("0.5s")]')).toEqual({ text: '[1 min, 500 ms]', exact: '[duration("60s"), duration("0.5s")]' });
    expect(readableRuleValue('"duration(\\"5s\\")"')).toEqual({ text: '"duration(\\"5s\\")"' });
    expect(readableRuleValue('56')).toEqual({ text: '56' });
  });
});
