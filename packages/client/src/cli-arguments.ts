import { InvalidArgumentError } from 'commander';
import { EXIT } from './cli-exit-codes.js';

/** The contract's `Id`: a UUID, as the tables' ID column shows it. */
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Parses an id of the admin API (a host's, report's, key's, policy's …), refused before anything is sent when it
 * cannot be one. Commander's message names the argument or option; the exit code is 3, as for the server's own 400.
 */
export const recordId = (value: string) => {
  if (ID_PATTERN.test(value)) return value;
  const error = new InvalidArgumentError('must be an id as the ID column of the tables shows it, a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e');
  error.exitCode = EXIT.rejected;
  throw error;
};

/** Parses a whole number of at least 1, such as `--limit 10`. */
export const positiveInteger = (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
};

/** Parses a whole number, such as `--offset 0`. */
export const wholeNumber = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
};

/**
 * A parser of a whole number or `unsetWord`, such as `--max-hosts none`: a key quota. The word is kept as it is
 * (commander turns a parser's null into ''); {@link quotaSetting} reads it as null.
 */
export const quotaOr =
  (unsetWord: string) =>
  (value: string): number | string => {
    if (value === unsetWord) return unsetWord;
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`must be a whole number or "${unsetWord}"`);
    return Number(value);
  };

/** A quota flag as the API takes it: a number, null for the unset word, undefined when not given. */
export const quotaSetting = (flag: number | string | undefined) => (typeof flag === 'string' ? null : flag);

/** Parses a date, or a date and time, into the ISO 8601 form the API takes: `2027-11-01` is midnight UTC. */
export const dateTime = (value: string) => {
  const time = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw new InvalidArgumentError('must be a date or a date and time, e.g. 2027-11-01 or 2027-11-01T12:00:00Z');
  return new Date(time).toISOString();
};

/** Parses a calendar day, `2026-11-01`, as the API takes it. */
export const day = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw new InvalidArgumentError('must be a day, e.g. 2026-11-01');
  return value;
};

/**
 * Parses the moment a command answers as of (`--at`), as the API takes it: a day (`2026-10-01`, the end of that UTC
 * day) or a date and time with its offset.
 */
export const moment = (value: string) => {
  const shaped = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value);
  if (!shaped || Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)))
    throw new InvalidArgumentError('must be a day or a date and time with its offset, e.g. 2026-10-01 or 2026-10-01T12:00:00Z');
  return value;
};

/** Parses a comma-separated list of ids (`--ids a,b,c`), each checked as {@link recordId} checks one. */
export const recordIds = (value: string) => value.split(',').map((id) => recordId(id.trim()));
