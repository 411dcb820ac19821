// The preview of a policy before it is saved, through the admin API: the hosts of its scope (by group, tag, key and
// host name pattern, as the evaluator selects them), each rule's counts and the hosts failing; a rule that does not
// compile answers 400 naming it; nothing is stored.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReportBytes } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import type { PolicyInput, PolicyPreview } from '../generated/types.gen.js';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { openDatabase, type Database } from '../database/open.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { createKey } from '../secrets/license-keys.js';
import { previewPolicy } from './policy-preview.js';
import { UNSCOPED } from '../people/scope.js';

/** A Lynis report with a host name, hardening index, groups and tags, and the firewall line only when given. */
function report(hostname: string, index: number, { groups = '', tags = '', firewall }: { groups?: string; tags?: string; firewall?: string } = {}) {
  return [
    `hostname=${hostname}`,
    'report_version_major=1',
    'report_version_minor=0',
    `hardening_index=${index}`,
    ...(groups ? [`system-groups=${groups}`] : []),
    ...(tags ? [`tags=${tags}`] : []),
    ...(firewall === undefined ? [] : [`firewall_active=${firewall}`]),
    '',
  ].join('\n');
}

/** Two rules: the index (web-2 and web-3 fail it) and the firewall (db-1 has no such line: an error). */
const RULES: PolicyInput['rules'] = [
  { id: 'hardening', expression: 'summary.hardeningIndex >= 60', description: 'index of 60 or more' },
  { id: 'firewall', expression: "report.firewall_active == '1'" },
];

describe.each(DIALECTS)('the policy preview on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let api: AdminApi;
  let token: string;
  let otherKey: string;

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token } = await createAdminToken(database, { label: 'tests' }));
    const { id: keyId } = await createKey(database, { label: 'main' });
    ({ id: otherKey } = await createKey(database, { label: 'other' }));
    const store = new OrmReportStore(database);
    const upload = async (key: string, hostId: string, text: string, minutesAgo: number) => {
      const content = Buffer.from(text);
      const reading = readReportBytes(content)!;
      await store.save({
        keyId: key,
        hostId,
        receivedAt: new Date(Date.now() - minutesAgo * 60_000),
        encoding: 'raw',
        size: content.length,
        sha256: 'a'.repeat(64),
        content,
        summary: reading.summary,
        labels: reading.labels,
      });
    };
    await upload(keyId, 'a'.repeat(40), report('web-1', 70, { groups: 'web', firewall: '1' }), 1);
    await upload(keyId, 'b'.repeat(40), report('web-2', 40, { groups: 'web', tags: 'prod', firewall: '1' }), 2);
    await upload(keyId, 'c'.repeat(40), report('db-1', 80, { groups: 'db', tags: 'prod' }), 3);
    await upload(otherKey, 'd'.repeat(40), report('web-3', 50, { firewall: '1' }), 4);
    api = await createAdminApi({ database });
  });
  afterEach(async () => {
    await database.close();
  });

  async function preview(body: unknown): Promise<{ status: number; body: PolicyPreview & { errors?: unknown[] } }> {
    const response = await api.handle({
      method: 'POST',
      path: '/api/admin/policies/preview',
      query: {},
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: { kind: 'json', value: body },
    });
    if (typeof response.body !== 'string') throw new Error('a body that is not text');
    return { status: response.status, body: JSON.parse(response.body) as PolicyPreview & { errors?: unknown[] } };
  }
  const counts = (result: PolicyPreview) => [result.hostsWithReports, result.hostsInScope, result.evaluatedHosts, result.failingHosts];

  it('covers every host without a scope, with each rule counted and the hosts failing or erring on one', async () => {
    const { status, body } = await preview({ name: 'Everything', rules: RULES });
    expect(status).toBe(200);
    expect(counts(body)).toEqual([4, 4, 4, 3]);
    expect(body.rules).toEqual([
      { ruleId: 'hardening', description: 'index of 60 or more', evaluated: 4, passing: 2, failing: 2, errors: 0 },
      { ruleId: 'firewall', description: null, evaluated: 4, passing: 3, failing: 0, errors: 1 },
    ]);
  });

  it.each([
    ['group', { group: 'web' }, [4, 2, 2, 1]],
    ['tag', { tag: 'prod' }, [4, 2, 2, 2]],
    ['host name pattern', { hostname: 'WEB-*' }, [4, 3, 3, 2]],
    ['group and tag', { group: 'web', tag: 'prod' }, [4, 1, 1, 1]],
    ['a group no host has', { group: 'nobody' }, [4, 0, 0, 0]],
  ])('counts only the hosts of its scope by %s', async (_, scope, expected) => {
    const { status, body } = await preview({ name: 'Scoped', scope, rules: RULES });
    expect(status).toBe(200);
    expect(counts(body)).toEqual(expected);
    expect(body.rules[0]!.evaluated).toBe(expected[2]);
  });

  it('counts only the hosts of its scope by license key, the key id in any case', async () => {
    const { body } = await preview({ name: 'Other key', scope: { keyId: otherKey.toUpperCase() }, rules: RULES });
    expect(counts(body)).toEqual([4, 1, 1, 1]);
    expect(body.rules[0]).toMatchObject({ passing: 0, failing: 1 });
  });

  it('evaluates the most recently seen hosts in scope when there are more than it takes, counting them all', async () => {
    const result = await previewPolicy(database, UNSCOPED, { rules: RULES, scope: { hostname: 'web-*' } }, { maxHosts: 1 });
    expect(counts(result)).toEqual([4, 3, 1, 0]);
    // Read a host at a time (in id order, which is not the order of recency): still the two most recent, web-1 and web-2.
    const paged = await previewPolicy(database, UNSCOPED, { rules: RULES, scope: { hostname: 'web-*' } }, { maxHosts: 2, scanPage: 1 });
    expect(counts(paged)).toEqual([4, 3, 2, 1]);
    expect(paged.rules[0]).toMatchObject({ passing: 1, failing: 1 });
  });

  it('answers a rule that does not compile as creating the policy would, and stores nothing', async () => {
    const { status, body } = await preview({
      name: 'Broken',
      rules: [RULES[0], { id: 'broken', expression: 'summary.hardeningIndex >=' }],
    });
    expect(status).toBe(400);
    expect(body.errors).toEqual([expect.objectContaining({ ruleId: 'broken' })]);
    expect((await preview({ name: 'Twice', rules: [RULES[0], RULES[0]] })).status).toBe(400);
    await preview({ name: 'Everything', rules: RULES, enabled: true });
    const knex = database.em.getKnex();
    for (const table of ['policy', 'policy_result', 'policy_evaluation', 'policy_result_change']) {
      expect(Number(((await knex(table).count({ n: '*' })) as [{ n: number | string }])[0].n), table).toBe(0);
    }
  });
});
