import { describe, expect, it } from 'vitest';
import {
  formatFields,
  formatFindingPage,
  formatHost,
  formatHostPage,
  formatOverview,
  formatPageLine,
  formatTable,
  formatTime,
  printable,
} from './admin-output.js';
import type { Host, Overview } from './generated/types.gen.js';

describe('printable', () => {
  it('shows control characters, which a report could use to drive the terminal, as ?', () => {
    expect(printable('evil\u001b[2Jhost\r\n\u009b')).toBe('evil?[2Jhost???');
  });

  it('shows a missing value as -, and keeps numbers and other text', () => {
    expect([printable(null), printable(undefined), printable(''), printable(0), printable('Grüße')]).toEqual(['-', '-', '-', '0', 'Grüße']);
  });
});

describe('formatTime', () => {
  it.each([
    ['2026-11-22T13:41:25.000Z', '2026-11-22 13:41:25 UTC'],
    ['2026-11-22T14:41:25+01:00', '2026-11-22 13:41:25 UTC'],
    [null, '-'],
    ['soon', 'soon'],
  ])('%j reads %j', (value, text) => {
    expect(formatTime(value)).toBe(text);
  });
});

describe('formatTable and formatFields', () => {
  it('aligns every column to its widest cell, without trailing spaces', () => {
    const rows = [
      { name: 'web-01', index: 56 },
      { name: 'db', index: null },
    ];
    const table = formatTable<(typeof rows)[number]>(
      [
        ['NAME', (r) => r.name],
        ['INDEX', (r) => r.index],
      ],
      rows,
    );
    expect(table).toBe('NAME    INDEX\nweb-01  56\ndb      -\n');
  });

  it('aligns the values of labelled fields', () => {
    expect(
      formatFields([
        ['Host', 'a'],
        ['Hardening index', null],
      ]),
    ).toBe('Host             a\nHardening index  -\n');
  });
});

describe('formatPageLine', () => {
  it.each([
    [{ total: 120, limit: 50, offset: 50, items: Array(50) }, 'hosts 51-100 of 120; next page: --offset 100\n'],
    [{ total: 3, limit: 50, offset: 0, items: Array(3) }, 'hosts 1-3 of 3\n'],
    [{ total: 0, limit: 50, offset: 0, items: [] }, 'No hosts.\n'],
    [{ total: 3, limit: 50, offset: 10, items: [] }, 'No hosts at offset 10 (3 in all).\n'],
  ])('%j', (page, line) => {
    expect(formatPageLine(page, 'hosts')).toBe(line);
  });
});

const HOST: Host = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  keyId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  hostId: '0123456789abcdef0123456789abcdef01234567',
  hostId2: null,
  hostname: 'web-01',
  os: 'Debian GNU/Linux 12 (bookworm)',
  lynisVersion: '3.0.8',
  firstSeen: '2026-11-01T08:00:02.000Z',
  lastSeen: '2026-11-02T13:41:25.000Z',
  reportCount: 3,
  latestReportId: null,
  latestHardeningIndex: 56,
  latestWarningCount: 2,
  latestSuggestionCount: 24,
  groups: ['webservers', 'eu'],
  tags: ['production'],
  customerName: 'acme',
  hostnameAlias: 'web-01.example.org',
  compliance: 'unknown',
  identityChange: null,
  state: 'active',
  stateSince: '2026-11-01T08:00:02.000Z',
  stateReason: 'reporting',
  machineId: null,
  autoPurge: false,
};

describe('hosts and findings', () => {
  it("lists each host's warnings, groups and tags; groups and tags comma-separated, control characters as ?", () => {
    const table = formatHostPage({
      items: [
        { ...HOST, tags: ['bad\u001b[2J'] },
        { ...HOST, groups: [], tags: [], latestWarningCount: null },
      ],
      total: 2,
      limit: 50,
      offset: 0,
    });
    const [heading, first, second] = table.split('\n').map((line) => line.split(/\s{2,}/));
    expect(heading).toEqual(['ID', 'HOSTNAME', 'HOST ID', 'OS', 'INDEX', 'WARNINGS', 'REPORTS', 'LAST SEEN', 'STATE', 'GROUPS', 'TAGS', 'IDENTITY']);
    expect(first!.slice(4)).toEqual(['56', '2', '3', '2026-11-02 13:41:25 UTC', 'active', 'webservers,eu', 'bad?[2J', '-']);
    expect(second!.slice(4)).toEqual(['56', '-', '3', '2026-11-02 13:41:25 UTC', 'active', '-', '-', '-']);
  });

  it('flags a host whose identity changed, on the list and the host, naming both hostid2 values', () => {
    const identityChange = { previousHostId2: 'a'.repeat(64), hostId2: 'b'.repeat(64), at: '2026-11-02T13:41:25.000Z', refused: true };
    const [, row] = formatHostPage({ items: [{ ...HOST, identityChange }], total: 1, limit: 50, offset: 0 }).split('\n');
    expect(row!.split(/\s{2,}/).at(-1)).toBe('changed, refused');
    expect(formatHost({ ...HOST, identityChange, hardeningHistory: [] })).toContain(
      `\nIdentity change  hostid2 ${'a'.repeat(64)} → ${'b'.repeat(64)} at 2026-11-02 13:41:25 UTC, reports refused until accepted (audit-client accept-identity)\n`,
    );
  });

  it("shows a host's lifecycle state, since when and why, on the list and the host", () => {
    const decommissioned = { ...HOST, state: 'decommissioned', stateSince: '2026-11-20T08:00:00.000Z', stateReason: 'operator' } as const;
    const [, row] = formatHostPage({ items: [decommissioned], total: 1, limit: 50, offset: 0 }).split('\n');
    expect(row!.split(/\s{2,}/)[8]).toBe('decommissioned');
    const text = formatHost({ ...decommissioned, machineId: '4c4c4544004a4d10', autoPurge: true, hardeningHistory: [] });
    expect(text).toContain('\nState            decommissioned since 2026-11-20 08:00:00 UTC (by an operator)\n');
    expect(text).toContain('\nMachine ID       4c4c4544004a4d10\nAuto-purge       yes: decommissioned soon after its reports stop\n');
    expect(formatHost({ ...HOST, hardeningHistory: [] })).toContain(
      '\nState            active since 2026-11-01 08:00:02 UTC (reporting)\nMachine ID       -\nAuto-purge       -\n',
    );
  });

  it("shows a host's alias, customer, groups, tags and finding counts", () => {
    const text = formatHost({ ...HOST, hardeningHistory: [] });
    expect(text).toContain('\nAlias            web-01.example.org\nCustomer         acme\nGroups           webservers,eu\nTags             production\n');
    expect(text).toContain('\nWarnings         2\nSuggestions      24\n');
  });

  it('lists findings with how many hosts have each', () => {
    const page = {
      items: [{ kind: 'warning' as const, testId: 'PKGS-7392', text: 'Found one or more vulnerable packages.', hosts: 12 }],
      total: 1,
      limit: 50,
      offset: 0,
    };
    expect(formatFindingPage(page)).toBe(
      'KIND     TEST ID    HOSTS  TEXT\nwarning  PKGS-7392  12     Found one or more vulnerable packages.\nfindings 1-1 of 1\n',
    );
  });
});

describe('formatOverview', () => {
  type Distribution = Overview['hardeningIndex']['distribution'];
  const distribution = Array.from({ length: 10 }, (_, i) => ({
    from: i * 10,
    to: i === 9 ? 100 : i * 10 + 9,
    hosts: i === 5 ? 4 : i === 6 ? 2 : 0,
  })) as Distribution;
  const overview: Overview = {
    generatedAt: '2026-11-23T10:00:00.000Z',
    staleDays: 7,
    hosts: { total: 12, seenLast24h: 9, seenLast7d: 10, stale: 2, decommissioned: 0 },
    hardeningIndex: { average: 58.333333, median: 57.5, unknown: 1, distribution },
    hardeningTrend: Array.from({ length: 20 }, (_, i) => ({ day: `2026-11-${String(i + 1).padStart(2, '0')}`, average: 50 + i / 3, reports: 9 })),
    topWarnings: [{ kind: 'warning', testId: 'PKGS-7392', text: 'Found one or more vulnerable packages.', hosts: 11 }],
    topSuggestions: [],
    operatingSystems: [
      { name: 'Debian GNU/Linux 12 (bookworm)', hosts: 10 },
      { name: null, hosts: 2 },
    ],
    lynisVersions: [{ name: '3.0.8', hosts: 12 }],
    uploadsPerDay: [
      { day: '2026-11-21', accepted: 0, refused: 0 },
      { day: '2026-11-22', accepted: 9, refused: 0 },
      { day: '2026-11-23', accepted: 3, refused: 2 },
    ],
    staleHosts: [HOST],
    compliance: { policies: 0, evaluatedHosts: 0, hosts: { pass: 0, fail: 0, error: 0, waived: 0 }, rate: null, trend: [] },
  };

  it('says how many hosts reported lately, the hardening index and its distribution, as bars', () => {
    const text = formatOverview(overview);
    expect(text).toMatch(
      /^Generated {8}2026-11-23 10:00:00 UTC\nHosts {12}12: 9 seen in the last 24 h, 10 in the last 7 days, 2 stale \(no report for 7 days\)\n/,
    );
    expect(text).toContain('\nHardening index  average 58.3, median 57.5 (1 host without one)\n');
    expect(text).toContain('\n  40-49   0\n  50-59   4      ########################################\n  60-69   2      ####################\n');
    expect(text).toContain('\n  90-100  0\n');
  });

  it('lists the top findings, the OS and Lynis mix, the days with uploads, the newest trend days and the stale hosts', () => {
    const text = formatOverview(overview);
    expect(text).toContain('Top warnings (hosts affected):\n  HOSTS  TEST ID    TEXT\n  11     PKGS-7392  Found one or more vulnerable packages.\n');
    expect(text).toContain('Top suggestions (hosts affected):\n  none\n');
    expect(text).toContain('  10     Debian GNU/Linux 12 (bookworm)\n  2      (not reported)\n');
    expect(text).toContain(
      'Uploads per day, last 3 days (days with any):\n  DAY         ACCEPTED  REFUSED\n  2026-11-22  9         0\n  2026-11-23  3         2\n  2 uploads refused: see audit-client rejections\n',
    );
    expect(text).toContain('Fleet hardening index per day (newest 14 days with reports):\n  DAY         AVERAGE  REPORTS\n  2026-11-07  52       9\n');
    expect(text).not.toContain('2026-11-06  ');
    expect(text).toContain(`  ${HOST.id}  web-01    2026-11-02 13:41:25 UTC\n  1 more: audit-client hosts --state stale\n`);
  });

  it('copes with a fleet without hosts', () => {
    const empty: Overview = {
      ...overview,
      hosts: { total: 0, seenLast24h: 0, seenLast7d: 0, stale: 0, decommissioned: 0 },
      hardeningIndex: { average: null, median: null, unknown: 0, distribution: distribution.map((b) => ({ ...b, hosts: 0 })) as Distribution },
      hardeningTrend: [],
      topWarnings: [],
      operatingSystems: [],
      lynisVersions: [],
      uploadsPerDay: [],
      staleHosts: [],
    };
    const text = formatOverview(empty);
    expect(text).toContain('Hardening index  none known\n');
    expect(text).toContain('Stale hosts (no report for 7 days), seen longest ago:\n  none\n');
    expect(text).not.toContain('#');
  });
});
