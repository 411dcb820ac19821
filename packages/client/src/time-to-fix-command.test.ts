// `audit-client findings time-to-fix` against a tiny local server that records what it got.
import { describe, expect, it } from 'vitest';
import { useAdminCliStub } from './admin-cli.test-kit.js';
import type { TimeToFix } from './generated/types.gen.js';

const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

const FIGURES: TimeToFix = {
  from: '2026-02-01T00:00:00.000Z',
  to: '2026-05-02T00:00:00.000Z',
  overall: { resolved: 6, meanHours: 16.333, medianHours: 9 },
  byKind: [{ key: 'warning', resolved: 3, meanHours: 14, medianHours: 10 }],
  byTestId: [{ key: 'SSH-7408\u001b[31m', resolved: 2, meanHours: 17, medianHours: 17 }],
  byGroup: [],
  byCustomer: [{ key: 'acme', resolved: 5, meanHours: 10, medianHours: null }],
  lastWeek: { opened: 4, resolved: 6, regressed: 1 },
  oldestOpen: [
    {
      id: '0b9e5c1e-4a9f-4f53-9d0c-3f6a1d2b7c11',
      hostRecordId: '7d1f0b3a-2c4e-4b6f-8a9d-1e2f3a4b5c6d',
      hostname: 'web-01',
      kind: 'warning',
      testId: 'NETW-3032',
      text: 'ARP monitoring software is missing',
      state: 'open',
      stateSince: '2026-01-01T00:00:00.000Z',
      ownerUserId: null,
      ownerEmail: null,
      dueAt: null,
      acceptance: null,
      firstSeen: '2026-01-01T00:00:00.000Z',
      lastSeen: '2026-05-01T00:00:00.000Z',
      resolvedAt: null,
      regressions: 0,
    },
  ],
};

const cli = useAdminCliStub(TOKEN, () => ({ status: 200, body: JSON.stringify(FIGURES) }));
const { run } = cli;

const urls = () => cli.stub.requests.map((request) => decodeURIComponent(request.url));

describe('findings time-to-fix', () => {
  it('asks for the default window and prints the figures, the groupings and the oldest open findings', async () => {
    await run('findings', 'time-to-fix');
    expect(urls()).toEqual(['/api/admin/findings/time-to-fix']);
    expect(cli.printed).toContain('Window              2026-02-01 00:00:00 UTC to 2026-05-02 00:00:00 UTC\n');
    expect(cli.printed).toContain('Mean time to fix    16.3 h\n');
    expect(cli.printed).toContain('Median time to fix  9 h\n');
    expect(cli.printed).toContain('Last 7 days         4 opened, 6 resolved, 1 regressed\n');
    // A host's control characters are not written to the terminal; a median of none is a dash.
    expect(cli.printed).toContain(
      [
        '',
        'BY        KEY            RESOLVED  MEAN  MEDIAN',
        'kind      warning        3         14 h  10 h',
        'test      SSH-7408?[31m  2         17 h  17 h',
        'customer  acme           5         10 h  -',
        '',
      ].join('\n'),
    );
    expect(cli.printed).toMatch(/Oldest open findings:\nID .*HOST .*TEST/);
    expect(cli.printed).toMatch(/0b9e5c1e-4a9f-4f53-9d0c-3f6a1d2b7c11 {2}web-01 .*NETW-3032/);
  });

  it('sends --from and --to as ISO 8601 times, and prints JSON with --json', async () => {
    await run('findings', 'time-to-fix', '--from', '2026-02-01', '--to', '2026-05-02T12:00:00Z', '--json');
    expect(urls()).toEqual(['/api/admin/findings/time-to-fix?from=2026-02-01T00:00:00.000Z&to=2026-05-02T12:00:00.000Z']);
    expect(JSON.parse(cli.printed)).toEqual(FIGURES);
  });

  it('refuses a date it cannot read before sending anything, and shows the server refusing a window', async () => {
    await expect(run('findings', 'time-to-fix', '--from', 'last week')).rejects.toThrow(/must be a date/);
    expect(urls()).toEqual([]);
    cli.reply = { status: 400, body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'from must not be after to' }) };
    await run('findings', 'time-to-fix', '--from', '2026-05-02', '--to', '2026-02-01');
    expect(cli.printed).toContain('from must not be after to');
    expect(process.exitCode).not.toBe(0);
  });
});
