import { describe, expect, it } from 'vitest';
import { vulnerablePackagesOf } from './report-text.js';

describe('vulnerablePackagesOf', () => {
  it('lists the vulnerable_package[] values once each, sorted, whatever the line ends', () => {
    const report =
      '# Lynis Report\nvulnerable_package[]=openssl\r\nhostname=web-01\nvulnerable_package[]=apt\nvulnerable_package[]=openssl\nvulnerable_package[]=\n';
    expect(vulnerablePackagesOf(report)).toEqual(['apt', 'openssl']);
  });

  it('finds none in a report without such lines, or where the key only looks alike', () => {
    expect(vulnerablePackagesOf('hostname=web-01\nx_vulnerable_package[]=apt\n')).toEqual([]);
  });
});
