import { describe, expect, it } from 'vitest';
import { activeFilters, hostsQuery } from './host-filters.js';

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
    expect(activeFilters(route, keys)).toEqual([
      ['hostname', 'host name contains “db”'],
      ['finding', 'finding PKGS-7392'],
      ['keyId', 'key web servers · ab12…'],
      ['stale', 'no report for a day'],
    ]);
  });

  it('names a key it does not list by its id, and has no chip without a filter', () => {
    expect(activeFilters({ page: 'hosts', offset: 0, keyId: 'gone', stale: 3 }, [])).toEqual([
      ['keyId', 'key gone'],
      ['stale', 'no report for 3 days'],
    ]);
    expect(activeFilters({ page: 'hosts', offset: 50, sort: 'warnings' }, [])).toEqual([]);
  });

  it('filters by a host id (where a refused upload links), asking the API and showing its chip', () => {
    const route = { page: 'hosts', offset: 0, hostId: '0123456789abcdef0123456789abcdef01234567' } as const;
    expect(hostsQuery(route, NOW)).toMatchObject({ hostId: route.hostId });
    expect(activeFilters(route, [])).toEqual([['hostId', `host id ${route.hostId}`]]);
  });
});
