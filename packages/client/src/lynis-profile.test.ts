import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LynisProfileError, lynisKeyAsSent, parseLynisProfiles, parseUploadOptions } from './lynis-profile.js';

const fixture = { name: 'custom.prf', text: readFileSync(new URL('../fixtures/custom.prf', import.meta.url), 'utf8') };
const parse = (...texts: string[]) => parseLynisProfiles(texts.map((text, i) => ({ name: `p${i}.prf`, text })));

describe('parseLynisProfiles', () => {
  it('reads the fixture as Lynis does: aliases, last value wins, indented lines ignored, values cut at the next =', () => {
    expect(parseLynisProfiles([fixture])).toEqual({
      uploadServer: '127.0.0.1:8443/api/v1/audit',
      uploadOptions: '--cacert /etc/lynis/collector.pem --fail',
      licenseKey: 'deadbeef-0000-0000-0000-000000000001',
      hostId: '0123456789abcdef0123456789abcdef01234567',
      hostId2: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    });
  });

  it('reads profiles in order, a later one overriding an earlier one (default.prf, then custom.prf)', () => {
    expect(parse('upload-server=a:1/api/audit\nhostid=aa', 'upload-server=b:2/api/audit')).toMatchObject({
      uploadServer: 'b:2/api/audit',
      hostId: 'aa',
    });
  });

  it('keeps the earlier key when a later line sets an empty one, but an empty hostid clears it', () => {
    expect(parse('license-key=abc-1\nhostid=aa', 'license-key=\nhostid=')).toEqual({ licenseKey: 'abc-1', hostId: '' });
  });

  it('reads old-style config: lines', () => {
    expect(parse('config:upload_server:old.example.org:')).toEqual({ uploadServer: 'old.example.org' });
  });

  it('drops a Windows line ending instead of keeping it in the value', () => {
    expect(parse('upload-server=a:1/api/audit\r\nhostid=aa\r\n')).toEqual({ uploadServer: 'a:1/api/audit', hostId: 'aa' });
  });

  it('refuses a profile with characters Lynis refuses, naming the line and never echoing the whole line', () => {
    expect(() => parse('hostid=aa\nlicense-key=secret-key~1')).toThrow(LynisProfileError);
    expect(() => parse('hostid=aa\nlicense-key=secret-key~1')).toThrow('p0.prf line 2: unexpected characters "~"');
    expect(() => parse('\thostid=aa')).toThrow(/line 1/);
  });

  it('ignores lines that are not settings', () => {
    expect(parse('Hostid=aa\n# hostid=bb\n\nnot a setting')).toEqual({});
  });
});

describe('lynisKeyAsSent', () => {
  it('deletes what tr -cd "[a-f0-9-]" deletes, keeping the brackets of that set', () => {
    expect(lynisKeyAsSent('test-key-0001')).toBe('e-e-0001');
    expect(lynisKeyAsSent('A[b]g-Z9 x\n')).toBe('[b]-9');
  });
});

describe('parseUploadOptions', () => {
  it.each([
    ['--insecure', { insecure: true, ignored: [] }],
    ['-k', { insecure: true, ignored: [] }],
    ['-sk', { insecure: true, ignored: [] }],
    ['--cacert /etc/lynis/ca.pem', { insecure: false, caFile: '/etc/lynis/ca.pem', ignored: [] }],
    ['--cacert /etc/lynis/ca.pem --fail -s', { insecure: false, caFile: '/etc/lynis/ca.pem', ignored: ['--fail', '-s'] }],
    ['', { insecure: false, ignored: [] }],
  ])('%j', (options, expected) => {
    expect(parseUploadOptions(options)).toEqual(expected);
  });
});
