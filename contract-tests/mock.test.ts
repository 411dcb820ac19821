// The Prism mock that collector developers run (`npm run mock`), checked against the contract's exact texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  createAdminClient,
  NotFoundError,
  RequestRejectedError,
  type AdminClient,
  type FindingGroupPage,
  type HostPage,
  type Overview,
} from '@org/audit-client';
import type { CheckLicenseErrors, CheckLicenseResponses, Problem } from '@org/audit-server-core';
import { adminOperations, EXAMPLE_ID } from './support/admin-operations.js';
import { startPrism, type PrismProcess } from './support/prism.js';
import { expectAnswer, requestMatrix, send } from './support/request-matrix.js';

// The answers, typed by the types generated from openapi.yaml: a changed text breaks the build of this test.
const VALID: CheckLicenseResponses[200] = 'Response 100';
const INVALID: CheckLicenseErrors[401] = 'Response 500';
const anyKeys = { valid: 'deadbeef-0000-0000-0000-000000000001', revoked: 'deadbeef-0000-0000-0000-00000000dead' };

let mock: PrismProcess;
/** `prism proxy --errors` in front of the mock: it turns an example that breaks its own schema into a 500. */
let checkedMock: PrismProcess;
beforeAll(async () => {
  mock = await startPrism('mock');
  checkedMock = await startPrism('proxy', [mock.url, '--errors']);
});
afterAll(async () => {
  await checkedMock?.stop();
  await mock?.stop();
});

describe.each(['/api/audit', '/api/v1/audit'])('mock license check at %s/license/', (base) => {
  const check = (headers?: Record<string, string>) =>
    fetch(`${mock.url}${base}/license/`, { method: 'POST', body: new URLSearchParams({ licensekey: anyKeys.valid }), headers });

  it('answers exactly the 12 bytes "Response 100" as text/plain by default', async () => {
    const response = await check();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(VALID));
  });

  it('answers exactly "Response 500" with 401 for Prefer: code=401', async () => {
    const response = await check({ prefer: 'code=401' });
    expect(response.status).toBe(401);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(INVALID));
  });
});

describe('mock answers to the request matrix, where a mock can know them', () => {
  it.each(requestMatrix.filter((c) => c.mock))('$name', async (matrixCase) => {
    const answer = await send(mock.url, matrixCase, anyKeys);
    expectAnswer(answer, matrixCase.mock!);
    if (answer.status >= 400 && answer.status !== 401) {
      // Refused by Prism's own request validation, which names the violation.
      expect(answer.headers.get('sl-violations') ?? answer.body).toMatch(/licensekey|hostid|data|content types/);
    }
  });
});

describe('mock admin API', () => {
  const TOKEN = 'adm_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
  const operations = adminOperations();
  let admin: AdminClient;
  beforeAll(() => {
    admin = createAdminClient({ baseUrl: checkedMock.url, token: TOKEN });
  });
  afterAll(() => admin?.close());

  it('covers every admin operation of the contract', () => {
    expect(operations.map((o) => o.operationId).sort()).toEqual([
      'acceptHostIdentity',
      'changeHostStates',
      'createDigestSchedule',
      'createEnrollment',
      'createLicenseKey',
      'createMyToken',
      'createPolicy',
      'createServiceToken',
      'createUser',
      'createWaiver',
      'createWaivers',
      'createWebhook',
      'decommissionHost',
      'deleteDigestSchedule',
      'deleteHost',
      'deletePolicy',
      'deleteUser',
      'deleteWaiver',
      'deleteWebhook',
      'enableBaselinePolicy',
      'exportAuditEvents',
      'exportComplianceHistory',
      'exportFindingStates',
      'exportFindings',
      'exportHostHistory',
      'exportHosts',
      'finishSsoSignIn',
      'getAdminSession',
      'getComplianceHistory',
      'getDigest',
      'getHost',
      'getHostCompliance',
      'getOverview',
      'getPolicy',
      'getRawReport',
      'getReport',
      'getReportDiff',
      'getSignInOptions',
      'getTimeToFix',
      'getWebhook',
      'importControls',
      'issueDigest',
      'listAdminTokens',
      'listAuditEvents',
      'listControls',
      'listDigestSchedules',
      'listDigests',
      'listEnrollments',
      'listFacets',
      'listFindings',
      'listHostFindings',
      'listHosts',
      'listLicenseKeys',
      'listMyTokens',
      'listPeople',
      'listPolicies',
      'listPolicyResults',
      'listRejections',
      'listReports',
      'listTrackedFindings',
      'listUsers',
      'listWaivers',
      'listWebhookDeliveries',
      'listWebhooks',
      'mergeHosts',
      'previewBaselinePolicy',
      'previewPolicy',
      'reactivateHost',
      'redeliverWebhookDelivery',
      'resendDigest',
      'revokeAdminToken',
      'revokeEnrollment',
      'revokeLicenseKey',
      'revokeMyToken',
      'rotateLicenseKey',
      'sendTestWebhookEvent',
      'signIn',
      'signOut',
      'startSsoSignIn',
      'updateFinding',
      'updateLicenseKey',
      'updatePolicy',
      'updateUser',
      'updateWebhook',
    ]);
  });

  // All but signing in and out, which anyone may call (`x-required-role: none`).
  const secured = operations.filter((operation) => operation.requiredRole !== 'none');
  it.each(secured)('$operationId without a bearer token: 401 problem+json with WWW-Authenticate: Bearer', async ({ method, path }) => {
    const response = await fetch(`${mock.url}${path}`, { method });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toMatchObject<Partial<Problem>>({ title: 'Unauthorized', status: 401 });
  });

  it.each(operations)('$operationId with a token: its documented answer, matching its schema', async ({ method, path, successStatus, successType, body }) => {
    const headers = { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': body.contentType }) };
    // A redirect (single sign-on's steps) is the documented answer: asked of the mock itself, as the checking proxy
    // follows redirects, and not followed here.
    const base = successStatus >= 300 && successStatus < 400 ? mock.url : checkedMock.url;
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body?.text,
      redirect: 'manual',
    });
    const answer = await response.text();
    expect({ status: response.status, violations: response.headers.get('sl-violations') }, answer).toEqual({ status: successStatus, violations: null });
    if (successType === undefined) expect(answer).toBe('');
    else expect(response.headers.get('content-type')).toMatch(new RegExp(`^${successType}`));
  });

  it('lists a host page and a host with its hardening history', async () => {
    const page = await admin.listHosts({ hostname: 'web', limit: 10 });
    expect(page).toMatchObject({ total: 1, offset: 0, items: [{ id: EXAMPLE_ID, hostname: 'web-01', latestHardeningIndex: 56 }] });
    const host = await admin.getHost(EXAMPLE_ID, { historyLimit: 5 });
    expect(host.hardeningHistory).toEqual([{ reportId: EXAMPLE_ID, receivedAt: host.lastSeen, hardeningIndex: 56 }]);
  });

  it('gives the fleet overview and the findings across the fleet, and lists hosts by group, tag, finding and last seen', async () => {
    const overview = await admin.getOverview();
    expect(overview.hardeningIndex.distribution).toHaveLength(10);
    expect(overview.staleHosts[0]).toMatchObject({ id: EXAMPLE_ID, groups: ['webservers'], tags: ['production'] });
    const findings = await admin.listFindings({ kind: 'warning', testId: 'PKGS-7392', limit: 10 });
    expect(findings.items[0]).toEqual({ kind: 'warning', testId: 'PKGS-7392', text: 'Found one or more vulnerable packages.', hosts: 12 });
    const hosts = await admin.listHosts({
      group: 'webservers',
      tag: 'production',
      finding: 'PKGS-7392',
      findingKind: 'warning',
      seenBefore: '2026-11-23T00:00:00.000Z',
      sort: 'warnings',
      order: 'asc',
    });
    expect(hosts.items[0]).toMatchObject({ latestWarningCount: 1, latestSuggestionCount: 24, customerName: 'acme', hostnameAlias: 'web-01.example.org' });
  });

  it('shows a report detail whose summary agrees with its counts, and the same report raw as text/plain', async () => {
    const report = await admin.getReport(EXAMPLE_ID);
    expect(report).toMatchObject({ id: EXAMPLE_ID, hostname: 'web-01', hardeningIndex: 56 });
    expect(report.summary).toMatchObject({ hostname: report.hostname, lynisVersion: report.lynisVersion, hardeningIndex: report.hardeningIndex });
    expect(report.summary!.warnings).toHaveLength(report.warningCount!);
    expect(report.summary!.suggestions).toHaveLength(report.suggestionCount!);
    const reports = await admin.listReports({ hostRecordId: EXAMPLE_ID });
    expect(reports.items[0]).toEqual(Object.fromEntries(Object.entries(report).filter(([name]) => name !== 'summary')));

    const raw = await admin.getRawReport(EXAMPLE_ID);
    expect(raw).toContain('license_key=[redacted]\n');
    expect(raw).toContain(`hostname=${report.hostname}\n`);
    expect(raw).toContain(`hardening_index=${report.hardeningIndex}\n`);
  });

  it('creates (201), revokes and rotates license keys, with answers that fit what happened', async () => {
    const created = await admin.createLicenseKey({ label: 'web servers', expiresAt: '2027-11-01T00:00:00.000Z' });
    expect(created.key).toMatchObject({ state: 'valid', lastUsedAt: null, lastUploadAt: null });
    expect(created.licenseKey.startsWith(created.key.prefix)).toBe(true);
    expect(await admin.revokeLicenseKey(EXAMPLE_ID)).toMatchObject({ id: EXAMPLE_ID, state: 'revoked' });
    const rotated = await admin.rotateLicenseKey(EXAMPLE_ID, { graceSeconds: 86_400 });
    expect(rotated.previous).toMatchObject({ id: EXAMPLE_ID, state: 'valid' });
    expect(rotated.key.id).not.toBe(rotated.previous.id);
    expect(rotated.licenseKey.startsWith(rotated.key.prefix)).toBe(true);
    expect(Date.parse(rotated.previous.expiresAt!) - Date.parse(rotated.key.createdAt)).toBe(86_400_000);
    expect((await admin.listLicenseKeys()).items).toHaveLength(1);
  });

  it('lists refused uploads with their hosts, keys, addresses and counts', async () => {
    const page = await admin.listRejections({ since: '2026-11-01', reason: 'invalid-key', operation: 'uploadReport' });
    expect(page).toMatchObject({
      total: 1,
      items: [
        { day: '2026-11-22', operation: 'uploadReport', reason: 'invalid-key', keyId: EXAMPLE_ID, folded: false, remoteAddresses: ['203.0.113.7'], count: 3 },
      ],
    });
  });

  it('gives the fleet overview, the findings across the fleet, and hosts by group, tag, finding and sort', async () => {
    const read = async <T>(path: string) => {
      const response = await fetch(`${checkedMock.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect({ status: response.status, violations: response.headers.get('sl-violations') }).toEqual({ status: 200, violations: null });
      return (await response.json()) as T;
    };
    const overview = await read<Overview>('/api/admin/overview');
    expect(overview).toMatchObject({ hosts: { total: 512, stale: 7 }, hardeningIndex: { median: 65 }, uploadsPerDay: [{ accepted: 498, refused: 3 }] });
    expect(overview.hardeningIndex.distribution).toHaveLength(10);
    expect(overview.staleHosts[0]).toMatchObject({ groups: ['webservers'], tags: ['production'], customerName: 'acme', latestWarningCount: 1 });
    const findings = await read<FindingGroupPage>('/api/admin/findings?kind=warning&testId=PKGS-7392&limit=10');
    expect(findings.items[0]).toMatchObject({ kind: 'warning', testId: 'PKGS-7392', hosts: 12 });
    const hosts = await read<HostPage>(
      '/api/admin/hosts?group=webservers&tag=production&os=Debian&finding=PKGS-7392&findingKind=warning&seenBefore=2026-11-15T00:00:00.000Z&sort=warnings&order=asc',
    );
    expect(hosts.items[0]).toMatchObject({ groups: ['webservers'], tags: ['production'], hostnameAlias: 'web-01.example.org' });
  });

  it.each([
    ['limit=0', '/api/admin/hosts?limit=0', /limit/],
    ['a sort the contract does not name', '/api/admin/hosts?sort=name', /sort/],
    ['a finding kind that is neither', '/api/admin/hosts?finding=PKGS-7392&findingKind=note', /findingKind/i],
    ['staleDays=0', '/api/admin/overview?staleDays=0', /staleDays/i],
    ['a test id with a control character', '/api/admin/findings?testId=A%00B', /testId/i],
    ['since that is no date', '/api/admin/rejections?since=yesterday', /since/],
    ['limit=501', '/api/admin/reports?limit=501', /limit/],
    ['offset=-1', '/api/admin/hosts?offset=-1', /offset/],
    ['historyLimit=1001', `/api/admin/hosts/${EXAMPLE_ID}?historyLimit=1001`, /historyLimit/i],
    ['an id that is not a uuid', '/api/admin/reports/not-a-uuid', /reportid.*uuid/i],
  ])('refuses an invalid query: %s gets 400 naming the violation', async (_name, path, violation) => {
    const response = await fetch(`${mock.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('sl-violations')).toMatch(violation);
  });

  it('gives the typed client the errors it maps: 400 for a body the contract refuses, 404 and 409 on request', async () => {
    // Straight to the mock: the checking proxy answers an invalid request 422 itself.
    const asking = (code?: number) => createAdminClient({ baseUrl: mock.url, token: TOKEN, headers: code ? { prefer: `code=${code}` } : {} });
    const unknownField = { label: 'x', owner: 'me' } as unknown as { label: string };
    await expect(asking().createLicenseKey(unknownField)).rejects.toBeInstanceOf(RequestRejectedError);
    await expect(asking().listHosts({ limit: 0 })).rejects.toMatchObject({ code: 'rejected', status: 400, problem: { status: 400 } });
    const notFound = await asking(404)
      .getReport(EXAMPLE_ID)
      .catch((error: unknown) => error);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, reason: `No report with id ${EXAMPLE_ID}`, problem: { title: 'Not Found' } });
    await expect(asking(409).rotateLicenseKey(EXAMPLE_ID)).rejects.toBeInstanceOf(ConflictError);
  });
});
