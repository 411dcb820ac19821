import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute, ROUTES, type Page, type Route } from './route.js';

describe('routes', () => {
  it.each<[string, Route]>([
    ['', { page: 'overview', stale: undefined }],
    ['#/', { page: 'overview', stale: undefined }],
    ['#/?stale=14', { page: 'overview', stale: 14 }],
    ['#/nowhere', { page: 'overview', stale: undefined }],
    ['#/findings?kind=warning&test=PKGS-7392&offset=50', { page: 'findings', kind: 'warning', testId: 'PKGS-7392', offset: 50 }],
    ['#/refused?reason=invalid-key&hostId=abc', { page: 'refused', reason: 'invalid-key', hostId: 'abc', offset: 0 }],
    ['#/hosts/0f8fad5b-d9cb-469f-a165-70867728950e', { page: 'host', id: '0f8fad5b-d9cb-469f-a165-70867728950e' }],
    ['#/webhooks', { page: 'webhooks' }],
    ['#/webhooks/', { page: 'webhooks' }],
    ['#/webhooks/6f1c0a52-58d4-4b5e-9d3f-2a7e1c9b8d40', { page: 'webhook', id: '6f1c0a52-58d4-4b5e-9d3f-2a7e1c9b8d40', status: undefined, offset: 0 }],
    [
      '#/webhooks/6f1c0a52-58d4-4b5e-9d3f-2a7e1c9b8d40?status=failed&offset=25',
      { page: 'webhook', id: '6f1c0a52-58d4-4b5e-9d3f-2a7e1c9b8d40', status: 'failed', offset: 25 },
    ],
    ['#/hosts/0f8fad5b-d9cb-469f-a165-70867728950e/print', { page: 'host-report', id: '0f8fad5b-d9cb-469f-a165-70867728950e' }],
    ['#/digests?status=failed&offset=25', { page: 'digests', status: 'failed', offset: 25 }],
    ['#/digests?status=lost', { page: 'digests', status: undefined, offset: 0 }],
    ['#/digests/0f8fad5b-d9cb-469f-a165-70867728950e', { page: 'digest', id: '0f8fad5b-d9cb-469f-a165-70867728950e' }],
  ])('%j is %j', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('keeps every host filter and the order in the fragment, and reads them back', () => {
    const route: Route = {
      page: 'hosts',
      hostname: 'web',
      keyId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      group: 'web servers',
      tag: 'prod&x=1',
      os: 'Debian GNU/Linux 12 (bookworm)',
      finding: 'PKGS-7392',
      findingKind: 'warning',
      stale: 7,
      sort: 'hardeningIndex',
      order: 'asc',
      offset: 100,
    };
    const href = hrefOf(route);
    expect(href).toBe(
      '#/hosts?hostname=web&key=7c9e6679-7425-40de-944b-e07fc1f90ae7&group=web+servers&tag=prod%26x%3D1&os=Debian+GNU%2FLinux+12+%28bookworm%29' +
        '&finding=PKGS-7392&kind=warning&stale=7&sort=hardeningIndex&order=asc&offset=100',
    );
    expect(parseRoute(href)).toEqual(route);
    expect(hrefOf({ page: 'hosts', offset: 0 })).toBe('#/hosts');
  });

  it('keeps the compliance, failing policy and rule filters and the compliance order in the fragment, as a policy links them', () => {
    const route: Route = {
      page: 'hosts',
      compliance: 'noncompliant',
      failingPolicy: '0f8fad5b-d9cb-469f-a165-70867728950e',
      failingRule: 'firewall-active',
      sort: 'compliance',
      order: 'asc',
      offset: 0,
    };
    const href = hrefOf(route);
    expect(href).toBe(
      '#/hosts?compliance=noncompliant&failingPolicy=0f8fad5b-d9cb-469f-a165-70867728950e&failingRule=firewall-active&sort=compliance&order=asc',
    );
    expect(parseRoute(href)).toEqual(route);
    expect(parseRoute('#/hosts?failingPolicy=p&failingRule=r')).toEqual({ page: 'hosts', failingPolicy: 'p', failingRule: 'r', offset: 0 });
    expect(parseRoute('#/hosts?compliance=evil')).toEqual({ page: 'hosts', offset: 0 });
  });

  it("keeps the hosts list's State filter in the fragment, the default (current) left out", () => {
    expect(hrefOf({ page: 'hosts', offset: 0, state: 'decommissioned' })).toBe('#/hosts?state=decommissioned');
    expect(parseRoute('#/hosts?state=decommissioned&group=web')).toEqual({ page: 'hosts', offset: 0, state: 'decommissioned', group: 'web' });
    expect(parseRoute('#/hosts?state=all')).toMatchObject({ state: 'all' });
    // `current` is what the list shows without a state; anything else unknown is dropped too.
    for (const state of ['current', 'deleted', '']) expect(parseRoute(`#/hosts?state=${state}`)).toEqual({ page: 'hosts', offset: 0 });
  });

  it("keeps a webhook's delivery filter and page in the fragment, and reads them back", () => {
    const route: Route = { page: 'webhook', id: '6f1c0a52-58d4-4b5e-9d3f-2a7e1c9b8d40', status: 'pending', offset: 50 };
    expect(hrefOf(route)).toBe('#/webhooks/6f1c0a52-58d4-4b5e-9d3f-2a7e1c9b8d40?status=pending&offset=50');
    expect(parseRoute(hrefOf(route))).toEqual(route);
    expect(hrefOf({ page: 'webhook', id: 'a/b?c', offset: 0 })).toBe('#/webhooks/a%2Fb%3Fc');
    expect(parseRoute('#/webhooks/a%2Fb%3Fc')).toMatchObject({ page: 'webhook', id: 'a/b?c' });
    expect(hrefOf({ page: 'webhooks' })).toBe('#/webhooks');
  });

  it("keeps the hosts list's page size in the fragment when it is an offered one other than 50", () => {
    expect(hrefOf({ page: 'hosts', offset: 200, size: 100 })).toBe('#/hosts?offset=200&size=100');
    expect(parseRoute('#/hosts?offset=200&size=100')).toEqual({ page: 'hosts', offset: 200, size: 100 });
    expect(hrefOf({ page: 'hosts', offset: 0, size: 50 })).toBe('#/hosts');
    for (const size of ['30', '500', '1000', '-25', 'x']) expect(parseRoute(`#/hosts?size=${size}`)).toMatchObject({ size: undefined });
  });

  it('drops values it does not know instead of passing them to the API', () => {
    expect(parseRoute('#/hosts?sort=evil&order=up&kind=error&stale=0&offset=-5')).toEqual({ page: 'hosts', offset: 0 });
    expect(parseRoute('#/hosts?stale=99999')).toMatchObject({ stale: undefined });
    expect(parseRoute('#/findings?kind=note')).toEqual({ page: 'findings', offset: 0 });
    expect(parseRoute('#/webhooks/x?status=lost&offset=ten')).toEqual({ page: 'webhook', id: 'x', status: undefined, offset: 0 });
  });

  it('keeps markup a host wrote inside the fragment, encoded, where it stays text', () => {
    const group = '<img src=x onerror=alert(1)>';
    const href = hrefOf({ page: 'hosts', group, offset: 0 });
    expect(href).toBe('#/hosts?group=%3Cimg+src%3Dx+onerror%3Dalert%281%29%3E');
    expect(parseRoute(href)).toMatchObject({ group });
    expect(parseRoute('#/hosts/%E0%A4%A')).toEqual({ page: 'host', id: '%E0%A4%A' });
  });

  it.each<Route>([
    { page: 'overview', stale: 30 },
    { page: 'findings', kind: 'suggestion', offset: 0 },
    { page: 'policies' },
    { page: 'keys' },
    { page: 'refused', reason: 'too-large', offset: 25 },
    { page: 'host', id: 'h/1' },
    { page: 'host-report', id: 'h1' },
    { page: 'raw-report', id: 'r1' },
    { page: 'report-diff', id: 'r2', against: 'r1' },
    { page: 'controls', framework: 'PCI-DSS' },
    { page: 'digests', status: 'pending', offset: 50 },
    { page: 'digest', id: 'd1' },
  ])('reads back the fragment it writes for %j', (route) => {
    expect(parseRoute(hrefOf(route))).toEqual(route);
  });

  it('opens a page with more path than it has, and an unknown path as the overview', () => {
    expect(parseRoute('#/keys/extra')).toEqual({ page: 'keys' });
    expect(parseRoute('#/hosts/h1/elsewhere')).toEqual({ page: 'host', id: 'h1' });
    expect(parseRoute('#/reports/r1')).toEqual({ page: 'overview' });
    expect(parseRoute('#/reports/r1?stale=3')).toEqual({ page: 'overview', stale: 3 });
  });

  it('reads and writes whether the exceptions include expired ones', () => {
    expect(parseRoute('#/waivers')).toEqual({ page: 'waivers' });
    expect(parseRoute('#/waivers?expired=1')).toEqual({ page: 'waivers', expired: true });
    expect(parseRoute('#/waivers?expired=yes')).toEqual({ page: 'waivers' });
    expect(hrefOf({ page: 'waivers', expired: true })).toBe('#/waivers?expired=1');
    expect(hrefOf({ page: 'waivers' })).toBe('#/waivers');
  });

  it("lists the navigation in the table's order, each page under a page that has a link", () => {
    const entries = Object.entries(ROUTES) as Array<[Page, { title: string; nav?: object; under?: string }]>;
    expect(entries.filter(([, entry]) => entry.nav).map(([, entry]) => entry.title)).toEqual([
      'Overview',
      'Hosts',
      'Findings',
      'Trends',
      'Policies',
      'Controls',
      'Exceptions',
      'Webhooks',
      'Digests',
      'Keys',
      'Add hosts',
      'People',
      'Audit trail',
      'Refused uploads',
    ]);
    for (const [, entry] of entries) if (entry.under) expect(ROUTES[entry.under as Page].nav).toBeDefined();
  });

  it('gives every page its own path', () => {
    const paths = Object.values(ROUTES).map((entry) => entry.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
