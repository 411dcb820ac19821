import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readReportBytes, type ReportToStore } from '@org/audit-server-core';
import { HEAP_RULE, SLOW_RULE, STALLING_RULE } from '@org/test-support/hostile-rules';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { sqlDialectOf } from '../database/dialects.js';
import { openDatabase, type Database } from '../database/open.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey } from '../secrets/license-keys.js';
import { createWebhook } from '../webhooks/webhook-records.js';
import { PolicyEvaluator } from './policy-evaluator.js';
import { DomainError } from '../errors/domain-error.js';
import { createPolicy, findPolicy, setPolicyEnabled, updatePolicy } from './policy-records.js';
import { withRun } from './policy-quarantine.js';
import { listResults } from './policy-results.js';
import { RULE_BUDGET } from './rule-budget.js';
import { RuleRunner } from './rule-runner.js';

const report = (hostname: string) =>
  ['report_version_major=1', 'report_version_minor=0', 'lynis_version=3.0.8', `hostname=${hostname}`, 'hardening_index=70', ''].join('\n');

/** Stores a policy as an earlier version saved it, without the budget check. */
async function storePolicy(database: Database, name: string, expression: string): Promise<string> {
  const id = randomUUID();
  const time = sqlDialectOf(database.em).toDatabaseTime(new Date());
  await database.em
    .getKnex()('policy')
    .insert({
      id,
      name,
      description: null,
      enabled: true,
      rules: JSON.stringify([{ id: 'rule', description: null, expression }]),
      created_at: time,
      updated_at: time,
      revision: 1,
    });
  return id;
}

describe.each(DIALECTS)('bounded policy evaluation on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  let keyId: string;
  let evaluator: PolicyEvaluator | undefined;
  beforeEach(async () => {
    orm = await openDatabase(database.location);
    ({ id: keyId } = await createKey(orm));
  });
  afterEach(async () => {
    await evaluator?.stop();
    evaluator = undefined;
    await orm.close();
  });

  async function upload(hosts: number): Promise<void> {
    const store = new OrmReportStore(orm);
    for (let i = 0; i < hosts; i++) {
      const content = Buffer.from(report(`host-${i}`));
      const reading = readReportBytes(content)!;
      const row: ReportToStore = {
        keyId,
        hostId: `${i}`.padStart(40, '0'),
        receivedAt: new Date(),
        encoding: 'raw',
        size: content.length,
        sha256: 'a'.repeat(64),
        content,
        summary: reading.summary,
        labels: reading.labels,
      };
      await store.save(row);
    }
  }

  const events = async () => orm.em.getKnex()('webhook_event').select<{ type: string; data: string }[]>('type', 'data');

  it('refuses at save time a rule over its budget on the synthetic report: position null, the message naming the budget', async () => {
    for (const [expression, budget] of [
      [STALLING_RULE, `the rule built a string longer than ${RULE_BUDGET.stringCharacters} characters`],
      [HEAP_RULE, 'the rule built a string longer than'],
      [SLOW_RULE, `the rule exceeded its time budget of ${RULE_BUDGET.timeMs} ms`],
    ] as const) {
      const refused = await createPolicy(orm, {
        name: 'hostile',
        rules: [
          { id: 'ok', expression: 'summary.hardeningIndex >= 60' },
          { id: 'bad', expression },
        ],
      }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DomainError);
      expect((refused as DomainError).errors).toEqual([{ ruleId: 'bad', position: null, message: expect.stringContaining(budget) }]);
      expect((refused as DomainError).errors[0]!.message).toMatch(/on a large synthetic report \(the evaluation budget\)$/);
    }
    // Ordinary rules over every list of a large report are accepted.
    await createPolicy(orm, {
      name: 'fine',
      rules: [
        {
          id: 'lists',
          expression:
            "summary.warnings.all(w, w.testId != 'X') && report.vulnerable_package.map(p, p + '-x').size() >= 0 && report.installed_packages_array.size() >= 0",
        },
      ],
    });
  });

  it('a rule overrunning its time budget strikes its policy; three strikes quarantine it, with a webhook event; enabling is refused until the rule is fixed', async () => {
    await createWebhook(orm, { url: 'https://hooks.example.com/x', events: ['policy.quarantined'] });
    const slow = await storePolicy(orm, 'slow', SLOW_RULE);
    const fine = await createPolicy(orm, { name: 'fine', rules: [{ id: 'index', expression: 'summary.hardeningIndex >= 60' }] });
    await upload(4);
    evaluator = new PolicyEvaluator(orm, { batchSize: 2 });
    await evaluator.settle();
    const quarantined = (await findPolicy(orm, slow))!;
    expect(quarantined).toMatchObject({
      enabled: false,
      quarantine: {
        at: expect.any(Date),
        reason: expect.stringMatching(new RegExp(`^rule rule: the rule exceeded its time budget of ${RULE_BUDGET.timeMs} ms \\([34] overruns\\)$`)),
      },
    });
    expect((await events()).map((event) => [event.type, JSON.parse(event.data)])).toEqual([
      ['policy.quarantined', { policyId: slow, policyName: 'slow', ruleId: 'rule', reason: quarantined.quarantine!.reason, at: expect.any(String) }],
    ]);
    // The other policy is evaluated as usual, and the quarantined one's results are gone with it.
    expect((await listResults(orm, fine.id, { limit: 10, offset: 0 })).items.map((result) => result.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect((await listResults(orm, slow, { limit: 10, offset: 0 })).total).toBe(0);
    // Enabling checks the rule against the budget, as saving does: refused while the rule is over it.
    await expect(setPolicyEnabled(orm, slow, true)).rejects.toMatchObject({ code: 'invalid', errors: [{ ruleId: 'rule', position: null }] });
    expect(await findPolicy(orm, slow)).toMatchObject({ enabled: false, quarantine: expect.anything() });
    // Fixed and saved: quarantine and strikes cleared; disabled and enabled again, it stays clear.
    expect(await updatePolicy(orm, slow, { name: 'slow', rules: [{ id: 'rule', expression: 'true' }] })).toMatchObject({ enabled: true, quarantine: null });
    expect(Number((await orm.em.getKnex()('policy').first('strikes').where('id', slow)).strikes)).toBe(0);
    expect(await setPolicyEnabled(orm, slow, false)).toMatchObject({ enabled: false, quarantine: null });
    expect(await setPolicyEnabled(orm, slow, true)).toMatchObject({ enabled: true, quarantine: null });
  });

  it('a run writes its rows before the worker runs and deletes them after, also when the evaluation fails', async () => {
    const ids = [await storePolicy(orm, 'a', 'true'), await storePolicy(orm, 'b', 'true')];
    const runId = randomUUID();
    const rows = async () =>
      (await orm.em.getKnex()('policy_run').select<{ policy_id: string; run_id: string }[]>('policy_id', 'run_id'))
        .map((row) => [row.policy_id, row.run_id])
        .sort();
    expect(await withRun(orm, runId, ids, rows)).toEqual(ids.map((id) => [id, runId]).sort());
    expect(await rows()).toEqual([]);
    await expect(withRun(orm, runId, ids, () => Promise.reject(new Error('worker failed')))).rejects.toThrow('worker failed');
    expect(await rows()).toEqual([]);
  });

  it('a run row left past its expiry by a server that stopped quarantines its policy before it runs again; rows still in progress are waited for', async () => {
    const crashed = await storePolicy(orm, 'crashed', 'summary.hardeningIndex >= 60');
    const shared = [await storePolicy(orm, 'shared-1', 'true'), await storePolicy(orm, 'shared-2', 'true')];
    await upload(1);
    const time = (offset: number) => sqlDialectOf(orm.em).toDatabaseTime(new Date(Date.now() + offset));
    const severalRun = randomUUID();
    await orm.em
      .getKnex()('policy_run')
      .insert([
        { policy_id: crashed, run_id: randomUUID(), expires_at: time(-1000) },
        // A run of several policies: each gets a strike, none is quarantined at once.
        ...shared.map((policyId) => ({ policy_id: policyId, run_id: severalRun, expires_at: time(-1000) })),
      ]);
    evaluator = new PolicyEvaluator(orm);
    await evaluator.settle();
    expect(await findPolicy(orm, crashed)).toMatchObject({
      enabled: false,
      quarantine: { reason: 'a server stopped while evaluating the rule (a crash or its memory)' },
    });
    expect((await listResults(orm, crashed, { limit: 10, offset: 0 })).total).toBe(0);
    for (const id of shared) {
      expect(await findPolicy(orm, id)).toMatchObject({ enabled: true, quarantine: null });
      expect(Number((await orm.em.getKnex()('policy').first('strikes').where('id', id)).strikes)).toBe(1);
    }
    expect(Number(((await orm.em.getKnex()('policy_run').count({ n: '*' })) as [{ n: number | string }])[0].n)).toBe(0);
    // Saving the policy again clears the quarantine too.
    expect(await updatePolicy(orm, crashed, { name: 'crashed', rules: [{ id: 'rule', expression: 'summary.hardeningIndex >= 60' }] })).toMatchObject({
      enabled: true,
      quarantine: null,
    });
  });
});

describe('the rule runner', () => {
  const facts = { hostname: 'h', hostId: 'h', keyId: 'k', groups: [], tags: [], lastSeen: Date.now() };
  const job = (expressions: string[], hosts = 2) => ({
    hosts: Array.from({ length: hosts }, () => ({ text: report('h'), unreadable: null, facts, policies: [0] })),
    policies: [{ id: 'p', rules: expressions.map((expression, index) => ({ id: `r${index}`, expression })) }],
    now: Date.now(),
  });

  it('a worker that exhausts its heap is replaced; the culprit is an incident and the batch goes on without it', async () => {
    // Budgets far above the heap: only the heap limit stops the rule, which keeps hundreds of strings of a million
    // characters. (HEAP_RULE itself is no use here: V8 ends the whole process on an array too long to allocate, which
    // is why its join is measured before it runs.)
    const hoarding = STALLING_RULE.replace('.exists(c, (', '.map(c, (').replace(").endsWith('zz'))", ')).size() > 0');
    const unbounded = {
      ...RULE_BUDGET,
      stringCharacters: 2 ** 30,
      listElements: 2 ** 30,
      totalCharacters: 2 ** 40,
      totalElements: 2 ** 40,
      timeMs: 60_000,
      hostTimeMs: 60_000,
    };
    const runner = new RuleRunner({ limits: unbounded, heapMb: 64 });
    try {
      const { outcomes, incidents } = await runner.run(job(['summary.hardeningIndex >= 60', hoarding, 'summary.hardeningIndex < 60']));
      expect(incidents).toEqual([{ policyId: 'p', ruleId: 'r1', kind: 'crash', message: 'the rule exhausted the memory of the evaluator' }]);
      for (const host of outcomes) {
        expect(host.map(({ ruleId, outcome }) => [ruleId, outcome.status, outcome.message])).toEqual([
          ['r0', 'pass', null],
          ['r1', 'error', 'the rule exhausted the memory of the evaluator'],
          ['r2', 'fail', null],
        ]);
      }
      // The next batch runs in a new worker.
      expect((await runner.run(job(['true'], 1))).outcomes).toEqual([
        [{ policyId: 'p', ruleId: 'r0', outcome: { status: 'pass', value: null, message: null } }],
      ]);
    } finally {
      await runner.close();
    }
  });

  it('the watchdog stops a worker whose rule runs past its budget without yielding', async () => {
    // A clock budget of an hour inside the worker: only the watchdog (100 ms without a new rule) stops it. The slow
    // rule takes most of a second, but under 500 ms on a quiet machine: a watchdog of 500 ms could let it end first.
    const runner = new RuleRunner({ limits: { ...RULE_BUDGET, timeMs: 3_600_000, hostTimeMs: 3_600_000 }, watchdogMs: 100 });
    try {
      const started = performance.now();
      const { outcomes, incidents } = await runner.run(job([SLOW_RULE, 'true'], 1));
      expect(incidents).toMatchObject([{ ruleId: 'r0', kind: 'time' }]);
      expect(outcomes[0]!.map(({ outcome }) => outcome.status)).toEqual(['error', 'pass']);
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await runner.close();
    }
  });
});
