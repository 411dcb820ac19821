// What the Trends page asks the API and how it reads the answers: the window's days, the weeks the time to fix is
// measured over, the figures of a group or customer, and whether there is any history to draw yet.
import type { ComplianceHistory, FixTimes, TimeToFix } from '@org/audit-client/sdk';

/** The windows the page offers, in days; 30 unless the URL names another. */
export const TREND_WINDOWS = [30, 90, 365] as const;
export type TrendWindow = (typeof TREND_WINDOWS)[number];
export const DEFAULT_TREND_WINDOW: TrendWindow = 30;
/** The history's intervals, as the contract names them. */
export const TREND_INTERVALS = ['day', 'week'] as const;
export type TrendInterval = (typeof TREND_INTERVALS)[number];

/** The page's filters; each lives in the URL. */
export interface TrendFilters {
  days?: TrendWindow;
  interval?: TrendInterval;
  group?: string;
  customer?: string;
}

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** Most weeks the time to fix is measured over (a year's window), and how many are asked for at once. */
const MAX_FIX_WEEKS = 52;
const FIX_WEEKS_AT_ONCE = 8;

/** A year's window has a point a week unless the URL says otherwise (365 daily points would be a wall of a table). */
export const intervalOf = (filters: TrendFilters): TrendInterval => filters.interval ?? ((filters.days ?? DEFAULT_TREND_WINDOW) > 90 ? 'week' : 'day');

/** The history's query of the filters: the window's first day (UTC) so that it ends today, the interval, group and customer. */
export function historyQuery(filters: TrendFilters, now: Date) {
  const days = filters.days ?? DEFAULT_TREND_WINDOW;
  const from = new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  return { from, interval: intervalOf(filters), group: filters.group, customer: filters.customer };
}

/**
 * The weeks the time to fix is measured over: seven days each, the last ending `now`, oldest first, as many as the
 * window holds (at most 52). Each week's `lastWeek` figures are then that week's own changes.
 */
export function fixWeeks(days: number, now: Date): Array<{ from: string; to: string }> {
  const count = Math.min(MAX_FIX_WEEKS, Math.ceil(days / 7));
  return Array.from({ length: count }, (_, i) => {
    const to = now.getTime() - (count - 1 - i) * WEEK_MS;
    return { from: new Date(to - WEEK_MS).toISOString(), to: new Date(to).toISOString() };
  });
}

/** Calls `load` for each item, a few at once (the server is not sent 52 requests in one go), in the items' order. */
export async function inBatches<T, R>(items: T[], load: (item: T) => Promise<R>, size = FIX_WEEKS_AT_ONCE): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map(load))));
  return results;
}

/**
 * The figures of the group (else the customer) the page is filtered by, else the fleet's. The time to fix has no
 * filter of its own: its per-group and per-customer figures are where a group's or customer's are.
 */
export function fixTimesOf(figures: TimeToFix, filters: Pick<TrendFilters, 'group' | 'customer'>): FixTimes {
  const none = { resolved: 0, meanHours: null, medianHours: null };
  const match = (rows: TimeToFix['byGroup'], wanted: string) => rows.find((row) => row.key.toLowerCase() === wanted.toLowerCase()) ?? none;
  if (filters.group) return match(figures.byGroup, filters.group);
  if (filters.customer) return match(figures.byCustomer, filters.customer);
  return figures.overall;
}

/** Whether the history holds nothing to draw: no host counted and no finding open on any point. */
export function isEmptyHistory(history: ComplianceHistory): boolean {
  return history.points.every(
    ({ hosts, openFindings }) =>
      hosts.compliant + hosts.noncompliant + hosts.accepted + hosts.unknown === 0 &&
      openFindings.warning + openFindings.suggestion + openFindings.accepted === 0,
  );
}

/** A percentage as the page writes it (`95.8 %`, the sign kept on the number's line), a dash when no host's status was known. */
export const formatPercent = (percent: number | null): string => (percent === null ? '—' : `${Math.round(percent * 10) / 10}\u00a0%`);
