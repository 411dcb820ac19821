import { expect, it } from 'vitest';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import { readReportHostIds } from './report-host-ids.js';

it('reads hostid and hostid2 from a real Lynis report', () => {
  const report = readLynisFixture('report.dat');
  expect(readReportHostIds(report)).toEqual({
    hostId: '0123456789abcdef0123456789abcdef01234567',
    hostId2: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  });
});

it('finds nothing in a report without those lines, and ignores empty values', () => {
  expect(readReportHostIds('# report\nhostname=x\nhostid=\n')).toEqual({});
});
