import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { parseServerConfig } from '../config.js';
import { openDatabase, type Database } from '../database/open.js';
import type { Digest, DigestPage, DigestSchedule } from '../generated/types.gen.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { createPolicy } from '../policies/policy-records.js';
import { storeLynisText } from '../reports/lynis-upload.test-kit.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { createWebhook } from '../webhooks/webhook-records.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './digest-delivery.js';
import { boundaryAfter, periodEndingAt, periodEndingBy } from './digest-periods.js';
import { digestLinkOf, digestPath } from './digest-records.js';
import { DigestWork } from './digest-work.js';
import { smtpSender } from './mail-transport.js';
import { readMail, startTestSmtpServer, type TestSmtpServer } from './smtp-server.test-kit.js';

describe('digest periods', () => {
  it('are the week before Monday 00:00 UTC and the month before the 1st', () => {
    // 2026-11-04 is a Wednesday.
    const wednesday = new Date('2026-11-04T15:00:00.000Z');
    expect(boundaryAfter('weekly', wednesday).toISOString()).toBe('2026-11-09T00:00:00.000Z');
    expect(boundaryAfter('monthly', wednesday).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(periodEndingBy('weekly', wednesday)).toEqual({ start: new Date('2026-10-26T00:00:00.000Z'), end: new Date('2026-11-02T00:00:00.000Z') });
    expect(periodEndingBy('monthly', wednesday)).toEqual({ start: new Date('2026-10-01T00:00:00.000Z'), end: new Date('2026-11-01T00:00:00.000Z') });
    // A Monday at midnight is the boundary itself.
    expect(periodEndingBy('weekly', new Date('2026-11-02T00:00:00.000Z')).end.toISOString()).toBe('2026-11-02T00:00:00.000Z');
    expect(periodEndingAt('monthly', new Date('2026-03-31T10:00:00.000Z')).start.toISOString()).toBe('2026-02-28T10:00:00.000Z');
  });
});

describe('digest links', () => {
  it('are absolute under the dashboard when the server has a public host, else a path', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const dashboardUrl = () => 'https://audit.example.org:8443/dashboard/';
    expect(digestLinkOf({ hasPublicHost: true, dashboardUrl }, id)).toBe(`https://audit.example.org:8443/dashboard/digests/${id}`);
    expect(digestLinkOf({ hasPublicHost: false, dashboardUrl }, id)).toBe(`/dashboard/digests/${id}`);
  });
});

describe('mail settings at start', () => {
  it('takes an smtp:// or smtps:// URL with a sender', () => {
    const config = parseServerConfig({ smtpUrl: 'smtps://digest:pw@mail.example.org:465', mailFrom: 'Audit <audit@example.org>' });
    expect(config.smtpUrl).toBe('smtps://digest:pw@mail.example.org:465');
    expect(config.mailFrom).toBe('Audit <audit@example.org>');
    expect(parseServerConfig({}).smtpUrl).toBeUndefined();
  });
  it('refuses a URL of another scheme, a URL without a sender and a sender without a URL, never repeating a password', () => {
    expect(() => parseServerConfig({ smtpUrl: 'http://mail.example.org', mailFrom: 'audit@example.org' })).toThrow(
      /smtpUrl: must start with smtp:\/\/ or smtps:\/\//,
    );
    expect(() => parseServerConfig({ smtpUrl: 'not a url s3cret', mailFrom: 'audit@example.org' })).toThrow(/smtpUrl: must be a URL/);
    const missing = (() => {
      try {
        parseServerConfig({ smtpUrl: 'smtp://digest:s3cretPassw0rd@mail.example.org' });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(missing).toMatch(/mailFrom: digest emails need a sender/);
    expect(missing).not.toContain('s3cretPassw0rd');
    expect(() => parseServerConfig({ mailFrom: 'audit@example.org' })).toThrow(/smtpUrl: a sender means something only with an SMTP server/);
    expect(() => parseServerConfig({ smtpUrl: 'smtp://mail.example.org', mailFrom: 'not an address' })).toThrow(/mailFrom: must be an email address/);
  });
});

/** A Lynis report of a host of `group` with this hardening index and these warnings (test id and text). */
function lynisReport(hostname: string, group: string, index: number, warnings: [string, string][] = []) {
  return [
    'report_version_major=1',
    'report_version_minor=0',
    'lynis_version=3.0.8',
    `hostname=${hostname}`,
    `system-groups=${group}`,
    `hardening_index=${index}`,
    ...warnings.map(([testId, text]) => `warning[]=${testId}|${text}|-|-|`),
    '',
  ].join('\n');
}

/** Noon (UTC) of a day of October 2026; 26 October is a Monday, and so is 2 November. */
const october = (day: number, hour = 12) => new Date(Date.UTC(2026, 9, day, hour));
const PASSWORD = 's3cretPassw0rd';
const RECIPIENTS = ['secops@example.org', 'lead@example.net'];

/** A logger that keeps what it is told. */
function keptLogger() {
  const lines: { level: string; fields: object; message: string }[] = [];
  const keep = (level: string) => (fields: object, message: string) => void lines.push({ level, fields, message });
  return { lines, info: keep('info'), warn: keep('warn'), error: keep('error') };
}

describe.each(DIALECTS)('scheduled digests on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let smtp: TestSmtpServer;
  let database: Database;
  let clock: Date;
  let admin: string;
  let viewer: string;
  let operator: string;
  let works: DigestWork[];

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(() => smtp.close());

  /**
   * The week of 26 October, policy "Floor" (hardening index at least 58), group webservers:
   * - 25 Oct (before the week): web1 60 with AUTH-9286, web2 50 with SSH-7408 and a warning whose text is markup;
   *   db1 (group databases) 40 with NETW-3032. webservers: 1 of 2 compliant.
   * - 27 Oct: web1 60 without AUTH-9286 (resolved). 29 Oct: web1 with AUTH-9286 again (regressed), web2 70 (passes).
   * At the week's end, webservers is 2 of 2 compliant: +50 points.
   */
  async function seed(): Promise<void> {
    const { id: keyId } = await createKey(database);
    const store = new OrmReportStore(database);
    const evaluator = new PolicyEvaluator(database, { now: () => clock, clockRecheckMs: 60_000 });
    await createPolicy(database, { name: 'Floor', rules: [{ id: 'floor', expression: 'summary.hardeningIndex >= 58' }] }, october(20));
    const days: [number, string, string, number, [string, string][]][] = [
      [25, 'web1', 'webservers', 60, [['AUTH-9286', 'Password aging']]],
      [
        25,
        'web2',
        'webservers',
        50,
        [
          ['SSH-7408', 'Root login allowed'],
          ['FILE-6310', '<b>bold</b> & <script>alert(1)</script>'],
        ],
      ],
      [25, 'db1', 'databases', 40, [['NETW-3032', 'Promiscuous interface']]],
      [27, 'web1', 'webservers', 60, []],
      [29, 'web1', 'webservers', 60, [['AUTH-9286', 'Password aging']]],
      [
        29,
        'web2',
        'webservers',
        70,
        [
          ['SSH-7408', 'Root login allowed'],
          ['FILE-6310', '<b>bold</b> & <script>alert(1)</script>'],
        ],
      ],
    ];
    for (const [day, host, group, index, warnings] of days) {
      clock = october(day);
      await storeLynisText(store, { keyId, hostId: host, text: lynisReport(host, group, index, warnings), receivedAt: clock });
      clock = october(day, 13);
      await evaluator.settle();
    }
    await evaluator.stop();
  }

  let api: AdminApi;
  let mailEnabled: boolean;
  beforeEach(async () => {
    database = await openDatabase(location.location);
    works = [];
    smtp.received.length = 0;
    smtp.refusing = false;
    mailEnabled = true;
    ({ token: admin } = await createAdminToken(database, { label: 'admin', role: 'admin' }));
    ({ token: viewer } = await createAdminToken(database, { label: 'viewer', role: 'viewer' }));
    ({ token: operator } = await createAdminToken(database, { label: 'operator', role: 'operator' }));
    await createWebhook(database, { url: 'https://hooks.example.org/digests', events: ['digest.ready'] });
    await seed();
    api = await createAdminApi({
      database,
      now: () => clock,
      digests: {
        link: digestPath,
        now: () => clock,
        get mailEnabled() {
          return mailEnabled;
        },
      },
    });
  });
  afterEach(async () => {
    for (const work of works) await work.stop();
    await database.close();
  });

  /** The digest work on the test's clock, sending through `smtpUrl`, or not sending at all. */
  function digestWork(smtpUrl: string | undefined, logger = keptLogger()) {
    const send = smtpUrl === undefined ? undefined : smtpSender({ smtpUrl, from: 'Audit <audit@example.org>' });
    const work = new DigestWork(database, { link: digestPath, hideLynis: true, send, logger, now: () => clock, intervalMs: 3_600_000 });
    works.push(work);
    return { work, logger };
  }

  async function call<T>(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: T }> {
    const url = new URL(path, 'http://admin');
    const response = await api.handle({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { authorization: `Bearer ${token}` },
      body: body === undefined ? { kind: 'none' } : { kind: 'json', value: body },
    });
    return { status: response.status, body: (response.body === '' ? undefined : JSON.parse(response.body as string)) as T };
  }
  async function schedule(scope: { group?: string; customer?: string } = { group: 'webservers' }): Promise<DigestSchedule> {
    const created = await call<DigestSchedule>('POST', '/api/admin/digest-schedules', admin, { scope, cadence: 'weekly', recipients: RECIPIENTS });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  }
  const digest = async (id: string) => (await call<Digest>('GET', `/api/admin/digests/${id}`, viewer)).body;
  const readyEvents = async () =>
    ((await database.em.getKnex()('webhook_event').select('data').where('type', 'digest.ready')) as { data: string }[]).map(
      (row) => JSON.parse(row.data) as Record<string, unknown>,
    );

  it("issues the week's digest after Monday 00:00 UTC, once, and the email arrives with its figures", async () => {
    clock = october(30);
    const created = await schedule();
    expect(created.nextDueAt).toBe('2026-11-02T00:00:00.000Z');
    const { work } = digestWork(smtp.url);
    clock = new Date('2026-11-01T23:59:00.000Z');
    await work.settle();
    expect((await call<DigestPage>('GET', '/api/admin/digests', viewer)).body.total).toBe(0);

    clock = new Date('2026-11-02T00:05:00.000Z');
    await work.settle();
    await work.settle();
    const page = (await call<DigestPage>('GET', '/api/admin/digests', viewer)).body;
    expect(page.total).toBe(1);
    const issued = await digest(page.items[0]!.id);
    expect(issued).toMatchObject({
      scheduleId: created.id,
      scope: { group: 'webservers', customer: null },
      cadence: 'weekly',
      periodStart: '2026-10-26T00:00:00.000Z',
      periodEnd: '2026-11-02T00:00:00.000Z',
      link: `/dashboard/digests/${issued.id}`,
      delivery: { status: 'sent', attempts: 1, lastError: null, nextAttemptAt: null, sentAt: clock.toISOString() },
    });
    const content = issued.content!;
    expect(content.compliance.now.hosts).toEqual({ compliant: 2, noncompliant: 0, accepted: 0, unknown: 0 });
    expect(content.compliance.now.compliancePercent).toBe(100);
    expect(content.compliance.before?.hosts).toEqual({ compliant: 1, noncompliant: 1, accepted: 0, unknown: 0 });
    expect(content.compliance.changePoints).toBe(50);
    expect(content.topRegressions.map((finding) => [finding.hostname, finding.testId, finding.at])).toEqual([['web1', 'AUTH-9286', october(29).toISOString()]]);
    // db1 is not of the group.
    expect(content.oldestOpen.map((finding) => [finding.hostname, finding.testId]).sort()).toEqual([
      ['web1', 'AUTH-9286'],
      ['web2', 'FILE-6310'],
      ['web2', 'SSH-7408'],
    ]);
    expect(content.expiringAcceptances).toEqual([]);
    expect(content.expiringWaivers).toEqual([]);

    expect(smtp.received).toHaveLength(1);
    const [received] = smtp.received;
    expect(received!.from).toBe('audit@example.org');
    expect(received!.to).toEqual(RECIPIENTS);
    const mail = readMail(received!.raw);
    expect(mail.subject).toBe('Weekly digest — group webservers — 100.0% compliant (+50.0)');
    expect(mail.text).toContain('Weekly digest of group webservers, 2026-10-26 to 2026-11-01');
    expect(mail.text).toContain('Compliance now: 100.0% (2 compliant, 0 non-compliant, 0 accepted, 0 unknown)');
    expect(mail.text).toContain("At the period's start: 50.0%; change +50.0 points");
    expect(mail.text).toContain('- 2026-10-29 web1: warning AUTH-9286 Password aging');
    expect(mail.text).toContain('<b>bold</b> & <script>alert(1)</script>');
    expect(mail.text).not.toContain('db1');
    expect(mail.text).toContain(`The printable page: /dashboard/digests/${issued.id}`);
    // Host-supplied text is escaped in the HTML part.
    expect(mail.html).toContain('&#60;b&#62;bold&#60;/b&#62; &#38; &#60;script&#62;alert(1)&#60;/script&#62;');
    expect(mail.html).not.toContain('<script>');

    // Issued once: a later pass issues nothing more, and the event was written once.
    clock = new Date('2026-11-02T06:00:00.000Z');
    await work.settle();
    expect((await call<DigestPage>('GET', '/api/admin/digests', viewer)).body.total).toBe(1);
    expect(await readyEvents()).toEqual([
      {
        digestId: issued.id,
        scheduleId: created.id,
        scope: { group: 'webservers', customer: null },
        cadence: 'weekly',
        periodStart: '2026-10-26T00:00:00.000Z',
        periodEnd: '2026-11-02T00:00:00.000Z',
        link: `/dashboard/digests/${issued.id}`,
      },
    ]);
    const [after] = (await call<{ items: DigestSchedule[] }>('GET', '/api/admin/digest-schedules', admin)).body.items;
    expect(after).toMatchObject({ lastIssuedAt: '2026-11-02T00:05:00.000Z', nextDueAt: '2026-11-09T00:00:00.000Z' });
  });

  it('retries a failing SMTP server with backoff, then marks the digest failed, visibly; a resend sends it', async () => {
    clock = new Date('2026-11-02T09:00:00.000Z');
    const created = await schedule();
    smtp.refusing = true;
    const { work, logger } = digestWork(smtp.url.replace('smtp://', `smtp://digest:${PASSWORD}@`));
    const issued = await call<Digest>('POST', `/api/admin/digest-schedules/${created.id}/issue`, operator);
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({
      periodStart: '2026-10-26T09:00:00.000Z',
      periodEnd: '2026-11-02T09:00:00.000Z',
      delivery: { status: 'pending', attempts: 0 },
    });
    const id = issued.body.id;

    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await work.settle();
      const { delivery } = await digest(id);
      expect(delivery.attempts).toBe(attempt);
      expect(delivery.lastError).toMatch(/./);
      expect(delivery.lastError).not.toContain(PASSWORD);
      if (attempt < MAX_ATTEMPTS) {
        expect(delivery.status).toBe('pending');
        expect(delivery.nextAttemptAt).toBe(new Date(clock.getTime() + RETRY_DELAYS_MS[attempt - 1]!).toISOString());
        // Not tried again before its time.
        clock = new Date(clock.getTime() + RETRY_DELAYS_MS[attempt - 1]! - 1000);
        await work.settle();
        expect((await digest(id)).delivery.attempts).toBe(attempt);
        clock = new Date(clock.getTime() + 1000);
      } else {
        expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null, sentAt: null });
      }
    }
    expect(smtp.received).toHaveLength(0);
    const failed = (await call<DigestPage>('GET', '/api/admin/digests?status=failed', viewer)).body;
    expect(failed.items.map((item) => [item.id, item.delivery.status])).toEqual([[id, 'failed']]);
    const errors = logger.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.fields).toMatchObject({ digestId: id, attempts: MAX_ATTEMPTS });
    expect(JSON.stringify(logger.lines)).not.toContain(PASSWORD);
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(MAX_ATTEMPTS - 1);

    // The settings fixed (a server started again with them), a resend sends it.
    await work.stop();
    smtp.refusing = false;
    const fixed = digestWork(smtp.url).work;
    expect((await call('POST', `/api/admin/digests/${id}/resend`, viewer)).status).toBe(403);
    const resent = await call<Digest>('POST', `/api/admin/digests/${id}/resend`, operator);
    expect(resent.status).toBe(200);
    expect(resent.body.delivery).toMatchObject({ status: 'pending', attempts: 0 });
    await fixed.settle();
    expect((await digest(id)).delivery).toMatchObject({ status: 'sent', attempts: 1, lastError: null, sentAt: clock.toISOString() });
    expect(smtp.received).toHaveLength(1);
    expect(await readyEvents()).toHaveLength(1);
  });

  it('issued on demand, counts the hosts as they are now, not as the last provisional snapshot had them', async () => {
    clock = new Date('2026-11-02T09:00:00.000Z');
    const created = await schedule();
    // Today's provisional snapshot is taken (webservers 2 of 2 compliant), then web2 falls under the floor.
    const history = await call<{ points: { compliancePercent: number }[] }>('GET', '/api/admin/compliance/history?group=webservers', viewer);
    expect(history.body.points.at(-1)!.compliancePercent).toBe(100);
    clock = new Date('2026-11-02T09:01:00.000Z');
    const { id: keyId } = (await database.em.getKnex()<{ id: string }>('license_key').first('id'))!;
    await storeLynisText(new OrmReportStore(database), { keyId, hostId: 'web2', text: lynisReport('web2', 'webservers', 40), receivedAt: clock });
    const evaluator = new PolicyEvaluator(database, { now: () => clock, clockRecheckMs: 60_000 });
    await evaluator.settle();
    await evaluator.stop();

    clock = new Date('2026-11-02T09:02:00.000Z');
    const issued = (await call<Digest>('POST', `/api/admin/digest-schedules/${created.id}/issue`, operator)).body;
    expect(issued.content!.compliance.now).toMatchObject({ date: '2026-11-02', compliancePercent: 50, final: false });
    expect(issued.content!.compliance.now.hosts).toEqual({ compliant: 1, noncompliant: 1, accepted: 0, unknown: 0 });
  });

  it('marks a connection refused as a failed attempt too', async () => {
    clock = new Date('2026-11-02T09:00:00.000Z');
    const created = await schedule();
    // A port nothing listens on: the closed SMTP server's.
    const closed = await startTestSmtpServer();
    await closed.close();
    const { work } = digestWork(closed.url);
    const { id } = (await call<Digest>('POST', `/api/admin/digest-schedules/${created.id}/issue`, operator)).body;
    await work.settle();
    expect((await digest(id)).delivery).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED|connect/i) as unknown });
  });

  it('without SMTP settings issues digests as skipped, still announced, and refuses a resend', async () => {
    mailEnabled = false;
    clock = new Date('2026-11-02T09:00:00.000Z');
    const created = await schedule({ customer: 'acme' });
    const { work } = digestWork(undefined);
    const issued = (await call<Digest>('POST', `/api/admin/digest-schedules/${created.id}/issue`, operator)).body;
    expect(issued.delivery).toEqual({ status: 'skipped', attempts: 0, lastError: null, nextAttemptAt: null, sentAt: null });
    await work.settle();
    expect((await digest(issued.id)).delivery.status).toBe('skipped');
    expect((await readyEvents()).map((event) => event['digestId'])).toEqual([issued.id]);
    const refused = await call<{ detail: string }>('POST', `/api/admin/digests/${issued.id}/resend`, operator);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/--smtp-url/);
  });

  it('shows recipients to admins only, refuses bad schedules, and keeps digests of a deleted schedule', async () => {
    clock = new Date('2026-11-02T09:00:00.000Z');
    const created = await schedule();
    expect(created.recipients).toEqual(RECIPIENTS);
    const asViewer = (await call<{ items: DigestSchedule[] }>('GET', '/api/admin/digest-schedules', viewer)).body.items;
    expect(asViewer.map((item) => item.recipients)).toEqual([['***@example.org', '***@example.net']]);
    const bad = async (body: unknown) => call<{ detail: string }>('POST', '/api/admin/digest-schedules', admin, body);
    expect((await bad({ scope: { group: 'a', customer: 'b' }, cadence: 'weekly', recipients: ['a@example.org'] })).body.detail).toMatch(/not both/);
    expect((await bad({ scope: {}, cadence: 'weekly', recipients: ['Someone <a@example.org>'] })).status).toBe(400);
    expect((await bad({ scope: {}, cadence: 'daily', recipients: ['a@example.org'] })).status).toBe(400);
    expect((await bad({ scope: {}, cadence: 'weekly', recipients: [] })).status).toBe(400);
    expect((await call('POST', '/api/admin/digest-schedules', operator, { scope: {}, cadence: 'weekly', recipients: ['a@example.org'] })).status).toBe(403);

    const { id } = (await call<Digest>('POST', `/api/admin/digest-schedules/${created.id}/issue`, operator)).body;
    expect((await call('DELETE', `/api/admin/digest-schedules/${created.id}`, admin)).status).toBe(204);
    expect((await call('DELETE', `/api/admin/digest-schedules/${created.id}`, admin)).status).toBe(404);
    expect((await digest(id)).scheduleId).toBeNull();
    expect((await call('GET', '/api/admin/digests/00000000-0000-4000-8000-000000000000', viewer)).status).toBe(404);
  });
});
