import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReportBytes } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { minimalReport } from '@org/test-support/lynis-report';
import { databaseTime } from '../database/dialects.js';
import { AdminTokenRecord } from '../database/entities.js';
import { openDatabase, type Database } from '../database/open.js';
import { parseCsvObjects } from '../exports/csv-reader.test-kit.js';
import { trackedFindingsOldestFirst } from '../findings/tracked-finding-pages.js';
import type { TrackedFinding, TrackedFindingPage } from '../generated/types.gen.js';
import { hostRecordId } from '../hosts/host-records.js';
import { scopeColumns, UNSCOPED } from '../people/scope.js';
import { addUserWithPassword } from '../people/user-commands.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { createAdminApi, type AdminApi } from './api.js';

const HOSTILE = '=HYPERLINK("http://evil.example","x")';
const CSV_HEADER =
  'id,hostRecordId,hostname,kind,testId,text,state,stateSince,ownerEmail,dueAt,acceptReason,acceptApprover,acceptExpiresAt,firstSeen,lastSeen,resolvedAt,regressions';

describe.each(DIALECTS)('export of findings with their lifecycle on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let api: AdminApi;
  let keyId: string;
  let token: string;

  async function upload(hostId: string, receivedAt: string, ...lines: string[]): Promise<void> {
    const content = Buffer.from(minimalReport(...lines));
    const reading = readReportBytes(content);
    await new OrmReportStore(database).save({
      ...{ keyId, hostId, receivedAt: new Date(receivedAt), encoding: 'raw', size: content.length, sha256: 'a'.repeat(64), content },
      ...{ summary: reading?.summary ?? null, labels: reading?.labels },
    });
  }

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ id: keyId } = await createKey(database));
    ({ token } = await createAdminToken(database, { label: 'reader', role: 'viewer' }));
    api = await createAdminApi({ database });
    await upload(
      'web',
      '2026-11-01T00:00:00.000Z',
      'hostname=web-01',
      'system-groups=web',
      'warning[]=SSH-7408|Telnet is enabled|-|-|',
      `suggestion[]=AUTH-9262|${HOSTILE}|-|-|`,
    );
    await upload(
      'db',
      '2026-11-02T00:00:00.000Z',
      'hostname=db-01',
      'system-groups=db',
      'warning[]=SSH-7408|Telnet is enabled|-|-|',
      'suggestion[]=LYNIS|Old release|-|-|',
    );
    await upload('gone', '2026-11-03T00:00:00.000Z', 'hostname=gone-01', 'warning[]=SSH-7408|Telnet is enabled|-|-|');
    await database.em.getKnex()('host').where('id', hostRecordId(keyId, 'gone')).update({ state: 'decommissioned' });
    // The web host's warning accepted by a person, until a fixed day.
    const approver = await addUserWithPassword(database, { email: 'ada@example.org', role: 'admin' }, 'correct horse battery staple');
    await database.em
      .getKnex()('finding')
      .where({ host_record_id: hostRecordId(keyId, 'web'), test_id: 'SSH-7408' })
      .update({
        state: 'accepted',
        accept_reason: 'Legacy terminal; replaced in Q1',
        accept_approver_id: approver.id,
        accept_requested_by: 'grace@example.org',
        accept_expires_at: databaseTime(database, new Date('2027-01-31T00:00:00.000Z')),
      });
  });
  afterEach(() => database.close());

  async function get(path: string, as = token): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const url = new URL(path, 'http://admin');
    const query = Object.fromEntries(url.searchParams);
    const response = await api.handle({ method: 'GET', path: url.pathname, query, headers: { authorization: `Bearer ${as}` }, body: { kind: 'none' } });
    const body = response.body instanceof Readable ? await text(response.body) : String(response.body);
    return { status: response.status, headers: response.headers as Record<string, string>, body };
  }
  const csvOf = parseCsvObjects;
  const jsonLinesOf = (body: string) =>
    body
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as TrackedFinding);

  it('writes a CSV header and a row per finding the list shows, oldest first, the acceptance flattened and host text neutralised', async () => {
    const csv = await get('/api/admin/exports/finding-states?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="finding-states.csv"');
    expect(csv.body.split('\n')[0]).toBe(CSV_HEADER);
    const rows = csvOf(csv.body);
    const list = JSON.parse((await get('/api/admin/findings/tracked?limit=100')).body) as TrackedFindingPage;
    expect(rows.map((row) => row.id)).toEqual(list.items.map((finding) => finding.id));
    // Lynis' own finding and the decommissioned host's are left out, as the list leaves them out.
    expect(rows.map((row) => `${row.hostname} ${row.testId} ${row.state}`)).toEqual(
      expect.arrayContaining(['web-01 SSH-7408 accepted', 'web-01 AUTH-9262 open', 'db-01 SSH-7408 open']),
    );
    expect(rows).toHaveLength(3);
    const accepted = rows.find((row) => row.state === 'accepted')!;
    expect(accepted).toMatchObject({
      acceptReason: 'Legacy terminal; replaced in Q1',
      acceptApprover: 'ada@example.org',
      acceptExpiresAt: '2027-01-31T00:00:00.000Z',
      firstSeen: '2026-11-01T00:00:00.000Z',
      regressions: '0',
    });
    expect(rows.find((row) => row.testId === 'AUTH-9262')!.text).toBe(`'${HOSTILE}`);
    expect(rows.find((row) => row.testId === 'AUTH-9262')!.acceptReason).toBe('');
  });

  it('writes JSON Lines that parse to the findings the list shows', async () => {
    const jsonl = await get('/api/admin/exports/finding-states?format=jsonl');
    expect(jsonl.headers['content-type']).toBe('application/jsonl; charset=utf-8');
    expect(jsonl.headers['content-disposition']).toBe('attachment; filename="finding-states.jsonl"');
    const list = JSON.parse((await get('/api/admin/findings/tracked?limit=100')).body) as TrackedFindingPage;
    const lines = jsonLinesOf(jsonl.body);
    expect(lines).toEqual(list.items);
    expect(lines.find((finding) => finding.testId === 'AUTH-9262')!.text).toBe(HOSTILE);
    expect(lines.find((finding) => finding.state === 'accepted')!.acceptance).toMatchObject({
      approverEmail: 'ada@example.org',
      requestedBy: 'grace@example.org',
    });
  });

  it.each([
    ['state=open', ['db-01 SSH-7408', 'web-01 AUTH-9262']],
    ['state=accepted,resolved', ['web-01 SSH-7408']],
    ['kind=suggestion', ['web-01 AUTH-9262']],
    ['testId=LYNIS', ['db-01 LYNIS']],
    ['group=DB', ['db-01 SSH-7408']],
    ['group=web&kind=warning', ['web-01 SSH-7408']],
    ['state=regressed', []],
  ])('filters as the list does: %s', async (filters, expected) => {
    const lines = jsonLinesOf((await get(`/api/admin/exports/finding-states?format=jsonl&${filters}`)).body);
    expect(lines.map((finding) => `${finding.hostname} ${finding.testId}`).sort()).toEqual(expected);
    const list = JSON.parse((await get(`/api/admin/findings/tracked?limit=100&${filters}`)).body) as TrackedFindingPage;
    expect(lines.map((finding) => finding.id)).toEqual(list.items.map((finding) => finding.id));
  });

  it("gives a scoped reader only its hosts' findings, and refuses an unknown state", async () => {
    const { id, token: scoped } = await createAdminToken(database, { label: 'db team', role: 'viewer' });
    await database.em.fork().nativeUpdate(AdminTokenRecord, { id }, scopeColumns({ customers: [], groups: ['db'] }));
    const rows = csvOf((await get('/api/admin/exports/finding-states', scoped)).body);
    expect(rows.map((row) => `${row.hostname} ${row.testId}`)).toEqual(['db-01 SSH-7408']);
    expect((await get('/api/admin/exports/finding-states?state=closed')).status).toBe(400);
  });

  it('reads page after page without losing or repeating a finding, findings first seen together included', async () => {
    for (let host = 0; host < 4; host++)
      await upload(
        `more-${host}`,
        '2026-11-05T00:00:00.000Z',
        `hostname=more-${host}`,
        'warning[]=SSH-7408|Telnet|-|-|',
        'suggestion[]=PKGS-7392|Updates|-|-|',
      );
    const pagesOf = async (pageSize?: number) => {
      const pages: TrackedFinding[][] = [];
      for await (const page of trackedFindingsOldestFirst(database, UNSCOPED, {}, pageSize)) pages.push(page);
      return pages;
    };
    const whole = (await pagesOf()).flat();
    const pages = await pagesOf(3);
    expect(whole).toHaveLength(12);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 3, 3]);
    expect(pages.flat()).toEqual(whole);
  });
});
