/**
 * A time from the API (ISO 8601, UTC) as the operator reads it, in the browser's time zone (or `timeZone`) with the
 * zone's name: `2026-11-23 15:05:09 GMT+1`, and `2026-11-23 14:05:09 UTC` where the zone is UTC.
 */
export function formatTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-US', { ...TIME_PARTS, timeZone }).formatToParts(time);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((found) => found.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')} ${part('timeZoneName')}`;
}

const TIME_PARTS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
};

/** The same time in UTC, to the second, as ISO 8601 (`2026-11-23T14:05:09Z`): what a time shows on hover. */
export function formatUtc(iso: string | null | undefined): string | undefined {
  if (!iso) return undefined;
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? undefined : `${time.toISOString().slice(0, 19)}Z`;
}

/** A number of bytes in KB or MB. */
export function formatBytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

/** "Hosts 1–50 of 120", or `none` when the list is empty: the caption of a list the server pages. */
export function pageCaption(noun: string, page: { offset: number; total: number; items: readonly unknown[] }, none: string): string {
  return page.total === 0 ? none : `${noun} ${page.offset + 1}–${page.offset + page.items.length} of ${page.total}`;
}

/**
 * A number of seconds as people write it: `350 ms`, `42.5 s`, `2 min 49 s`, `3 h 5 min`, `8 d 2 h` (two units at
 * most, the smaller one left out when zero).
 */
export function formatDuration(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  const size = Math.abs(seconds);
  if (size < 1) return `${sign}${Math.round(size * 1000)} ms`;
  if (Math.round(size * 10) < 600) return `${sign}${Number(size.toFixed(1))} s`;
  const whole = Math.round(size);
  const [big, bigUnit, small, smallUnit] =
    whole < 3600
      ? [Math.floor(whole / 60), 'min', whole % 60, 's']
      : whole < 86_400
        ? [Math.floor(whole / 3600), 'h', Math.floor((whole % 3600) / 60), 'min']
        : [Math.floor(whole / 86_400), 'd', Math.floor((whole % 86_400) / 3600), 'h'];
  return `${sign}${big} ${bigUnit}${small ? ` ${small} ${smallUnit}` : ''}`;
}

/** CEL's notation of a duration in a value a rule saw: `duration("168.881s")`. */
const CEL_DURATION = /duration\("(-?\d+(?:\.\d+)?)s"\)/g;

/**
 * A value a policy rule saw (CEL notation, from the server) with its durations as people write them
 * (`duration("168.881s")` → `2 min 49 s`); `exact` is the value as the server gave it when anything was changed.
 */
export function readableRuleValue(value: string): { text: string; exact?: string } {
  const text = value.replace(CEL_DURATION, (_, seconds: string) => formatDuration(Number(seconds)));
  return text === value ? { text } : { text, exact: value };
}
