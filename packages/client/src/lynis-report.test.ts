import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { readReportHostIds } from './lynis-report.js';

it('reads hostid and hostid2 from a real Lynis report', () => {
  const report = readFileSync(new URL('../../../../shared/fixtures/lynis/report.dat', import.meta.url));
  expect(readReportHostIds(report)).toEqual({
    hostId: '0123456789abcdef0123456789abcdef01234567',
    hostId2: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  });
});

it('finds nothing in a report without those lines, and ignores empty values', () => {
  expect(readReportHostIds('# report\nhostname=x\nhostid=\n')).toEqual({});
});
