import { DomainError } from '../errors/domain-error.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * The moment an `at` query parameter (the contract's `Moment`) names: a date is the end of that UTC day
 * (23:59:59.999), a date-time is that instant. Undefined when absent (now). A calendar date that does not exist
 * (`2026-02-30`), any other text or a moment after `now` is refused: the past cannot be answered for a future moment.
 */
export function asOfMoment(at: string | undefined, now = new Date()): Date | undefined {
  if (at === undefined) return undefined;
  const moment = momentOf(at);
  if (!moment) throw new DomainError('invalid', `at: ${JSON.stringify(at)} is no date (YYYY-MM-DD) or date-time with its offset`);
  if (moment.getTime() > now.getTime()) throw new DomainError('invalid', `at: ${moment.toISOString()} is in the future; give a past date or moment`);
  return moment;
}

function momentOf(at: string): Date | undefined {
  const parts = DATE.exec(at) ?? DATE_TIME.exec(at);
  if (!parts) return undefined;
  const [year, month, day] = parts.slice(1, 4).map(Number) as [number, number, number];
  const start = new Date(Date.UTC(year, month - 1, day));
  // `Date` rolls 2026-02-30 over to March instead of refusing it.
  if (start.getUTCFullYear() !== year || start.getUTCMonth() !== month - 1 || start.getUTCDate() !== day) return undefined;
  if (parts.length === 4) return new Date(start.getTime() + DAY_MS - 1);
  const moment = new Date(at);
  return Number.isNaN(moment.getTime()) ? undefined : moment;
}
