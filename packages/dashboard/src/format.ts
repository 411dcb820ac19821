/** A time from the API (ISO 8601, UTC) as the operator reads it: `2026-11-23 14:05:09 UTC`. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** A number of bytes in KB or MB. */
export function formatBytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`;
}

/** "Hosts 1–50 of 120", or `none` when the list is empty: the caption of a list the server pages. */
export function pageCaption(noun: string, page: { offset: number; total: number; items: readonly unknown[] }, none: string): string {
  return page.total === 0 ? none : `${noun} ${page.offset + 1}–${page.offset + page.items.length} of ${page.total}`;
}
