// The `findings` and `hosts findings` commands against a tiny local server that records what it got: what each
// sends, how its answer is shown, and what is refused before anything is sent.
import { describe, expect, it } from 'vitest';
import type { TrackedFinding } from './generated/types.gen.js';
import { useAdminCliStub } from './admin-cli.test-kit.js';
import { stateText } from './finding-commands.js';

const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const FINDING_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const HOST_ID = '1f8fad5b-d9cb-469f-a165-70867728950e';
const APPROVER = '2f8fad5b-d9cb-469f-a165-70867728950e';
const FINDING: TrackedFinding = {
  id: FINDING_ID,
  hostRecordId: HOST_ID,
  hostname: 'web-01\u001b[31m',
  kind: 'warning',
  testId: 'SSH-7408',
  text: 'Consider hardening SSH configuration',
  state: 'acknowledged',
  stateSince: '2026-11-20T08:00:00.000Z',
  ownerUserId: APPROVER,
  ownerEmail: 'grace@example.org',
  dueAt: '2026-12-01T00:00:00.000Z',
  acceptance: null,
  firstSeen: '2026-11-01T10:00:00.000Z',
  lastSeen: '2026-11-25T10:00:00.000Z',
  resolvedAt: null,
  regressions: 0,
};
const ACCEPTED: TrackedFinding = {
  ...FINDING,
  state: 'accepted',
  acceptance: {
    reason: 'Legacy telnet kept until the migration',
    requestedBy: 'ops@example.org',
    approverUserId: APPROVER,
    approverEmail: 'grace@example.org',
    expiresAt: '2027-03-31T00:00:00.000Z',
  },
};

const cli = useAdminCliStub(TOKEN, () => ({ status: 200, body: JSON.stringify(FINDING) }));
const { run } = cli;

/** What the stub got: method, path with query, and body. */
const received = () => cli.stub.requests.map((request) => ({ method: request.method, url: request.url, body: request.body.toString() }));

describe('findings commands', () => {
  it('list the grouped findings with `findings` alone as before, or `findings list`', async () => {
    cli.reply = { status: 200, body: JSON.stringify({ items: [], total: 0, limit: 50, offset: 0 }) };
    await run('findings', '--kind', 'warning');
    await run('findings', 'list', '--test-id', 'SSH-7408');
    expect(received().map((request) => request.url)).toEqual(['/api/admin/findings?kind=warning', '/api/admin/findings?testId=SSH-7408']);
    expect(cli.printed).toBe('No findings.\nNo findings.\n');
  });

  it('list tracked findings with every filter, as a table with STATE and OWNER and host text made printable', async () => {
    cli.reply = { status: 200, body: JSON.stringify({ items: [FINDING, ACCEPTED], total: 3, limit: 2, offset: 0 }) };
    await run(
      'findings',
      'tracked',
      '--state',
      'open,regressed',
      '--owner',
      'me',
      '--group',
      'web',
      '--kind',
      'warning',
      '--test-id',
      'SSH-7408',
      '--min-age-days',
      '30',
      '--limit',
      '2',
    );
    expect(received()[0]!.url).toBe('/api/admin/findings/tracked?state=open,regressed&owner=me&group=web&kind=warning&testId=SSH-7408&minAgeDays=30&limit=2');
    expect(cli.printed).toBe(
      [
        'ID                                    HOST         KIND     TEST      STATE                      OWNER              DUE         FIRST SEEN  FINDING',
        `${FINDING_ID}  web-01?[31m  warning  SSH-7408  acknowledged               grace@example.org  2026-12-01  2026-11-01  Consider hardening SSH configuration`,
        `${FINDING_ID}  web-01?[31m  warning  SSH-7408  accepted until 2027-03-31  grace@example.org  2026-12-01  2026-11-01  Consider hardening SSH configuration`,
        'findings 1-2 of 3; next page: --offset 2',
        '',
      ].join('\n'),
    );
  });

  it("list a host's findings under `hosts findings`, with --state, or as the API's JSON", async () => {
    cli.reply = { status: 200, body: JSON.stringify({ items: [FINDING] }) };
    await run('hosts', 'findings', HOST_ID, '--state', 'resolved');
    await run('hosts', 'findings', HOST_ID, '--json');
    expect(received().map((request) => request.url)).toEqual([`/api/admin/hosts/${HOST_ID}/findings?state=resolved`, `/api/admin/hosts/${HOST_ID}/findings`]);
    expect(cli.printed).toMatch(/^ID +KIND +TEST +STATE +OWNER +DUE +FIRST SEEN +FINDING\n/);
    expect(cli.printed).not.toContain('HOST');
    expect(JSON.parse(cli.printed.slice(cli.printed.indexOf('{')))).toEqual({ items: [FINDING] });
  });

  it('acknowledge a finding, with or without an owner and due date', async () => {
    await run('findings', 'acknowledge', FINDING_ID);
    await run('findings', 'acknowledge', FINDING_ID, '--owner', APPROVER, '--due', '2026-12-01');
    expect(received()).toEqual([
      { method: 'PATCH', url: `/api/admin/findings/${FINDING_ID}`, body: JSON.stringify({ state: 'acknowledged' }) },
      {
        method: 'PATCH',
        url: `/api/admin/findings/${FINDING_ID}`,
        body: JSON.stringify({ state: 'acknowledged', ownerUserId: APPROVER, dueAt: '2026-12-01T00:00:00.000Z' }),
      },
    ]);
    expect(cli.printed).toContain('State       acknowledged since 2026-11-20 08:00:00 UTC\n');
    expect(cli.printed).toContain('Owner       grace@example.org\n');
  });

  it("accept a finding's risk with reason, expiry and approver, showing them", async () => {
    cli.reply = { status: 200, body: JSON.stringify(ACCEPTED) };
    await run('findings', 'accept', FINDING_ID, '--reason', ' Legacy telnet kept until the migration ', '--expires', '2027-03-31', '--approver', APPROVER);
    expect(JSON.parse(received()[0]!.body)).toEqual({
      state: 'accepted',
      reason: 'Legacy telnet kept until the migration',
      expiresAt: '2027-03-31T00:00:00.000Z',
      approverUserId: APPROVER,
    });
    expect(cli.printed).toContain('Accepted because  Legacy telnet kept until the migration\n');
    expect(cli.printed).toContain('Approved by       grace@example.org\n');
    expect(cli.printed).toContain('Accepted until    2027-03-31 00:00:00 UTC\n');
  });

  it("reopen a finding, and say the server's refusal of a resolved one", async () => {
    cli.reply = { status: 409, body: JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, detail: 'A resolved finding cannot be changed' }) };
    await expect(run('findings', 'reopen', FINDING_ID)).resolves.toBeUndefined();
    expect(received()).toEqual([{ method: 'PATCH', url: `/api/admin/findings/${FINDING_ID}`, body: JSON.stringify({ state: 'open' }) }]);
    expect(cli.printed).toContain('A resolved finding cannot be changed');
    expect(process.exitCode).not.toBe(0);
  });

  it('refuse what cannot be sent before sending anything', async () => {
    await expect(run('findings', 'tracked', '--state', 'open,closed')).rejects.toThrow(/must be states separated by commas/);
    await expect(run('findings', 'tracked', '--owner', 'grace')).rejects.toThrow(/must be an id/);
    await expect(run('findings', 'tracked', '--min-age-days', '4000')).rejects.toThrow(/at most 3650/);
    await expect(run('findings', 'accept', FINDING_ID, '--reason', 'x', '--expires', '2027-03-31')).rejects.toThrow(/--approver/);
    await expect(run('findings', 'accept', FINDING_ID, '--reason', ' ', '--expires', '2027-03-31', '--approver', APPROVER)).rejects.toThrow('give a --reason');
    await expect(run('findings', 'acknowledge', 'web-01')).rejects.toThrow(/must be an id/);
    expect(received()).toEqual([]);
  });

  it('say how often a finding came back and until when an accepted risk runs', () => {
    expect(stateText({ state: 'regressed', regressions: 2, acceptance: null })).toBe('regressed (2 times)');
    expect(stateText({ state: 'regressed', regressions: 1, acceptance: null })).toBe('regressed');
    expect(stateText(ACCEPTED)).toBe('accepted until 2027-03-31');
    expect(stateText({ state: 'open', regressions: 0, acceptance: null })).toBe('open');
  });
});
