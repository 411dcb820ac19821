import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addHostFilterOptions, hostFilterQuery, type HostFilterFlags } from './host-filter-flags.js';

const KEY_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** The flags commander reads from `args` on a command with the host filters. */
function parse(args: string[], sorted = true): HostFilterFlags {
  const command = addHostFilterOptions(new Command('hosts'), { sorted }).exitOverride();
  command.configureOutput({ writeErr: () => {} });
  command.parse(args, { from: 'user' });
  return command.opts<HostFilterFlags>();
}

describe('host filter flags', () => {
  it('give the query the contract names, leaving out what was not given', () => {
    const flags = parse(['--hostname', 'web', '--key', KEY_ID, '--compliance', 'noncompliant', '--failing-policy', KEY_ID, '--failing-rule', 'fw-1']);
    expect(hostFilterQuery({ ...flags, ...parse(['--sort', 'compliance', '--order', 'asc']) })).toEqual({
      hostname: 'web',
      keyId: KEY_ID,
      compliance: 'noncompliant',
      failingPolicy: KEY_ID,
      failingRule: 'fw-1',
      sort: 'compliance',
      order: 'asc',
    });
    expect(hostFilterQuery(parse(['--key-id', KEY_ID]))).toEqual({ keyId: KEY_ID });
    expect(hostFilterQuery(parse(['--stale-days', '2']), new Date('2026-11-26T00:00:00Z'))).toEqual({ seenBefore: '2026-11-24T00:00:00.000Z' });
  });

  it('give a lifecycle state, and refuse one the contract does not name', () => {
    expect(hostFilterQuery(parse(['--state', 'decommissioned', '--group', 'web']))).toEqual({ group: 'web', state: 'decommissioned' });
    expect(hostFilterQuery(parse(['--state', 'all']))).toEqual({ state: 'all' });
    expect(() => parse(['--state', 'deleted'])).toThrow(/Allowed choices are current, active, stale, decommissioned, all/);
  });

  it('refuse a bad rule id, compliance or policy id as they are parsed', () => {
    expect(() => parse(['--failing-rule', 'Firewall'])).toThrow(/must be a rule id/);
    expect(() => parse(['--compliance', 'failing'])).toThrow(/Allowed choices are compliant, noncompliant, waived, unknown/);
    expect(() => parse(['--failing-policy', 'baseline'])).toThrow(expect.objectContaining({ exitCode: 3 }));
    expect(() => parse(['--key', KEY_ID, '--key-id', KEY_ID])).toThrow(/cannot be used with/);
    expect(() => parse(['--sort', 'hostname'], false)).toThrow(/unknown option/);
  });

  it('refuse a license key given for its id without repeating it, and a finding kind without a finding', () => {
    const key = 'c27252dc-825aa697-11377ecf-48f3267d-0e162415-3f983a76';
    expect(() => hostFilterQuery(parse(['--key', key]))).toThrow(/^--key must be a license key's id.*never the key itself$/);
    try {
      hostFilterQuery(parse(['--key', key]));
    } catch (error) {
      expect((error as Error).message).not.toContain(key);
    }
    expect(() => hostFilterQuery(parse(['--finding-kind', 'warning']))).toThrow('--finding-kind needs --finding');
  });
});
