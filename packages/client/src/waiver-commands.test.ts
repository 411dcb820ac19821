import { describe, expect, it } from 'vitest';
import type { Waiver } from './generated/types.gen.js';
import { recordIds } from './cli-arguments.js';
import { coverageOf, expiresAtOf, formatWaivers } from './waiver-commands.js';

const NOW = new Date('2026-11-26T12:00:00Z');
const WAIVER: Waiver = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  policyId: '1f8fad5b-d9cb-469f-a165-70867728950e',
  policyName: 'Baseline',
  ruleId: 'firewall-active',
  hostRecordId: '2f8fad5b-d9cb-469f-a165-70867728950e',
  hostname: 'web-01',
  group: null,
  reason: 'Firewalled upstream',
  expiresAt: '2026-12-01T00:00:00.000Z',
  createdAt: '2026-11-20T00:00:00.000Z',
  createdBy: 'ops',
};

describe('waivers commands', () => {
  it('list each waiver by policy name, what it covers by name and creator, marking those ending within 14 days', () => {
    const group = { ...WAIVER, id: 'g', hostRecordId: null, hostname: null, group: 'web', ruleId: null, expiresAt: '2027-03-01T00:00:00.000Z' };
    const fleet = { ...WAIVER, id: 'f', hostRecordId: null, hostname: null, createdBy: null, expiresAt: '2027-04-01T00:00:00.000Z' };
    expect(formatWaivers({ maxDays: 365, items: [WAIVER, group, fleet] }, NOW)).toBe(
      [
        'ID                                    POLICY    RULE             COVERS      CREATED BY  EXPIRES                         REASON',
        '0f8fad5b-d9cb-469f-a165-70867728950e  Baseline  firewall-active  web-01      ops         2026-12-01 00:00:00 UTC (soon)  Firewalled upstream',
        'g                                     Baseline  every rule       group web   ops         2027-03-01 00:00:00 UTC         Firewalled upstream',
        'f                                     Baseline  firewall-active  every host  -           2027-04-01 00:00:00 UTC         Firewalled upstream',
        'Waivers run for at most 365 days on this server.',
        '',
      ].join('\n'),
    );
  });

  it('name a host waiver by its host id when the host has no name', () => {
    expect(coverageOf({ ...WAIVER, hostname: null })).toBe(WAIVER.hostRecordId);
  });

  it('end a waiver at --expires, or --days from now, 90 days by default', () => {
    expect(expiresAtOf({ expires: '2027-01-01T00:00:00.000Z' }, NOW)).toBe('2027-01-01T00:00:00.000Z');
    expect(expiresAtOf({ days: 30 }, NOW)).toBe('2026-12-26T12:00:00.000Z');
    expect(expiresAtOf({}, NOW)).toBe('2027-02-24T12:00:00.000Z');
  });

  it('check every id of --ids before anything is sent', () => {
    expect(recordIds(`${WAIVER.id}, ${WAIVER.policyId}`)).toEqual([WAIVER.id, WAIVER.policyId]);
    expect(() => recordIds(`${WAIVER.id},web-01`)).toThrow(/must be an id/);
  });
});
