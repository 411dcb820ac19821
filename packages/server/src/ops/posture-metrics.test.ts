import { changeStates } from '../hosts/host-lifecycle.js';
import { DEFAULT_LIFECYCLE } from '../hosts/lifecycle-settings.js';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readReportBytes } from '@org/audit-server-core';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { minimalReport } from '@org/test-support/lynis-report';
import { databaseTime } from '../database/dialects.js';
import { openDatabase, type Database } from '../database/open.js';
import { hostRecordId } from '../hosts/host-records.js';
import { PolicyEvaluator } from '../policies/policy-evaluator.js';
import { createPolicy } from '../policies/policy-records.js';
import { OrmReportStore } from '../reports/report-store.js';
import { createKey } from '../secrets/license-keys.js';
import { registerPostureGauges } from './posture-metrics.js';

const DAY_S = 86_400;
/** A policy name an administrator may type: quotes, a backslash and a line break, which the exposition format escapes. */
const AWKWARD_NAME = 'Edge "firewall" \\ DMZ\nsecond line';
/** A sample line of the Prometheus text format: a name, labels with escaped values, a number. */
const SAMPLE_LINE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\["\\n])*",?)*\})? -?[0-9.e+]+$/;

describe.each(DIALECTS)('posture gauges on /metrics on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let keyId: string;

  async function upload(hostId: string, ...lines: string[]): Promise<void> {
    const content = Buffer.from(minimalReport(...lines));
    const reading = readReportBytes(content);
    await new OrmReportStore(database).save({
      ...{ keyId, hostId, receivedAt: new Date(), encoding: 'raw', size: content.length, sha256: 'a'.repeat(64), content },
      ...{ summary: reading?.summary ?? null, labels: reading?.labels },
    });
  }
  const findingOf = (hostId: string, testId: string) =>
    database.em
      .getKnex()('finding')
      .where({ host_record_id: hostRecordId(keyId, hostId), test_id: testId });

  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ id: keyId } = await createKey(database));
    await upload('web', 'hostname=web-01', 'firewall_active=1', 'warning[]=SSH-7408|Telnet is enabled|-|-|', 'suggestion[]=AUTH-9262|Set a password|-|-|');
    await upload('db', 'hostname=db-01', 'firewall_active=0', 'warning[]=SSH-7408|Telnet is enabled|-|-|', 'suggestion[]=LYNIS|Old release|-|-|');
    await upload('old', 'hostname=old-01', 'firewall_active=0', 'warning[]=SSH-7408|Telnet is enabled|-|-|');
    await createPolicy(database, { name: AWKWARD_NAME, rules: [{ id: 'firewall', expression: "report.firewall_active == '1'" }] });
    const evaluator = new PolicyEvaluator(database, { clockRecheckMs: 60_000 });
    await evaluator.settle();
    await evaluator.stop();
    const knex = database.em.getKnex();
    await knex('host').where('id', hostRecordId(keyId, 'db')).update({ state: 'stale' });
    // Decommissioned as an operator does it: its results leave the kept counts.
    await changeStates(database, [hostRecordId(keyId, 'old')], 'decommission', DEFAULT_LIFECYCLE);
    await findingOf('web', 'SSH-7408').update({ state: 'accepted' });
    await findingOf('db', 'SSH-7408').update({ state: 'regressed' });
    await findingOf('web', 'AUTH-9262').update({ first_seen: databaseTime(database, new Date(Date.now() - 3 * DAY_S * 1000)) });
  });
  afterEach(() => database.close());

  /** A registry with the posture gauges alone, over `source`, and the warnings they log. */
  function gauges(source: Database = database) {
    const registry = new Registry();
    const warn = vi.fn();
    registerPostureGauges(registry, { database: source, logger: { warn } as unknown as Logger, hideLynisFindings: true });
    /** One scrape: its text, and each sample's value by `name{labels}`. */
    const scrape = async () => {
      const text = await registry.metrics();
      const samples = new Map<string, number>();
      for (const line of text.split('\n').filter((line) => line !== '' && !line.startsWith('#'))) {
        expect(line).toMatch(SAMPLE_LINE);
        const space = line.lastIndexOf(' ');
        samples.set(line.slice(0, space), Number(line.slice(space + 1)));
      }
      return { text, samples };
    };
    return { scrape, warn };
  }

  it('counts hosts by state, findings by kind and state, and the oldest finding still to handle', async () => {
    const { samples } = await gauges().scrape();
    expect(samples.get('audit_hosts{state="active"}')).toBe(1);
    expect(samples.get('audit_hosts{state="stale"}')).toBe(1);
    expect(samples.get('audit_hosts{state="decommissioned"}')).toBe(1);
    // The decommissioned host's finding and Lynis' own are left out, as the fleet's lists leave them out.
    const findings = [...samples].filter(([name, value]) => name.startsWith('audit_findings{') && value > 0);
    expect(Object.fromEntries(findings)).toEqual({
      'audit_findings{kind="warning",state="accepted"}': 1,
      'audit_findings{kind="warning",state="regressed"}': 1,
      'audit_findings{kind="suggestion",state="open"}': 1,
    });
    expect([...samples.keys()].filter((name) => name.startsWith('audit_findings{'))).toHaveLength(10);
    const age = samples.get('audit_oldest_open_finding_age_seconds')!;
    expect(age).toBeGreaterThanOrEqual(3 * DAY_S);
    expect(age).toBeLessThan(3 * DAY_S + 120);
  });

  it('counts hosts by status on each policy, the name escaped so the scrape parses', async () => {
    const { text, samples } = await gauges().scrape();
    const label = 'Edge \\"firewall\\" \\\\ DMZ\\nsecond line';
    expect(text).toContain(`audit_hosts_compliance{policy="${label}",status="pass"} 1`);
    // db-01 fails; old-01 failed too, but is decommissioned.
    expect(samples.get(`audit_hosts_compliance{policy="${label}",status="fail"}`)).toBe(1);
    expect(samples.get(`audit_hosts_compliance{policy="${label}",status="error"}`)).toBe(0);
    expect(samples.get(`audit_hosts_compliance{policy="${label}",status="waived"}`)).toBe(0);
  });

  it('reports no age when no finding is left to handle', async () => {
    await database.em.getKnex()('finding').update({ state: 'resolved' });
    const { samples } = await gauges().scrape();
    expect(samples.get('audit_oldest_open_finding_age_seconds')).toBe(0);
    expect(samples.get('audit_findings{kind="warning",state="resolved"}')).toBe(2);
  });

  it('answers a scrape while the database fails, the gauges keeping their last values, and logs why', async () => {
    let down = false;
    const flaky = Object.create(database, {
      em: {
        get: () => {
          if (down) throw new Error('connection refused');
          return database.em;
        },
      },
    }) as Database;
    const { scrape, warn } = gauges(flaky);
    const before = await scrape();
    down = true;
    const during = await scrape();
    expect(during.samples.get('audit_hosts{state="active"}')).toBe(1);
    expect(during.samples).toEqual(before.samples);
    expect(warn).toHaveBeenCalledTimes(4);
    expect(warn.mock.calls.map(([fields]) => (fields as { metric: string }).metric).sort()).toEqual([
      'audit_findings',
      'audit_hosts',
      'audit_hosts_compliance',
      'audit_oldest_open_finding_age_seconds',
    ]);
  });
});
