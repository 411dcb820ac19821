import type { LookupAddress } from 'node:dns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '@org/test-support/postgres';
import { createAdminApi, type AdminApi } from '../admin/api.js';
import { openDatabase, type Database } from '../database/open.js';
import { createAdminToken } from '../secrets/admin-tokens.js';
import { checkedLookup, isAllowedAddress, refusedReceiver } from './safe-request.js';

/**
 * Addresses of the IANA special-purpose registries (IPv4 and IPv6) and other non-global space, each of which a
 * webhook must not reach unless private delivery is allowed.
 */
const REFUSED = [
  '127.0.0.1',
  '127.255.255.254',
  '10.1.2.3',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '100.64.0.1',
  '169.254.169.254',
  '0.0.0.0',
  '0.1.2.3',
  '192.0.0.8',
  '192.0.0.170',
  '192.0.2.1',
  '198.18.0.1',
  '198.19.255.1',
  '198.51.100.7',
  '203.0.113.9',
  '192.88.99.1',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '::127.0.0.1',
  '::7f00:1',
  '::8.8.8.8',
  '64:ff9b::7f00:1',
  '64:ff9b:1::1',
  'fc00::1',
  'fd00::1',
  'fe80::1',
  'fec0::1',
  'ff02::1',
  'ff0e::1',
  '2001:db8::1',
  '3fff::1',
  '2001::1',
  '2001:2::1',
  '2001:20::1',
  '2002:7f00:1::',
  '100::1',
  '5f00::1',
  '4000::1',
  'fe80::1%eth0',
];
/** Public unicast, IPv4 and IPv6 (never sent to here: tests have no network). */
const ACCEPTED = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '::ffff:93.184.216.34', '2606:2800:220:1::1', '2606:4700::1111', '2a00:1450:4001::1'];

/** The same receivers as URLs: addresses written as URL hosts, and the decimal, hex, octal and short spellings of 127.0.0.1. */
const hostOf = (address: string) => (address.includes(':') ? `[${address.replace('%', '%25')}]` : address);
const REFUSED_URLS = [
  ...REFUSED.filter((address) => !address.includes('%')).map((address) => `http://${hostOf(address)}/hook`),
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0177.0.0.1/',
  'http://0x7f.0.0.1/',
  'http://127.1/',
  'http://017700000001/',
  'https://[0:0:0:0:0:ffff:7f00:1]:8443/',
  'http://localhost/',
  'http://api.localhost:8080/',
];
const ACCEPTED_URLS = ACCEPTED.map((address) => `https://${hostOf(address)}/hook`);

describe('which addresses a webhook may reach', () => {
  it('refuses every special-purpose address, mapped and compatible forms included, unless private delivery is allowed', () => {
    for (const address of REFUSED) {
      expect([address, isAllowedAddress(address, false)]).toEqual([address, false]);
      expect([address, isAllowedAddress(address, true)]).toEqual([address, true]);
    }
    for (const address of ACCEPTED) expect([address, isAllowedAddress(address, false)]).toEqual([address, true]);
  });

  it('refuses the URLs naming them, in every spelling, saying why', () => {
    for (const url of REFUSED_URLS) {
      expect([url, refusedReceiver(url, false)]).toEqual([url, expect.stringMatching(/ is (a loopback name|not a public address \(.+\))$/)]);
      expect([url, refusedReceiver(url, true)]).toEqual([url, undefined]);
    }
    expect(refusedReceiver('http://2130706433/', false)).toBe('127.0.0.1 is not a public address (loopback)');
    expect(refusedReceiver('http://[::127.0.0.1]/', false)).toBe('::7f00:1 is not a public address (outside global unicast 2000::/3)');
    expect(refusedReceiver('http://[fec0::1]/', false)).toBe('fec0::1 is not a public address (deprecatedSiteLocal)');
    for (const url of [...ACCEPTED_URLS, 'https://hooks.example.org/audit']) expect([url, refusedReceiver(url, false)]).toEqual([url, undefined]);
  });

  it('refuses a name whose DNS answers hold any of them, at delivery', async () => {
    const lookupWith = (answers: LookupAddress[], allowPrivate: boolean) =>
      new Promise<{ error: Error | null; address: unknown }>((resolve) => {
        const resolver = ((_name: string, _options: unknown, callback: (error: null, addresses: LookupAddress[]) => void) => callback(null, answers)) as never;
        checkedLookup(allowPrivate, resolver)('hooks.example.org', {}, (error, address) => resolve({ error, address }));
      });
    for (const address of REFUSED.filter((entry) => !entry.includes('%') || entry.startsWith('fe80'))) {
      const family = address.includes(':') ? 6 : 4;
      // One bad answer among good ones is enough to refuse: the socket could be given any of them.
      const { error } = await lookupWith(
        [
          { address: '93.184.216.34', family: 4 },
          { address, family },
        ],
        false,
      );
      expect([address, error?.message]).toEqual([address, expect.stringMatching(/^hooks\.example\.org resolves to .+, not a public address \(.+\)$/)]);
      expect([address, (await lookupWith([{ address, family }], true)).error]).toEqual([address, null]);
    }
    for (const address of ACCEPTED) expect(await lookupWith([{ address, family: address.includes(':') ? 6 : 4 }], false)).toEqual({ error: null, address });
  });
});

describe.each(DIALECTS)('webhook receivers at creation on %s', (dialect) => {
  const location = useTestDatabase(dialect);
  let database: Database;
  let admin: AdminApi;
  let token: string;
  beforeEach(async () => {
    database = await openDatabase(location.location);
    ({ token } = await createAdminToken(database, { label: 'tests' }));
  });
  afterEach(() => database.close());

  const create = async (url: string) => {
    const answer = await admin.handle({
      method: 'POST',
      path: '/api/admin/webhooks',
      query: {},
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: { kind: 'json', value: { url, events: ['report.stored'] } },
    });
    if (typeof answer.body !== 'string') throw new Error('expected a JSON answer');
    return { status: answer.status, detail: (JSON.parse(answer.body) as { detail?: string }).detail };
  };

  it('answers 400 with the reason for every refused URL, and takes public ones', async () => {
    admin = await createAdminApi({ database });
    for (const url of REFUSED_URLS) {
      expect([url, await create(url)]).toEqual([
        url,
        {
          status: 400,
          detail: expect.stringMatching(/^url: .+ is (a loopback name|not a public address \(.+\)); this server sends webhooks only to public addresses/),
        },
      ]);
    }
    for (const url of ACCEPTED_URLS) expect([url, (await create(url)).status]).toEqual([url, 201]);
    const [{ n }] = (await database.em.getKnex()('webhook').count({ n: '*' })) as [{ n: number | string }];
    expect(Number(n)).toBe(ACCEPTED_URLS.length);
  });

  it('takes them all when private delivery is allowed', async () => {
    admin = await createAdminApi({ database, webhookAllowPrivate: true });
    for (const url of REFUSED_URLS) expect([url, (await create(url)).status]).toEqual([url, 201]);
  });
});
