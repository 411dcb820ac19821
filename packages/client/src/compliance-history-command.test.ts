// `audit-client compliance history` and `audit-client export compliance-history` against a tiny local server that
// records what it got.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAdminCliStub } from './admin-cli.test-kit.js';
import type { ComplianceHistory } from './generated/types.gen.js';

const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const POLICY_ID = '3f6a1d2b-7c11-4a9f-8d53-0b9e5c1e9d53';
const HOST_ID = '7d1f0b3a-2c4e-4b6f-8a9d-1e2f3a4b5c6d';

const HISTORY: ComplianceHistory = {
  from: '2026-11-24',
  to: '2026-11-26',
  interval: 'day',
  policyId: null,
  group: 'web',
  customer: null,
  points: [
    {
      date: '2026-11-24',
      hosts: { compliant: 3, noncompliant: 2, accepted: 0, unknown: 1 },
      compliancePercent: 60,
      openFindings: { warning: 7, suggestion: 40, accepted: 1 },
      final: true,
    },
    {
      date: '2026-11-25',
      hosts: { compliant: 0, noncompliant: 0, accepted: 0, unknown: 6 },
      compliancePercent: null,
      openFindings: { warning: 5, suggestion: 38, accepted: 1 },
      final: true,
    },
    {
      date: '2026-11-26',
      hosts: { compliant: 4, noncompliant: 1, accepted: 1, unknown: 0 },
      compliancePercent: 83.33333,
      openFindings: { warning: 4, suggestion: 31, accepted: 2 },
      final: false,
    },
  ],
  policies: [
    {
      policyId: POLICY_ID,
      name: 'Baseline\u001b[31m',
      points: [{ date: '2026-11-26', hosts: { compliant: 4, noncompliant: 1, accepted: 1, unknown: 0 }, compliancePercent: 83.33333 }],
    },
  ],
};
const CSV = 'date,policyId,policyName\r\n2026-11-26,,\r\n';

const cli = useAdminCliStub(TOKEN, () => ({ status: 200, body: JSON.stringify(HISTORY) }));
const { run } = cli;

const urls = () => cli.stub.requests.map((request) => decodeURIComponent(request.url));

describe('compliance history', () => {
  it('asks for the default window and prints a row per point and the policies', async () => {
    await run('compliance', 'history');
    expect(urls()).toEqual(['/api/admin/compliance/history']);
    expect(cli.printed).toBe(
      [
        'Window  2026-11-24 to 2026-11-26, per day',
        'Hosts   group web',
        '',
        'DATE                 COMPLIANT  NONCOMPLIANT  ACCEPTED  UNKNOWN  %       WARNINGS  SUGGESTIONS',
        '2026-11-24           3          2             0         1        60 %    7         40',
        '2026-11-25           0          0             0         6        -       5         38',
        '2026-11-26 (so far)  4          1             1         0        83.3 %  4         31',
        '',
        'Per policy, on 2026-11-26:',
        // A name's control characters are not written to the terminal.
        'POLICY         COMPLIANT  NONCOMPLIANT  ACCEPTED  UNKNOWN  %',
        'Baseline?[31m  4          1             1         0        83.3 %',
        '',
      ].join('\n'),
    );
  });

  it('sends every flag, and prints JSON with --json', async () => {
    await run(
      'compliance',
      'history',
      '--from',
      '2026-09-01',
      '--to',
      '2026-11-26',
      '--interval',
      'week',
      '--policy',
      POLICY_ID,
      '--group',
      'web',
      '--customer',
      'acme',
      '--json',
    );
    expect(urls()).toEqual([`/api/admin/compliance/history?from=2026-09-01&to=2026-11-26&interval=week&policyId=${POLICY_ID}&group=web&customer=acme`]);
    expect(JSON.parse(cli.printed)).toEqual(HISTORY);
  });

  it("keeps `compliance <host-id>` showing a host's compliance", async () => {
    cli.reply = { status: 200, body: JSON.stringify({ hostRecordId: HOST_ID, status: 'compliant', results: [], history: [] }) };
    await run('compliance', HOST_ID);
    expect(urls()).toEqual([`/api/admin/hosts/${HOST_ID}/compliance`]);
    expect(cli.printed).toContain(`Host    ${HOST_ID}\nStatus  compliant\n`);
  });

  it('refuses a day or interval it cannot read before sending anything, and shows the server refusing a window', async () => {
    await expect(run('compliance', 'history', '--from', '2026-11')).rejects.toThrow(/must be a day/);
    await expect(run('compliance', 'history', '--interval', 'month')).rejects.toThrow(/Allowed choices are day, week/);
    await expect(run('compliance', 'history', '--policy', 'Baseline')).rejects.toThrow();
    expect(urls()).toEqual([]);
    cli.reply = { status: 400, body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'to must not be after today' }) };
    await run('compliance', 'history', '--to', '2099-01-01');
    expect(cli.printed).toContain('to must not be after today');
    expect(process.exitCode).not.toBe(0);
  });
});

describe('export compliance-history', () => {
  it('sends every filter and the format, and prints the export as it came', async () => {
    cli.reply = { status: 200, body: CSV, contentType: 'text/csv; charset=utf-8' };
    await run('export', 'compliance-history', '--from', '2026-11-01', '--interval', 'week', '--group', 'web', '--customer', 'acme', '--format', 'jsonl');
    expect(urls()).toEqual(['/api/admin/exports/compliance-history?from=2026-11-01&interval=week&group=web&customer=acme&format=jsonl']);
    expect(cli.printed).toBe(CSV);
  });

  it('writes the export to a file with -o, CSV by default', async () => {
    cli.reply = { status: 200, body: CSV, contentType: 'text/csv; charset=utf-8' };
    const directory = await mkdtemp(join(tmpdir(), 'compliance-history-'));
    try {
      await run('export', 'compliance-history', '--policy', POLICY_ID, '-o', join(directory, 'history.csv'));
      expect(urls()).toEqual([`/api/admin/exports/compliance-history?policyId=${POLICY_ID}&format=csv`]);
      expect(await readFile(join(directory, 'history.csv'), 'utf8')).toBe(CSV);
      expect(cli.printed).toBe('');
    } finally {
      await rm(directory, { recursive: true });
    }
  });

  it('refuses what the export does not take, and the history flags on the other exports, before sending anything', async () => {
    await expect(run('export', 'compliance-history', '--format', 'json')).rejects.toThrow('export compliance-history writes csv or jsonl');
    await expect(run('export', 'compliance-history', '--hostname', 'web')).rejects.toThrow(/not the host or finding filters/);
    await expect(run('export', 'compliance-history', '--state', 'open')).rejects.toThrow(/not the host or finding filters/);
    await expect(run('export', 'compliance-history', HOST_ID)).rejects.toThrow('export compliance-history takes no host id');
    await expect(run('export', 'hosts', '--from', '2026-11-01', '--customer', 'acme')).rejects.toThrow(
      '--from, --customer filter export compliance-history only',
    );
    await expect(run('export', 'finding-states', '--interval', 'week')).rejects.toThrow('--interval filter export compliance-history only');
    expect(urls()).toEqual([]);
  });
});
