import { describe, expect, it } from 'vitest';
import { activeFilters, filterScopeOf, hostFilterValues, hostsQuery, keyIdOf } from './host-filters.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('host filters', () => {
  it('asks the API for the route\'s page, filters and order, "stale" counted back from now', () => {
    expect(hostsQuery({ page: 'hosts', offset: 100, group: 'web', stale: 7, sort: 'hostname', order: 'asc' }, NOW)).toEqual({
      limit: 50,
      offset: 100,
      group: 'web',
      seenBefore: '2026-11-16T12:00:00.000Z',
      sort: 'hostname',
      order: 'asc',
    });
  });

  it("asks for the route's page size, 50 by default", () => {
    expect(hostsQuery({ page: 'hosts', offset: 0 }, NOW).limit).toBe(50);
    expect(hostsQuery({ page: 'hosts', offset: 200, size: 200 }, NOW)).toMatchObject({ limit: 200, offset: 200 });
  });

  it('sends the kind of a finding only with a finding', () => {
    expect(hostsQuery({ page: 'hosts', offset: 0, findingKind: 'warning' }, NOW).findingKind).toBeUndefined();
    expect(hostsQuery({ page: 'hosts', offset: 0, finding: 'SSH-7408', findingKind: 'warning' }, NOW)).toMatchObject({
      finding: 'SSH-7408',
      findingKind: 'warning',
    });
  });

  it('reads the filters in force, in the order of the form, a key by its label', () => {
    const keys = [{ id: 'k1', label: 'web servers', prefix: 'ab12' }];
    const route = { page: 'hosts', offset: 0, stale: 1, keyId: 'k1', finding: 'PKGS-7392', hostname: 'db' } as const;
    expect(activeFilters(route, { keys })).toEqual([
      ['hostname', 'host name contains “db”'],
      ['finding', 'finding PKGS-7392'],
      ['keyId', 'key web servers · ab12…'],
      ['stale', 'no report for a day'],
    ]);
  });

  it('names a key it does not list by its id, and has no chip without a filter', () => {
    expect(activeFilters({ page: 'hosts', offset: 0, keyId: 'gone', stale: 3 }, { keys: [] })).toEqual([
      ['keyId', 'key gone'],
      ['stale', 'no report for 3 days'],
    ]);
    expect(activeFilters({ page: 'hosts', offset: 50, sort: 'warnings' }, { keys: [] })).toEqual([]);
  });

  it('filters by a host id (where a refused upload links), asking the API and showing its chip', () => {
    const route = { page: 'hosts', offset: 0, hostId: '0123456789abcdef0123456789abcdef01234567' } as const;
    expect(hostsQuery(route, NOW)).toMatchObject({ hostId: route.hostId });
    expect(activeFilters(route, { keys: [] })).toEqual([['hostId', `host id ${route.hostId}`]]);
  });

  it('asks for compliance, a failing policy and rule, and shows their chips, the policy by its name', () => {
    const route = { page: 'hosts', offset: 0, compliance: 'noncompliant', failingPolicy: 'p1', failingRule: 'firewall-active', sort: 'compliance' } as const;
    expect(hostsQuery(route, NOW)).toMatchObject({ compliance: 'noncompliant', failingPolicy: 'p1', failingRule: 'firewall-active', sort: 'compliance' });
    expect(activeFilters(route, { keys: [], policies: [{ id: 'p1', name: 'Baseline' }] })).toEqual([
      ['compliance', 'compliance noncompliant'],
      ['failingPolicy', 'failing policy Baseline'],
      ['failingRule', 'failing rule firewall-active of Baseline'],
    ]);
    // A policy not listed (deleted, or the list not loaded yet) is named by its id; a rule alone is of any policy.
    expect(activeFilters({ page: 'hosts', offset: 0, failingPolicy: 'p2' }, { keys: [] })).toEqual([['failingPolicy', 'failing policy p2']]);
    expect(activeFilters({ page: 'hosts', offset: 0, failingRule: 'r' }, { keys: [] })).toEqual([['failingRule', 'failing rule r']]);
  });

  it('gives the filters alone for a bulk action on all matching hosts: no order, no page, nothing unset', () => {
    const route = { page: 'hosts', offset: 100, size: 25, group: 'WEBSERVERS', compliance: 'noncompliant', stale: 1, sort: 'hostname', order: 'asc' } as const;
    expect(hostFilterValues(route, NOW)).toEqual({ group: 'WEBSERVERS', compliance: 'noncompliant', seenBefore: '2026-11-22T12:00:00.000Z' });
    expect(hostFilterValues({ page: 'hosts', offset: 0 }, NOW)).toEqual({});
  });

  it('asks for a lifecycle state, shows its chip, and gives it to a bulk action; none is the API default (current)', () => {
    const route = { page: 'hosts', offset: 0, state: 'decommissioned', group: 'web' } as const;
    expect(hostsQuery(route, NOW)).toMatchObject({ state: 'decommissioned', group: 'web' });
    expect(hostFilterValues(route, NOW)).toEqual({ group: 'web', state: 'decommissioned' });
    expect(activeFilters(route, { keys: [] })).toEqual([
      ['group', 'group web'],
      ['state', 'state decommissioned'],
    ]);
    expect(activeFilters({ page: 'hosts', offset: 0, state: 'all' }, { keys: [] })).toEqual([['state', 'every state']]);
    expect(hostsQuery({ page: 'hosts', offset: 0 }, NOW)).not.toHaveProperty('state');
    // Another state is another set of hosts: a selection does not carry over.
    expect(filterScopeOf({ ...route, state: 'all' })).not.toBe(filterScopeOf(route));
  });

  it('keeps a selection through pages, order and page size, not through other filters', () => {
    const route = { page: 'hosts', offset: 0, group: 'web' } as const;
    expect(filterScopeOf({ ...route, offset: 50, sort: 'compliance', order: 'asc', size: 100 })).toBe(filterScopeOf(route));
    expect(filterScopeOf({ ...route, compliance: 'waived' })).not.toBe(filterScopeOf(route));
  });

  it('reads a typed key filter: the key picked, else a key by its label, first characters or id, any case', () => {
    const keys = [
      { id: 'k1', label: 'Demo', prefix: 'ab12' },
      { id: 'k2', label: null, prefix: 'cd34' },
    ];
    expect(keyIdOf('', 'k1', keys)).toBeUndefined();
    expect(keyIdOf('Demo', 'k1', keys)).toBe('k1');
    expect(keyIdOf(' DEMO ', undefined, keys)).toBe('k1');
    expect(keyIdOf('cd34…', undefined, keys)).toBe('k2');
    expect(keyIdOf('k2', undefined, keys)).toBe('k2');
    expect(keyIdOf('nobody', undefined, keys)).toBeNull();
  });
});
