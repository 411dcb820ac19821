// When digests are due: a weekly digest covers the week before Monday 00:00 UTC, a monthly one the month before the
// 1st, 00:00 UTC. Pure functions of the cadence and a time.
import type { DigestCadence } from '../generated/types.gen.js';

const DAY_MS = 86_400_000;

/** The period a digest covers, [start, end). */
export interface DigestPeriod {
  start: Date;
  end: Date;
}

/** The last period boundary at or before `time`: the Monday 00:00 UTC of its week, or the 1st 00:00 UTC of its month. */
export function boundaryAtOrBefore(cadence: DigestCadence, time: Date): Date {
  if (cadence === 'monthly') return new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), 1));
  const midnight = Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate());
  // getUTCDay: 0 is Sunday; days back to Monday.
  const sinceMonday = (time.getUTCDay() + 6) % 7;
  return new Date(midnight - sinceMonday * DAY_MS);
}

/** The first period boundary after `time`: when a schedule made at `time` is next due. */
export function boundaryAfter(cadence: DigestCadence, time: Date): Date {
  return shift(cadence, boundaryAtOrBefore(cadence, time), 1);
}

/** The complete period that ended last, at or before `time`. */
export function periodEndingBy(cadence: DigestCadence, time: Date): DigestPeriod {
  const end = boundaryAtOrBefore(cadence, time);
  return { start: shift(cadence, end, -1), end };
}

/** The cadence's length of time ending at `end` (a digest issued on demand): the 7 days, or the calendar month, before it. */
export function periodEndingAt(cadence: DigestCadence, end: Date): DigestPeriod {
  return { start: shift(cadence, end, -1), end };
}

/** `time` moved by `count` weeks or calendar months; a month from 31 March is 28 (or 29) February, not 3 March. */
function shift(cadence: DigestCadence, time: Date, count: number): Date {
  if (cadence === 'weekly') return new Date(time.getTime() + count * 7 * DAY_MS);
  const month = time.getUTCMonth() + count;
  const lastDay = new Date(Date.UTC(time.getUTCFullYear(), month + 1, 0)).getUTCDate();
  const day = Math.min(time.getUTCDate(), lastDay);
  return new Date(Date.UTC(time.getUTCFullYear(), month, day) + (time.getTime() % DAY_MS));
}
