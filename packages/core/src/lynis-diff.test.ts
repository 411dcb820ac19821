import { describe, expect, it } from 'vitest';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import { diffLynisReports } from './lynis-diff.js';
import { parseLynisReport, type ParsedLynisReport } from './lynis-report.js';

const fixture = readLynisFixture('report.dat').toString('utf8');
const parse = (text: string): ParsedLynisReport => parseLynisReport(text)!;
const PACKAGES = 'installed_packages_array=|jq,1.6-2.1|openssl,3.0.15-1~deb12u1|curl,7.88.1-10|\n';
const NO_CHANGES = { added: [], removed: [], changed: [] };

describe('diffLynisReports', () => {
  it('finds nothing between the captured report and itself', () => {
    expect(diffLynisReports(parse(fixture), parse(fixture))).toEqual({
      hardeningIndex: { before: 56, after: 56 },
      warnings: { added: [], resolved: [] },
      suggestions: { added: [], resolved: [] },
      packages: NO_CHANGES,
      vulnerablePackages: { added: [], resolved: [] },
      values: NO_CHANGES,
    });
  });

  it('tells a warning added, the index lowered, a package upgraded, added and removed, and a vulnerable package resolved', () => {
    const before = fixture.replace('hardening_index=56\n', `hardening_index=56\n${PACKAGES}`);
    const after = fixture
      .replace(
        'hardening_index=56\n',
        `hardening_index=49\n${PACKAGES.replace('openssl,3.0.15-1~deb12u1', 'openssl,3.0.17-1~deb12u2').replace('|curl,7.88.1-10|', '|nginx,1.22.1-9|')}`,
      )
      .replace('firewall_active=1\n', 'firewall_active=0\nwarning[]=FIRE-4512|iptables module(s) loaded, but no rules active|-|-|\n')
      .replace('vulnerable_package[]=jq\n', '');
    const changes = diffLynisReports(parse(before), parse(after));
    expect(changes.hardeningIndex).toEqual({ before: 56, after: 49 });
    expect(changes.warnings).toEqual({
      added: [{ testId: 'FIRE-4512', text: 'iptables module(s) loaded, but no rules active', details: null, solution: null }],
      resolved: [],
    });
    expect(changes.packages).toEqual({
      added: [{ name: 'nginx', version: '1.22.1-9' }],
      removed: [{ name: 'curl', version: '7.88.1-10' }],
      changed: [{ name: 'openssl', before: '3.0.15-1~deb12u1', after: '3.0.17-1~deb12u2' }],
    });
    expect(changes.vulnerablePackages).toEqual({ added: [], resolved: ['jq'] });
    expect(changes.values).toEqual({ added: [], removed: [], changed: [{ key: 'firewall_active', before: '1', after: '0' }] });
  });

  it('compares multi-valued keys as sets: reordering is no change, a new value is added, a missing one removed', () => {
    const before = parse('lynis_version=3.0.8\nnetwork_listen_port[]=a\nnetwork_listen_port[]=b\nos=Linux\n');
    const after = parse('lynis_version=3.0.8\nnetwork_listen_port[]=c\nnetwork_listen_port[]=a\nkernel=6.1\n');
    expect(diffLynisReports(before, after).values).toEqual({
      added: [
        { key: 'network_listen_port[]', value: 'c' },
        { key: 'kernel', value: '6.1' },
      ],
      removed: [
        { key: 'network_listen_port[]', value: 'b' },
        { key: 'os', value: 'Linux' },
      ],
      changed: [],
    });
  });

  it('tells a resolved warning apart from one whose details changed', () => {
    const before = parse('lynis_version=3.0.8\nwarning[]=AUTH-9286|Password aging off|-|-|\nsuggestion[]=SSH-7408|Harden SSH|MaxAuthTries (6 --> 3)|-|\n');
    const after = parse('lynis_version=3.0.8\nsuggestion[]=SSH-7408|Harden SSH|MaxAuthTries (5 --> 3)|-|\n');
    const changes = diffLynisReports(before, after);
    expect(changes.warnings.resolved.map((w) => w.testId)).toEqual(['AUTH-9286']);
    expect(changes.suggestions).toEqual({
      added: [{ testId: 'SSH-7408', text: 'Harden SSH', details: 'MaxAuthTries (5 --> 3)', solution: null }],
      resolved: [{ testId: 'SSH-7408', text: 'Harden SSH', details: 'MaxAuthTries (6 --> 3)', solution: null }],
    });
  });
});
