// A page shown as of a past day (`at` in the URL): the overview, the hosts list and a policy's results answer as of
// the end of that day, in UTC, as the API reads a date.

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The day an `at` of the URL names, when it is a real calendar day (`YYYY-MM-DD`); none otherwise. */
export function asOfDay(text: string | undefined): string | undefined {
  if (text === undefined || !DAY.test(text)) return undefined;
  const time = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(time.getTime()) && time.toISOString().slice(0, 10) === text ? text : undefined;
}

/** The last day that can be asked for: yesterday in UTC, as today's end is still to come. */
export function lastPastDay(now: number): string {
  return new Date(now - 86_400_000).toISOString().slice(0, 10);
}

/** How a page says which past moment it shows: `As of 1 Oct 2026 (end of day, UTC)`. */
export function asOfText(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return `As of ${date} ${MONTHS[month - 1]} ${year} (end of day, UTC)`;
}
