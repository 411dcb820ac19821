// `audit-client digests …` against a tiny local server that records what it got.
import { describe, expect, it } from 'vitest';
import { useAdminCliStub } from './admin-cli.test-kit.js';
import type { Digest, DigestPage, DigestSchedule } from './generated/types.gen.js';

const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const SCHEDULE_ID = '5b0c7c2e-1f4a-4d7e-9a1b-2c3d4e5f6a7b';
const DIGEST_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

const SCHEDULE: DigestSchedule = {
  id: SCHEDULE_ID,
  scope: { group: 'webservers', customer: null },
  cadence: 'weekly',
  recipients: ['secops@example.org'],
  createdAt: '2026-10-30T12:00:00.000Z',
  createdBy: 'admin',
  lastIssuedAt: null,
  nextDueAt: '2026-11-02T00:00:00.000Z',
};

const POINT = { hosts: { compliant: 2, noncompliant: 0, accepted: 0, unknown: 0 }, openFindings: { warning: 3, suggestion: 0, accepted: 0 }, final: true };
const DIGEST: Digest = {
  id: DIGEST_ID,
  scheduleId: SCHEDULE_ID,
  scope: { group: 'webservers', customer: null },
  cadence: 'weekly',
  periodStart: '2026-10-26T00:00:00.000Z',
  periodEnd: '2026-11-02T00:00:00.000Z',
  createdAt: '2026-11-02T00:05:00.000Z',
  link: `/dashboard/digests/${DIGEST_ID}`,
  delivery: { status: 'failed', attempts: 5, lastError: '550 mailbox unavailable', nextAttemptAt: null, sentAt: null },
  content: {
    compliance: {
      now: { ...POINT, date: '2026-11-01', compliancePercent: 100 },
      before: { ...POINT, date: '2026-10-25', compliancePercent: 50, hosts: { compliant: 1, noncompliant: 1, accepted: 0, unknown: 0 } },
      changePoints: 50,
    },
    topRegressions: [
      {
        findingId: '0b9e5c1e-4a9f-4f53-9d0c-3f6a1d2b7c11',
        hostRecordId: '7d1f0b3a-2c4e-4b6f-8a9d-1e2f3a4b5c6d',
        hostname: 'web1\u001b[31m',
        kind: 'warning',
        testId: 'AUTH-9286',
        text: 'Password aging',
        at: '2026-10-29T12:00:00.000Z',
      },
    ],
    oldestOpen: [],
    expiringAcceptances: [],
    expiringWaivers: [
      { waiverId: '1b9e5c1e-4a9f-4f53-9d0c-3f6a1d2b7c11', policyName: 'Floor', ruleId: null, target: 'webservers', expiresAt: '2026-11-10T00:00:00.000Z' },
    ],
  },
};

const cli = useAdminCliStub(TOKEN, () => ({ status: 200, body: JSON.stringify({ items: [SCHEDULE] }) }));
const { run } = cli;

const sent = () => cli.stub.requests.map((request) => [request.method, decodeURIComponent(request.url)]);

describe('digests', () => {
  it('lists schedules with their scope, cadence, recipients and next due time', async () => {
    await run('digests', 'schedules');
    expect(sent()).toEqual([['GET', '/api/admin/digest-schedules']]);
    expect(cli.printed).toMatch(/^ID +SCOPE +CADENCE +RECIPIENTS +LAST ISSUED +NEXT DUE\n/);
    expect(cli.printed).toContain(`${SCHEDULE_ID}  group webservers  weekly   secops@example.org  -            2026-11-02 00:00:00 UTC`);
  });

  it('schedules a group digest, and refuses a group and a customer together before sending anything', async () => {
    cli.reply = { status: 201, body: JSON.stringify(SCHEDULE) };
    await run('digests', 'schedule', '--group', 'webservers', '--cadence', 'weekly', '--to', 'secops@example.org', 'lead@example.org');
    expect(sent()).toEqual([['POST', '/api/admin/digest-schedules']]);
    expect(JSON.parse(cli.stub.requests[0]!.body.toString())).toEqual({
      scope: { group: 'webservers' },
      cadence: 'weekly',
      recipients: ['secops@example.org', 'lead@example.org'],
    });
    expect(cli.printed).toContain(`Scheduled digest ${SCHEDULE_ID}: weekly, of group webservers, first due 2026-11-02 00:00:00 UTC`);
    await expect(run('digests', 'schedule', '--group', 'a', '--customer', 'b', '--cadence', 'weekly', '--to', 'x@example.org')).rejects.toThrow(
      /cannot be used with/,
    );
    await expect(run('digests', 'schedule', '--cadence', 'daily', '--to', 'x@example.org')).rejects.toThrow(/daily/);
    expect(sent()).toHaveLength(1);
  });

  it('unschedules, issues and resends by id', async () => {
    cli.reply = { status: 204, body: '' };
    await run('digests', 'unschedule', SCHEDULE_ID);
    cli.reply = { status: 201, body: JSON.stringify(DIGEST) };
    await run('digests', 'issue', SCHEDULE_ID);
    cli.reply = { status: 200, body: JSON.stringify({ ...DIGEST, delivery: { ...DIGEST.delivery, status: 'pending', attempts: 0 } }) };
    await run('digests', 'resend', DIGEST_ID);
    expect(sent()).toEqual([
      ['DELETE', `/api/admin/digest-schedules/${SCHEDULE_ID}`],
      ['POST', `/api/admin/digest-schedules/${SCHEDULE_ID}/issue`],
      ['POST', `/api/admin/digests/${DIGEST_ID}/resend`],
    ]);
    expect(cli.printed).toContain(`Deleted digest schedule ${SCHEDULE_ID}`);
    expect(cli.printed).toContain(`Issued digest ${DIGEST_ID} (failed): /dashboard/digests/${DIGEST_ID}`);
    expect(cli.printed).toContain(`Queued digest ${DIGEST_ID} to be sent again`);
  });

  it('lists failed digests with why they failed', async () => {
    const page: DigestPage = { items: [{ ...DIGEST, content: undefined }], total: 1, limit: 50, offset: 0 };
    cli.reply = { status: 200, body: JSON.stringify(page) };
    await run('digests', 'list', '--status', 'failed');
    expect(sent()).toEqual([['GET', '/api/admin/digests?status=failed']]);
    expect(cli.printed).toContain('failed (5 attempts): 550 mailbox unavailable');
    expect(cli.printed).toContain('2026-10-26 to 2026-11-02');
    await expect(run('digests', 'list', '--status', 'lost')).rejects.toThrow(/lost/);
  });

  it('shows a digest with its figures, host text made printable; --json prints the answer', async () => {
    cli.reply = { status: 200, body: JSON.stringify(DIGEST) };
    await run('digests', 'show', DIGEST_ID);
    expect(sent()).toEqual([['GET', `/api/admin/digests/${DIGEST_ID}`]]);
    expect(cli.printed).toContain('Compliance now  100.0% (2 compliant, 0 non-compliant)');
    expect(cli.printed).toContain('At the start    50.0% (1 compliant, 1 non-compliant)');
    expect(cli.printed).toContain('Change          +50.0 points');
    expect(cli.printed).toMatch(/Top regressions:\nDATE +HOST +KIND +TEST +TEXT\n2026-10-29 +web1\?\[31m +warning +AUTH-9286 +Password aging/);
    expect(cli.printed).toContain('Oldest open findings:\nnone');
    expect(cli.printed).toMatch(/2026-11-10 +Floor +- +webservers/);
    cli.printed = '';
    await run('digests', 'show', DIGEST_ID, '--json');
    expect(JSON.parse(cli.printed)).toEqual(DIGEST);
    await expect(run('digests', 'show', 'not-an-id')).rejects.toThrow();
  });
});
