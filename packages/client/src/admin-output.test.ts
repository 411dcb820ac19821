import { describe, expect, it } from 'vitest';
import { formatFields, formatPageLine, formatTable, formatTime, printable } from './admin-output.js';

describe('printable', () => {
  it('shows control characters, which a report could use to drive the terminal, as ?', () => {
    expect(printable('evil\u001b[2Jhost\r\n\u009b')).toBe('evil?[2Jhost???');
  });

  it('shows a missing value as -, and keeps numbers and other text', () => {
    expect([printable(null), printable(undefined), printable(''), printable(0), printable('Grüße')]).toEqual(['-', '-', '-', '0', 'Grüße']);
  });
});

describe('formatTime', () => {
  it.each([
    ['2026-11-22T13:41:25.000Z', '2026-11-22 13:41:25 UTC'],
    ['2026-11-22T14:41:25+01:00', '2026-11-22 13:41:25 UTC'],
    [null, '-'],
    ['soon', 'soon'],
  ])('%j reads %j', (value, text) => {
    expect(formatTime(value)).toBe(text);
  });
});

describe('formatTable and formatFields', () => {
  it('aligns every column to its widest cell, without trailing spaces', () => {
    const rows = [{ name: 'web-01', index: 56 }, { name: 'db', index: null }];
    const table = formatTable<(typeof rows)[number]>([['NAME', (r) => r.name], ['INDEX', (r) => r.index]], rows);
    expect(table).toBe('NAME    INDEX\nweb-01  56\ndb      -\n');
  });

  it('aligns the values of labelled fields', () => {
    expect(formatFields([['Host', 'a'], ['Hardening index', null]])).toBe('Host             a\nHardening index  -\n');
  });
});

describe('formatPageLine', () => {
  it.each([
    [{ total: 120, limit: 50, offset: 50, items: Array(50) }, 'hosts 51-100 of 120; next page: --offset 100\n'],
    [{ total: 3, limit: 50, offset: 0, items: Array(3) }, 'hosts 1-3 of 3\n'],
    [{ total: 0, limit: 50, offset: 0, items: [] }, 'No hosts.\n'],
    [{ total: 3, limit: 50, offset: 10, items: [] }, 'No hosts at offset 10 (3 in all).\n'],
  ])('%j', (page, line) => {
    expect(formatPageLine(page, 'hosts')).toBe(line);
  });
});
