import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TimeToFix, TrackedFinding } from '@org/audit-client/sdk';
import { formatHours, TimeToFixFigures } from './TimeToFix.js';

const HOSTILE = '<img src=x onerror=alert(1)>';

const finding = (id: string, hostname: string | null, testId: string): TrackedFinding => ({
  id,
  hostRecordId: `host-${id}`,
  hostname,
  kind: 'warning',
  testId,
  text: 'Telnet is enabled',
  state: 'open',
  stateSince: '2026-01-01T00:00:00.000Z',
  ownerUserId: null,
  ownerEmail: null,
  dueAt: null,
  acceptance: null,
  firstSeen: '2026-01-01T00:00:00.000Z',
  lastSeen: '2026-05-01T00:00:00.000Z',
  resolvedAt: null,
  regressions: 0,
});

const FIGURES: TimeToFix = {
  from: '2026-02-01T00:00:00.000Z',
  to: '2026-05-02T00:00:00.000Z',
  overall: { resolved: 1234, meanHours: 16.33, medianHours: 9 },
  byKind: [
    { key: 'suggestion', resolved: 3, meanHours: 18.67, medianHours: 6 },
    { key: 'warning', resolved: 3, meanHours: 14, medianHours: 50 },
  ],
  byTestId: [{ key: HOSTILE, resolved: 3, meanHours: 18.67, medianHours: 6 }],
  byGroup: [],
  byCustomer: [],
  lastWeek: { opened: 4, resolved: 6, regressed: 1 },
  oldestOpen: [finding('a', 'web-01', 'SSH-7408'), finding('b', null, 'NETW-3032')],
};

const render = (figures: TimeToFix) => renderToStaticMarkup(createElement(TimeToFixFigures, { figures }));

describe('time to fix on the overview', () => {
  it('writes hours as a duration, and a dash when nothing was resolved', () => {
    expect(formatHours(9)).toBe('9 h');
    expect(formatHours(16.5)).toBe('16 h 30 min');
    expect(formatHours(50)).toBe('2 d 2 h');
    expect(formatHours(null)).toBe('—');
  });

  it("shows the resolutions' count, mean, median and last week's changes", () => {
    const html = render(FIGURES);
    expect(html).toContain('1,234');
    expect(html).toMatch(/16 h 19 min.*Mean time to fix/);
    expect(html).toMatch(/9 h<\/span><span class="card-label">Median time to fix/);
    expect(html).toContain('4 opened');
    expect(html).toContain('6 resolved, 1 regressed');
    // Fewer opened and regressed (5) than resolved (6): not marked as bad.
    expect(html).not.toContain('card-bad');
  });

  it('charts the median per kind and lists the test ids as text', () => {
    const html = render(FIGURES);
    expect(html).toContain('aria-label="Median time to fix by kind: Suggestions: 6 h, Warnings: 2 d 2 h"');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain(HOSTILE);
  });

  it('links the oldest open findings to their hosts', () => {
    const html = render(FIGURES);
    expect(html).toContain('href="#/hosts/host-a"');
    expect(html).toMatch(/>web-01<\/a>/);
    // A host without a name is shown by its id.
    expect(html).toMatch(/href="#\/hosts\/host-b">host-b<\/a>/);
  });

  it('says so when nothing was resolved or is open', () => {
    const html = render({ ...FIGURES, overall: { resolved: 0, meanHours: null, medianHours: null }, byKind: [], byTestId: [], oldestOpen: [] });
    expect(html).toContain('No finding was resolved.');
    expect(html).toContain('No finding is open.');
    expect(html).toContain('No finding was resolved in the window.');
    expect(html).not.toContain('role="img"');
  });
});
