import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import { minimalReport } from '@org/test-support/lynis-report';
import { createAuditApi } from './audit-api.js';
import type { RequestRejectedEvent } from './hooks.js';
import { InMemoryKeyStore, InMemoryReportStore } from './memory-stores.js';
import { incompleteReportReason } from './report-minimum.js';
import { ReportRefusedError, type ReportStore } from './stores.js';

const KEY = 'deadbeef-0000-0000-0000-000000000001';
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** Every byte as `%XX`, so that bytes that are not UTF-8 arrive as they are. */
const percentEncoded = (bytes: Buffer) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

/** An API over in-memory stores (or `reportStore`), with the refusals its hook saw. */
async function apiWith(reportStore: ReportStore = new InMemoryReportStore()) {
  const keyStore = new InMemoryKeyStore();
  keyStore.add(KEY);
  const rejected: RequestRejectedEvent[] = [];
  const api = await createAuditApi({ keyStore, reportStore, logger: quiet, hooks: { onRequestRejected: (event) => void rejected.push(event) } });
  const upload = async (data: string | Buffer) =>
    (await api.handle({
      method: 'POST',
      path: '/api/audit/upload/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: Readable.from([Buffer.from(`data=${percentEncoded(Buffer.from(data))}&${new URLSearchParams({ licensekey: KEY, hostid: 'web-01' })}`)]),
    }))!;
  return { upload, rejected };
}

describe('what counts as a report', () => {
  it.each([
    ['one key=value line', 'x=1\n', 'no report_version_major= or lynis_version= line'],
    ['a header without finish=true', '# Lynis Report\nreport_version_major=1\nhostname=web-01\n', 'no finish=true line'],
    ['finish=true without a header', 'hostname=web-01\nfinish=true\n', 'no report_version_major= or lynis_version= line'],
    ['an unfinished audit', 'lynis_version=3.0.8\nfinish=false\n', 'no finish=true line'],
    ['finish=true inside another line', 'lynis_version=3.0.8\nx_finish=true\n', 'no finish=true line'],
  ])('refuses %s with 400 and the reason not-a-report, storing nothing', async (_name, data, reason) => {
    const reportStore = new InMemoryReportStore();
    const { upload, rejected } = await apiWith(reportStore);
    const response = await upload(data);
    expect(response.status).toBe(400);
    expect(response.body).toBe(`Not a report: ${reason}`);
    expect(reportStore.reports.size).toBe(0);
    expect(rejected).toMatchObject([{ reason: 'not-a-report', status: 400, operation: 'uploadReport' }]);
  });

  it.each([
    ['the captured Lynis report', readLynisFixture('report.dat')],
    ['the minimal report of the test kit', Buffer.from(minimalReport())],
    ['lynis_version= with CRLF line ends', Buffer.from('lynis_version=3.0.8\r\nfinish=true\r\n')],
    [
      'a report that is not UTF-8, sent as base64',
      Buffer.from(Buffer.from('report_version_major=1\nhostname=caf\xe9\nfinish=true', 'latin1').toString('base64')),
    ],
  ])('stores %s', async (_name, data) => {
    const reportStore = new InMemoryReportStore();
    const { upload } = await apiWith(reportStore);
    const response = await upload(data);
    expect(response.status).toBe(200);
    expect(reportStore.reports.size).toBe(1);
  });

  it('reads the rule from the bytes alone', () => {
    expect(incompleteReportReason(Buffer.from('\ufeffreport_version_major=1\nfinish=true\n'))).toBeNull();
    expect(incompleteReportReason(Buffer.from(''))).toBe('no report_version_major= or lynis_version= line');
  });
});

describe('a store refusing a report', () => {
  it.each([
    [new ReportRefusedError('host-identity-changed', 409, 'Host identity changed'), 409, {}],
    [new ReportRefusedError('host-quota-exceeded', 429, 'Host quota exceeded', 3600), 429, { 'retry-after': '3600' }],
  ])('answers with its status and reason, reported as a refusal, never as unavailable', async (error, status, headers) => {
    const { upload, rejected } = await apiWith({ save: () => Promise.reject(error) });
    const response = await upload(minimalReport());
    expect(response.status).toBe(status);
    expect(response.body).toBe(error.message);
    expect(response.headers).toMatchObject(headers);
    expect(rejected).toMatchObject([{ reason: error.reason, status, keyId: expect.any(String), hostId: 'web-01' }]);
  });
});
