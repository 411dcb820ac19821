const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** Parses a duration such as `30s`, `15m`, `12h`, `7d` or `2w` into milliseconds, or throws a readable message. */
export function parseDuration(text: string): number {
  const match = /^(\d+)([smhdw])$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration: give a whole number and a unit, e.g. 30m, 12h, 7d or 2w`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** Parses an expiry: a duration from now (`90d`) or an ISO 8601 date (`2027-01-31`, `2027-01-31T12:00:00Z`). */
export function parseExpiry(text: string, now: Date = new Date()): Date {
  if (/^\d+[smhdw]$/.test(text.trim())) return new Date(now.getTime() + parseDuration(text));
  const date = /^\d{4}-\d{2}-\d{2}/.test(text) ? new Date(text) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw new Error(`"${text}" is neither a duration (e.g. 90d) nor an ISO date (e.g. 2027-01-31)`);
  if (date <= now) throw new Error(`the expiry ${date.toISOString()} is already past`);
  return date;
}
