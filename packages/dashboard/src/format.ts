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
