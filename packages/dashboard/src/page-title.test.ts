import { describe, expect, it } from 'vitest';
import { documentTitle } from './page-title.js';
import { hostsRoute } from './route.js';

describe('window titles', () => {
  it("names the route's page, then the app", () => {
    expect(documentTitle({ page: 'overview' })).toBe('Overview · Audit collector');
    expect(documentTitle(hostsRoute({ group: 'web' }))).toBe('Hosts · Audit collector');
    expect(documentTitle({ page: 'refused', offset: 0 })).toBe('Refused uploads · Audit collector');
  });

  it("puts a page's detail, such as a host's name, first once it is known", () => {
    expect(documentTitle({ page: 'host', id: 'x' })).toBe('Host · Audit collector');
    expect(documentTitle({ page: 'host', id: 'x' }, 'web-01')).toBe('web-01 · Host · Audit collector');
  });
});
