import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { openDatabase, type Database } from '../database/open.js';
import { timeToFix } from '../findings/time-to-fix.js';
import { fleetOverview } from '../fleet/overview.js';
import { hostDetail, hostPage } from '../hosts/host-queries.js';
import { rejectionPage } from '../refusals/rejection-queries.js';
import { listKeys } from '../secrets/license-keys.js';
import type { Host } from '../generated/types.gen.js';
import { readReportBytes } from '@org/audit-server-core';
import { planFleet } from './demo-fleet.js';
import { DEMO_REPORT_URL, demoReport, findingIndexes, findingLines } from './demo-report.js';
import { seedDemo } from './seed-demo.js';
import { UNSCOPED } from '../people/scope.js';

const NOW = new Date();
const HOSTS = 60;

it('ships the captured Lynis report byte for byte', () => {
  expect(readFileSync(DEMO_REPORT_URL).equals(readLynisFixture('report.dat'))).toBe(true);
});

it("reads back, through core's parser, as the host and report it was made for", () => {
  const hosts = planFleet(40, 3, NOW, findingIndexes());
  const rocky = hosts.flatMap((host) => host.reports).find((lines) => lines.os.name === 'Rocky Linux')!;
  const reading = readReportBytes(Buffer.from(demoReport(rocky)))!;
  expect(reading.summary).toMatchObject({ hostname: rocky.hostname, hardeningIndex: rocky.hardeningIndex, lynisVersion: rocky.lynisVersion });
  expect(reading.summary.os).toMatchObject({ name: 'Rocky Linux', fullName: rocky.os.fullName, version: rocky.os.version });
  expect(reading.labels).toMatchObject({ groups: rocky.groups, tags: rocky.tags });
  // Debian's own checks stay on Debian and Ubuntu hosts.
  expect(reading.summary.suggestions.some((finding) => finding.testId.startsWith('DEB-'))).toBe(false);
  expect(reading.summary.warnings.length + reading.summary.suggestions.length).toBeLessThanOrEqual(findingLines().length);
});

describe.each(DIALECTS)('seed-demo on %s', (dialect) => {
  const database = useTestDatabase(dialect);
  let orm: Database;
  beforeEach(async () => {
    orm = await openDatabase(database.location);
  });
  afterEach(async () => {
    await orm.close();
  });

  const hostsOfKey = async (keyId: string): Promise<Host[]> =>
    (await hostPage(orm, UNSCOPED, { keyId, limit: 1000, offset: 0, sort: 'hostname', order: 'asc' })).items;

  it('stores a fleet the admin queries read back: hosts, stale ones, labels, history, findings, refusals and a demo key', async () => {
    const seeded = await seedDemo(orm, { hosts: HOSTS, now: NOW });
    expect(seeded).toMatchObject({ hosts: HOSTS, keyLabel: 'demo' });
    expect(seeded.staleHosts).toBeGreaterThan(0);

    const overview = await fleetOverview(orm, UNSCOPED, { staleDays: 7, hideLynisFindings: false });
    expect(overview.hosts.total).toBe(HOSTS);
    expect(overview.hosts.stale).toBe(seeded.staleHosts);
    expect(overview.hosts.seenLast24h).toBeGreaterThan(0);
    expect(overview.operatingSystems.length).toBeGreaterThan(2);
    expect(overview.lynisVersions.length).toBeGreaterThan(1);
    // Every finding the overview names is one of the shipped report's.
    const shipped = findingLines().map((line) => line.slice(line.indexOf('=') + 1, line.indexOf('|')));
    expect(overview.topWarnings.length).toBeGreaterThan(0);
    for (const finding of [...overview.topWarnings, ...overview.topSuggestions]) expect(shipped).toContain(finding.testId);

    const hosts = await hostsOfKey(seeded.keyId);
    expect(hosts).toHaveLength(HOSTS);
    expect(new Set(hosts.map((host) => host.hostname)).size).toBe(HOSTS);
    expect(hosts.reduce((sum, host) => sum + host.reportCount, 0)).toBe(seeded.reports);
    expect(hosts.filter((host) => host.reportCount > 1).length).toBeGreaterThan(HOSTS * 0.7);
    expect([...new Set(hosts.flatMap((host) => host.groups))]).toEqual(expect.arrayContaining(['webservers', 'databases', 'ci']));
    expect([...new Set(hosts.flatMap((host) => host.tags))]).toEqual(expect.arrayContaining(['prod', 'staging', 'eu', 'us']));
    expect(hosts.every((host) => host.tags.some((tag) => ['prod', 'staging', 'dev'].includes(tag)))).toBe(true);
    const indexes = hosts.map((host) => host.latestHardeningIndex!);
    expect(Math.min(...indexes)).toBeGreaterThanOrEqual(45);
    expect(Math.max(...indexes)).toBeLessThanOrEqual(90);
    expect(new Set(hosts.map((host) => host.latestSuggestionCount)).size).toBeGreaterThan(5);

    // A host filter the dashboard uses, and one host's history as the host page reads it.
    expect((await hostPage(orm, UNSCOPED, { group: 'databases', limit: 100, offset: 0 })).total).toBeGreaterThan(0);
    const withHistory = hosts.find((host) => host.reportCount >= 3)!;
    const detail = await hostDetail(orm, UNSCOPED, withHistory.id, 10);
    expect(detail?.hardeningHistory).toHaveLength(withHistory.reportCount);

    const refusals = await rejectionPage(orm, UNSCOPED, { limit: 100, offset: 0 });
    expect(refusals.items.reduce((sum, item) => sum + item.count, 0)).toBe(seeded.refusals);
    const refusedUploads = refusals.items.filter((item) => item.operation === 'uploadReport').reduce((sum, item) => sum + item.count, 0);
    expect(refusedUploads).toBeGreaterThan(0);
    expect(overview.uploadsPerDay.reduce((sum, day) => sum + day.refused, 0)).toBe(refusedUploads);
    expect(new Set(refusals.items.map((item) => item.reason)).size).toBeGreaterThan(1);

    expect((await listKeys(orm)).map((key) => key.label)).toEqual(['demo']);
  });

  it("follows each host's findings from report to report: opened by its first, resolved by later ones on their days", async () => {
    await seedDemo(orm, { hosts: HOSTS, now: NOW });
    const figures = await timeToFix(orm, UNSCOPED, { now: NOW, hideLynis: false });
    // Older reports keep more findings: most hosts fix several from one report to the next.
    expect(figures.overall.resolved).toBeGreaterThan(HOSTS);
    // A host's reports are about a week apart: a finding gone from a later one took days to fix, not no time at all.
    expect(figures.overall.medianHours).toBeGreaterThan(24);
    const [first] = (await orm.em.getKnex()('finding_transition').min({ at: 'at' }).where('to_state', 'open')) as { at: string | number | Date }[];
    expect(new Date(first!.at).getTime()).toBeLessThan(NOW.getTime() - 14 * 86_400_000);
  });

  it('refuses a database that holds reports unless forced, and the same seed makes the same fleet', async () => {
    const first = await seedDemo(orm, { hosts: 20, seed: 7, now: NOW });
    await expect(seedDemo(orm, { hosts: 20, seed: 7, now: NOW })).rejects.toThrow(/already holds \d+ reports.*--force/);
    const second = await seedDemo(orm, { hosts: 20, seed: 7, now: NOW, force: true });
    expect(second.reports).toBe(first.reports);
    // Forced, the fleet comes beside the first one, under a key of its own: the same hosts, reports and findings.
    const shape = ({ hostname, hostId, lastSeen, reportCount, latestHardeningIndex, latestWarningCount, latestSuggestionCount, groups, tags, os }: Host) => ({
      hostname,
      hostId,
      lastSeen,
      reportCount,
      latestHardeningIndex,
      latestWarningCount,
      latestSuggestionCount,
      groups,
      tags,
      os,
    });
    expect((await hostsOfKey(second.keyId)).map(shape)).toEqual((await hostsOfKey(first.keyId)).map(shape));
    const other = await seedDemo(orm, { hosts: 20, seed: 8, now: NOW, force: true });
    expect((await hostsOfKey(other.keyId)).map((host) => host.hostname)).not.toEqual((await hostsOfKey(first.keyId)).map((host) => host.hostname));
  });
});
