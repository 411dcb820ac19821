import { describe, expect, it } from 'vitest';
import { formatBytes, formatTime, pageCaption } from './format.js';

describe('formatting', () => {
  it('shows a time of the API in UTC, to the second, and a dash for none', () => {
    expect(formatTime('2026-11-23T14:05:09.123Z')).toBe('2026-11-23 14:05:09 UTC');
    expect(formatTime(null)).toBe('—');
    expect(formatTime(undefined)).toBe('—');
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
