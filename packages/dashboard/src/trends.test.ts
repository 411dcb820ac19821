import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ComplianceHistory, TimeToFix } from '@org/audit-client/sdk';
import { hrefOf, parseRoute } from './route.js';
import { fixTimesOf, fixWeeks, formatPercent, historyQuery, inBatches, isEmptyHistory } from './trends.js';
import { FixTimeFigures, HistoryPanels } from './pages/TrendsPage.js';

const NOW = new Date('2026-11-26T10:30:00.000Z');
const HOSTILE = '<img src=x onerror=alert(1)>';

const point = (date: string, compliant: number, noncompliant: number, warning: number, final = true): ComplianceHistory['points'][number] => ({
  date,
  hosts: { compliant, noncompliant, accepted: 1, unknown: 0 },
  compliancePercent: ((compliant + 1) / (compliant + noncompliant + 1)) * 100,
  openFindings: { warning, suggestion: warning * 10, accepted: 2 },
  final,
});

const HISTORY: ComplianceHistory = {
  from: '2026-11-24',
  to: '2026-11-26',
  interval: 'day',
  policyId: null,
  group: null,
  customer: null,
  points: [point('2026-11-24', 1, 2, 9), point('2026-11-25', 2, 1, 6), point('2026-11-26', 3, 0, 4, false)],
  policies: [
    {
      policyId: '3f6a1d2b-7c11-4a9f-8d53-0b9e5c1e9d53',
      name: HOSTILE,
      points: [
        { date: '2026-11-24', hosts: { compliant: 1, noncompliant: 3, accepted: 0, unknown: 0 }, compliancePercent: 25 },
        { date: '2026-11-26', hosts: { compliant: 4, noncompliant: 0, accepted: 0, unknown: 0 }, compliancePercent: 100 },
      ],
    },
  ],
};

const EMPTY: ComplianceHistory = {
  ...HISTORY,
  points: HISTORY.points.map((p) => ({
    ...p,
    hosts: { compliant: 0, noncompliant: 0, accepted: 0, unknown: 0 },
    compliancePercent: null,
    openFindings: { warning: 0, suggestion: 0, accepted: 0 },
  })),
  policies: [],
};

const fixTimes = (to: string, resolved: number, meanHours: number | null, byGroup: TimeToFix['byGroup'] = []): TimeToFix => ({
  from: new Date(Date.parse(to) - 7 * 86_400_000).toISOString(),
  to,
  overall: { resolved, meanHours, medianHours: meanHours === null ? null : meanHours / 2 },
  byKind: [],
  byTestId: [],
  byGroup,
  byCustomer: [{ key: 'ACME', resolved: 1, meanHours: 3, medianHours: 3 }],
  lastWeek: { opened: 5, resolved, regressed: 1 },
  oldestOpen: [],
});

describe('the Trends route', () => {
  it('keeps the window, interval, group and customer in the fragment, and drops values it does not know', () => {
    const href = hrefOf({ page: 'trends', days: 90, interval: 'week', group: 'web servers', customer: 'a&b' });
    expect(href).toBe('#/trends?days=90&interval=week&group=web+servers&customer=a%26b');
    expect(parseRoute(href)).toEqual({ page: 'trends', days: 90, interval: 'week', group: 'web servers', customer: 'a&b' });
    expect(hrefOf({ page: 'trends', days: 30 })).toBe('#/trends');
    expect(parseRoute('#/trends?days=45&interval=month')).toEqual({
      page: 'trends',
      days: undefined,
      interval: undefined,
      group: undefined,
      customer: undefined,
    });
  });
});

describe('what the Trends page asks', () => {
  it('asks for the window ending today, a point a day up to 90 days and a week for a year, unless the URL says', () => {
    expect(historyQuery({}, NOW)).toEqual({ from: '2026-10-28', interval: 'day', group: undefined, customer: undefined });
    expect(historyQuery({ days: 90, group: 'web' }, NOW)).toEqual({ from: '2026-08-29', interval: 'day', group: 'web', customer: undefined });
    expect(historyQuery({ days: 365, customer: 'acme' }, NOW)).toEqual({ from: '2025-11-27', interval: 'week', group: undefined, customer: 'acme' });
    expect(historyQuery({ days: 365, interval: 'day' }, NOW).interval).toBe('day');
  });

  it('measures the time to fix over 7-day weeks ending now, at most 52', () => {
    const weeks = fixWeeks(30, NOW);
    expect(weeks).toHaveLength(5);
    expect(weeks.at(-1)).toEqual({ from: '2026-11-19T10:30:00.000Z', to: '2026-11-26T10:30:00.000Z' });
    expect(weeks[0]).toEqual({ from: '2026-10-22T10:30:00.000Z', to: '2026-10-29T10:30:00.000Z' });
    expect(weeks.every((week, i) => i === 0 || week.from === weeks[i - 1]!.to)).toBe(true);
    expect(fixWeeks(90, NOW)).toHaveLength(13);
    expect(fixWeeks(365, NOW)).toHaveLength(52);
  });

  it('asks a few weeks at a time and keeps their order', async () => {
    let running = 0;
    let most = 0;
    const results = await inBatches(
      Array.from({ length: 20 }, (_, i) => i),
      async (i) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, (20 - i) % 3));
        running -= 1;
        return i * 2;
      },
      8,
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    expect(most).toBe(8);
  });

  it("reads a group's or customer's time to fix from the per-group and per-customer figures", () => {
    const figures = fixTimes('2026-11-26T10:30:00.000Z', 6, 10, [{ key: 'WebServers', resolved: 2, meanHours: 4, medianHours: 4 }]);
    expect(fixTimesOf(figures, {})).toEqual(figures.overall);
    expect(fixTimesOf(figures, { group: 'webservers' })).toEqual({ key: 'WebServers', resolved: 2, meanHours: 4, medianHours: 4 });
    expect(fixTimesOf(figures, { group: 'db' })).toEqual({ resolved: 0, meanHours: null, medianHours: null });
    expect(fixTimesOf(figures, { customer: 'acme' })).toMatchObject({ resolved: 1, meanHours: 3 });
  });

  it('tells an empty history from one with hosts or findings, and writes percentages', () => {
    expect(isEmptyHistory(EMPTY)).toBe(true);
    expect(isEmptyHistory(HISTORY)).toBe(false);
    expect(formatPercent(83.333)).toBe('83.3\u00a0%');
    expect(formatPercent(null)).toBe('—');
  });
});

describe('the Trends page', () => {
  const history = (value: ComplianceHistory, filtered = false) => renderToStaticMarkup(createElement(HistoryPanels, { history: value, filtered }));

  it("shows the latest and first figures, each chart's numbers, and a policy's name as text", () => {
    const html = history(HISTORY);
    expect(html).toContain('<strong>4</strong> warnings, <strong>40</strong> suggestions and');
    expect(html).toContain('(on 2026-11-24: 9, 90 and 2)');
    expect(html).toContain('<strong>100\u00a0%</strong> of the hosts with a known status compliant (3 compliant, 1 accepted, 0 non-compliant, 0 unknown)');
    // Today's point is marked as moving; a policy without a point that day is a dash.
    expect(html).toMatch(/<td class="nowrap">2026-11-26 \(so far\)<\/td><td class="number">4<\/td><td class="number">40<\/td><td class="number">2<\/td>/);
    expect(html).toMatch(/<td class="nowrap">2026-11-25<\/td>(<td class="number">[^<]*<\/td>){5}<td class="number">—<\/td><\/tr>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
  });

  it('says what to do when there is no history yet, and when a group or customer has none', () => {
    const html = history(EMPTY);
    expect(html).toContain('No history yet');
    expect(html).toContain('href="#/add-hosts"');
    expect(html).toContain('href="#/policies"');
    expect(history(EMPTY, true)).toContain('No host of this group or customer was counted in the window');
  });

  it("says to create a policy when none applied, and still shows the fleet's figures", () => {
    const html = history({ ...HISTORY, policies: [] });
    expect(html).toContain('No policy applied in the window');
    expect(html).toContain('<strong>100\u00a0%</strong>');
  });

  it("shows this week's changes, each week's times, and why the chart is empty when nothing was resolved", () => {
    const weeks = [fixTimes('2026-11-19T10:30:00.000Z', 0, null), fixTimes('2026-11-26T10:30:00.000Z', 3, 50)];
    const html = renderToStaticMarkup(createElement(FixTimeFigures, { weeks, filters: {} }));
    expect(html).toMatch(/5<\/span><span class="card-label">Opened in the last 7 days/);
    expect(html).toMatch(/3<\/span><span class="card-label">Resolved in the last 7 days/);
    expect(html).toContain('<td class="nowrap">2026-11-26</td><td class="number">3</td><td class="number">2 d 2 h</td><td class="number">1 d 1 h</td>');
    expect(html).toContain('<td class="nowrap">2026-11-19</td><td class="number">0</td><td class="number">—</td>');
    const none = renderToStaticMarkup(createElement(FixTimeFigures, { weeks: [weeks[0]!], filters: { group: 'db' }, scope: 'group db' }));
    expect(none).toContain('No finding of the group db was resolved in the window');
  });
});
