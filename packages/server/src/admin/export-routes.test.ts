import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReportBytes } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import type { HostPage } from '../generated/types.gen.js';
import { openDatabase, type Database } from '../database/open.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { createAdminApi, type AdminApi } from './api.js';

/** List queries whose hosts the export must give: filters alone, combined, sorted each way, and matching none. */
const QUERIES = [
  '',
  'group=web',
  'tag=eu&sort=hostname&order=asc',
  'finding=AUTH-9262&sort=hardeningIndex',
  'hostname=HOST-1&sort=warnings&order=asc',
  'seenBefore=2026-11-10T00:00:00.000Z&group=db&sort=lastSeen&order=asc',
  'os=none',
];

describe.each(DIALECTS)('exports of a filtered host list on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let api: AdminApi;
  let token: string;

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token } = await createAdminToken(database, { label: 'tests' }));
    const { id: keyId } = await createKey(database, { label: 'Lab key' });
    api = await createAdminApi({ database });
    const store = new OrmReportStore(database);
    for (let host = 0; host < 30; host++) {
      const lines = [
        'report_version_major=1',
        'lynis_version=3.0.8',
        `hostname=host-${host % 13}`,
        ...(host % 7 === 6 ? [] : [`hardening_index=${50 + (host % 9)}`]),
        `system-groups=${host % 3 === 0 ? 'web' : 'db'}`,
        `tags=${host % 2 === 0 ? 'eu' : 'us'}`,
        ...(host % 4 === 0 ? ['warning[]=AUTH-9262|Weak|-|-|'] : []),
        '',
      ];
      const content = Buffer.from(lines.join('\n'));
      const reading = readReportBytes(content);
      const receivedAt = new Date(host % 5 === 0 ? '2026-11-01T00:00:00.000Z' : `2026-11-${String(2 + (host % 20)).padStart(2, '0')}T00:00:00.000Z`);
      await store.save({
        ...{ keyId, hostId: String(host).padStart(40, '0'), receivedAt, encoding: 'raw', size: content.length, sha256: 'a'.repeat(64), content },
        ...{ summary: reading?.summary ?? null, labels: reading?.labels },
      });
    }
  });
  afterEach(() => database.close());

  /** GETs an admin path as the HTTP adapters hand it over: the status and the body as text (streamed ones read whole). */
  async function get(path: string): Promise<{ status: number; body: string }> {
    const url = new URL(path, 'http://admin');
    const query = Object.fromEntries(url.searchParams);
    const response = await api.handle({ method: 'GET', path: url.pathname, query, headers: { authorization: `Bearer ${token}` }, body: { kind: 'none' } });
    const body = response.body instanceof Readable ? await text(response.body) : String(response.body);
    return { status: response.status, body };
  }

  it.each(QUERIES)('exports as many hosts as the list counts, in its order, as CSV and JSON: %s', async (query) => {
    const list = await get(`/api/admin/hosts?limit=500&${query}`);
    expect(list.status).toBe(200);
    const page = JSON.parse(list.body) as HostPage;
    const csv = await get(`/api/admin/exports/hosts?format=csv&${query}`);
    expect(csv.status).toBe(200);
    const rows = csv.body.trim().split('\n').slice(1);
    expect(rows).toHaveLength(page.total);
    expect(rows.map((row) => row.split(',')[0])).toEqual(page.items.map((host) => host.id));
    const json = JSON.parse((await get(`/api/admin/exports/hosts?format=json&${query}`)).body) as { id: string; keyLabel: string; failingRules: string[] }[];
    expect(json.map((host) => host.id)).toEqual(page.items.map((host) => host.id));
    for (const host of json) expect([host.keyLabel, host.failingRules]).toEqual(['Lab key', []]);
  });

  it("exports only the findings of the list's hosts, and refuses a filter the list refuses", async () => {
    const findings = JSON.parse((await get('/api/admin/exports/findings?format=json&group=web')).body) as { hostname: string }[];
    expect(findings.map((finding) => finding.hostname).sort()).toEqual(['host-0', 'host-11', 'host-12']); // web hosts with a warning: 0, 12 and 24
    for (const bad of ['sort=nonsense', 'order=sideways', 'keyId=not-a-uuid', 'hostname=%00']) {
      expect((await get(`/api/admin/exports/hosts?${bad}`)).status, bad).toBe(400);
    }
  });
});
