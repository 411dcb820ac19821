// `--at` on overview, hosts, policies results and export hosts, against a tiny local server that records what it got.
import { describe, expect, it } from 'vitest';
import { useAdminCliStub } from './admin-cli.test-kit.js';
import type { Overview } from './generated/types.gen.js';

const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const POLICY = '0b9e5c1e-4a9f-4f53-9d0c-3f6a1d2b7c11';

const OVERVIEW: Overview = {
  asOf: '2026-10-01T23:59:59.999Z',
  generatedAt: '2026-11-26T10:00:00.000Z',
  staleDays: 7,
  hosts: { total: 2, seenLast24h: 1, seenLast7d: 2, stale: 0, decommissioned: 0 },
  hardeningIndex: {
    average: 57.5,
    median: 57.5,
    unknown: 0,
    distribution: Array.from({ length: 10 }, (_, i) => ({
      from: i * 10,
      to: i === 9 ? 100 : i * 10 + 9,
      hosts: i === 5 ? 2 : 0,
    })) as Overview['hardeningIndex']['distribution'],
  },
  hardeningTrend: [],
  topWarnings: [],
  topSuggestions: [],
  operatingSystems: [],
  lynisVersions: [],
  uploadsPerDay: [],
  staleHosts: [],
  compliance: { policies: 1, evaluatedHosts: 2, hosts: { pass: 1, fail: 1, error: 0, waived: 0 }, rate: 0.5, trend: [] },
};
const EMPTY_PAGE = { items: [], total: 0, limit: 50, offset: 0 };

const cli = useAdminCliStub(TOKEN, () => ({ status: 200, body: JSON.stringify(EMPTY_PAGE) }));
const { run } = cli;

const urls = () => cli.stub.requests.map((request) => decodeURIComponent(request.url));

describe('--at', () => {
  it('asks for the overview as of a day and says the figures are of that past moment', async () => {
    cli.reply = { status: 200, body: JSON.stringify(OVERVIEW) };
    await run('overview', '--at', '2026-10-01');
    expect(urls()).toEqual(['/api/admin/overview?at=2026-10-01']);
    expect(cli.printed).toMatch(/^As of {12}2026-10-01 23:59:59 UTC \(a past moment; host states are kept now only\)\nGenerated {8}2026-11-26/);
  });

  it("lists hosts and a policy's results as of a moment, a line above the table saying so", async () => {
    await run('hosts', '--at', '2026-10-01T08:00:00+02:00', '--sort', 'hostname');
    await run('policies', 'results', POLICY, '--at', '2026-10-01', '--status', 'fail');
    expect(urls()).toEqual(['/api/admin/hosts?sort=hostname&at=2026-10-01T08:00:00+02:00', `/api/admin/policies/${POLICY}/results?status=fail&at=2026-10-01`]);
    expect(cli.printed).toBe('As of 2026-10-01 06:00:00 UTC\nNo hosts.\nAs of 2026-10-01 (end of day, UTC)\nNo results.\n');
  });

  it('exports hosts as of a day, with the filters the list takes then', async () => {
    cli.reply = { status: 200, body: 'id,hostname\n', contentType: 'text/csv' };
    await run('export', 'hosts', '--at', '2026-10-01', '--hostname', 'web');
    expect(urls()).toEqual(['/api/admin/exports/hosts?hostname=web&at=2026-10-01&format=csv']);
    expect(cli.printed).toBe('id,hostname\n');
  });

  it('refuses what is no moment, and --at on the exports that take none, before anything is sent', async () => {
    await expect(run('hosts', '--at', 'yesterday')).rejects.toThrow(
      /--at <date>' argument 'yesterday' is invalid. must be a day or a date and time with its offset/,
    );
    await expect(run('overview', '--at', '2026-10-01T08:00')).rejects.toThrow(/must be a day or a date and time with its offset/);
    await expect(run('policies', 'results', POLICY, '--at', '2026-02-30x')).rejects.toThrow(/must be a day/);
    await expect(run('export', 'findings', '--at', '2026-10-01')).rejects.toThrow('--at goes with export hosts only');
    await expect(run('export', 'finding-states', '--at', '2026-10-01')).rejects.toThrow('--at goes with export hosts only');
    expect(cli.stub.requests).toHaveLength(0);
  });
});
