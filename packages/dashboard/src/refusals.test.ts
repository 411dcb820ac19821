import { describe, expect, it } from 'vitest';
import type { LicenseKeyInfo, RejectionGroup } from '@org/audit-client/sdk';
import { addressesOf, hostLinkOf, hostOf, keyOf } from './refusals.js';
import { parseRoute } from './route.js';

const group = (fields: Partial<RejectionGroup>) => ({ hostId: 'h1', folded: false, remoteAddresses: [], addressCount: 0, ...fields }) as RejectionGroup;

describe('refusals', () => {
  it('names the host id sent, none, or the fold of many hosts', () => {
    expect(hostOf(group({}))).toBe('h1');
    expect(hostOf(group({ hostId: null }))).toBe('(none sent)');
    expect(hostOf(group({ hostId: null, folded: true }))).toBe("(many hosts: over the server's bound)");
  });

  it('links a host id to the hosts list filtered by it, encoded so that hostile text stays one parameter', () => {
    expect(hostLinkOf(group({ hostId: '0123456789abcdef0123456789abcdef01234567' }))).toBe('#/hosts?hostId=0123456789abcdef0123456789abcdef01234567');
    const hostile = 'a&offset=5#/keys"<b>';
    const href = hostLinkOf(group({ hostId: hostile }))!;
    expect(href).not.toMatch(/["<>]|&offset|#\/keys/);
    expect(parseRoute(href)).toMatchObject({ page: 'hosts', offset: 0, hostId: hostile });
    expect(hostLinkOf(group({ hostId: null }))).toBeUndefined();
    expect(hostLinkOf(group({ hostId: null, folded: true }))).toBeUndefined();
  });

  it('names a key by its label and first characters, by its id when not listed', () => {
    const keys = new Map([['k1', { id: 'k1', label: null, prefix: 'ab12' } as LicenseKeyInfo]]);
    expect(keyOf('k1', keys)).toBe('(no label) · ab12…');
    expect(keyOf('k2', keys)).toBe('k2');
    expect(keyOf(null, keys)).toBe('unknown key');
  });

  it('lists the client addresses and how many more there were', () => {
    expect(addressesOf(group({ remoteAddresses: ['192.0.2.1', '192.0.2.2'], addressCount: 5 }))).toBe('192.0.2.1, 192.0.2.2 and 3 more');
    expect(addressesOf(group({ remoteAddresses: ['192.0.2.1'], addressCount: 1 }))).toBe('192.0.2.1');
    expect(addressesOf(group({}))).toBe('—');
  });
});
