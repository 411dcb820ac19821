import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { dateTime, positiveInteger, recordId, wholeNumber } from './cli-arguments.js';

describe('argument parsers', () => {
  it('read whole numbers, refusing signs, fractions and words', () => {
    expect([positiveInteger('1'), positiveInteger('500'), wholeNumber('0')]).toEqual([1, 500, 0]);
    for (const value of ['0', '-1', '1.5', 'ten', '']) expect(() => positiveInteger(value)).toThrow(InvalidArgumentError);
    for (const value of ['-1', '1e3', ' 1']) expect(() => wholeNumber(value)).toThrow(InvalidArgumentError);
  });

  it('read a date as midnight UTC and a date and time with its zone, as ISO 8601', () => {
    expect(dateTime('2027-11-01')).toBe('2027-11-01T00:00:00.000Z');
    expect(dateTime('2027-11-01T12:30:00+02:00')).toBe('2027-11-01T10:30:00.000Z');
    for (const value of ['next week', '11/01/2027', '2027-13-45', '1700000000']) expect(() => dateTime(value)).toThrow(InvalidArgumentError);
  });

  it('read an id of the admin API (a UUID), refusing anything else with exit code 3, as the server would with its 400', () => {
    expect(recordId('0F8FAD5B-d9cb-469f-a165-70867728950e')).toBe('0F8FAD5B-d9cb-469f-a165-70867728950e');
    for (const value of ['', 'web-01', '0f8fad5b-d9cb-469f-a165-70867728950', '0f8fad5b-d9cb-469f-a165-70867728950e ', '../keys']) {
      expect(() => recordId(value)).toThrow(expect.objectContaining({ code: 'commander.invalidArgument', exitCode: 3 }));
    }
  });
});
