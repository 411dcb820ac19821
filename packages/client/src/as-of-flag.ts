// `--at`: the overview, the host list and export, and a policy's results as of a past moment.
import { Option } from 'commander';
import { moment } from './cli-arguments.js';
import { formatTime } from './admin-output.js';

/** `--at <date>`; a fresh option each time, since commander keeps per-command state in it. */
export const asOfOption = () =>
  new Option('--at <date>', 'answer as of this past moment: a day (2026-10-01, up to its end in UTC) or a date and time with its offset').argParser(moment);

/** The line above a table for a past moment (nothing for now), so that no one takes it for the fleet as it is. */
export function asOfLine(at: string | null | undefined): string {
  if (!at) return '';
  return /^\d{4}-\d{2}-\d{2}$/.test(at) ? `As of ${at} (end of day, UTC)\n` : `As of ${formatTime(new Date(at).toISOString())}\n`;
}
