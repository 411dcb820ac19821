import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute } from './route.js';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe("a policy's page address", () => {
  it('keeps the work queue in the URL: status, rule, host name searched, order, page and page size', () => {
    const hash = `#/policies/${ID}?status=any&rule=hardening-index&hostname=web+01&sort=since&order=desc&offset=50&size=50`;
    const route = parseRoute(hash);
    expect(route).toEqual({
      page: 'policy',
      id: ID,
      status: 'any',
      rule: 'hardening-index',
      hostname: 'web 01',
      sort: 'since',
      order: 'desc',
      offset: 50,
      size: 50,
    });
    expect(hrefOf(route)).toBe(`#/policies/${ID}?status=any&rule=hardening-index&hostname=web+01&sort=since&order=desc&offset=50&size=50`);
  });

  it('leaves out what is the default (failures, 25 a page, the first page) and drops values it does not know', () => {
    const route = parseRoute(`#/policies/${ID}?status=fail&size=25&offset=0&sort=age&order=up&status2=x`);
    expect(route).toEqual({ page: 'policy', id: ID, offset: 0, status: 'fail', size: 25 });
    expect(hrefOf(route)).toBe(`#/policies/${ID}`);
    expect(parseRoute(`#/policies/${ID}?size=30`)).toMatchObject({ size: undefined });
  });

  it('is a page of its own under the policies list, not the list', () => {
    expect(parseRoute('#/policies')).toEqual({ page: 'policies' });
    expect(parseRoute(`#/policies/${encodeURIComponent('<b>x</b>')}`)).toMatchObject({ page: 'policy', id: '<b>x</b>' });
    expect(hrefOf({ page: 'policy', id: 'a/b?c', offset: 0 })).toBe('#/policies/a%2Fb%3Fc');
  });
});
