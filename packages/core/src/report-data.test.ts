import { describe, expect, it } from 'vitest';
import { readLynisFixture } from '@org/test-support/lynis-fixtures';
import { decodeReportData, redactLicenseKeys } from './report-data.js';

const fixture = readLynisFixture('report.dat');
const asReceived = (bytes: Buffer) => bytes.toString('latin1');

describe('decodeReportData', () => {
  it('keeps a raw Lynis report byte for byte', () => {
    const decoded = decodeReportData(asReceived(fixture));
    expect(decoded).toEqual({ ok: true, encoding: 'raw', bytes: fixture });
  });

  it('decodes strict base64 of any bytes', () => {
    const bytes = Buffer.from([0, 255, 10, 13, 128]);
    expect(decodeReportData(bytes.toString('base64'))).toEqual({ ok: true, encoding: 'base64', bytes });
    expect(decodeReportData(fixture.toString('base64'))).toEqual({ ok: true, encoding: 'base64', bytes: fixture });
  });

  it('takes as base64 exactly the texts that decode and encode back to themselves', () => {
    // The definition, slow on large reports: the strict alphabet with padding, and the text Node's encoder writes.
    const strict = (data: string) => data.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(data) && Buffer.from(data, 'base64').toString('base64') === data;
    const characters = 'AQgw+/09=-_ \n%é';
    const takenAsBase64 = (data: string) => {
      const decoded = decodeReportData(data);
      return decoded.ok && decoded.encoding === 'base64';
    };
    let seed = 17;
    const random = (below: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % below;
    for (let i = 0; i < 50_000; i++) {
      const data = Array.from({ length: random(13) }, () => characters[random(characters.length)]).join('');
      expect([data, takenAsBase64(data)]).toEqual([data, strict(data)]);
    }
    for (const data of ['QUJD', 'QUI=', 'QQ==', 'QUJ=', 'QR==', 'QQ==QUJD', 'Q===', '====', `${'A'.repeat(80)}=A==`]) {
      expect([data, takenAsBase64(data)]).toEqual([data, strict(data)]);
    }
  });

  it('refuses exactly the texts with a line that is not key=value, a comment or empty, and names the first', () => {
    // The definition, slow on large reports: one multiline expression for "a line that is not a report line".
    const badLine = (text: string) => /^(?!#|\r?$|[A-Za-z0-9_.-]+(?:\[\])?=).*$/m.exec(text)?.index;
    const characters = 'a=#[]\r\n .-é';
    let seed = 29;
    const random = (below: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % below;
    const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;
    for (let i = 0; i < 50_000; i++) {
      const text = Array.from({ length: random(12) }, () => characters[random(characters.length)]).join('');
      const received = asReceived(Buffer.from(`a=1\n${text}`));
      const decoded = decodeReportData(received);
      const bad = badLine(received);
      const expected =
        bad === undefined ? undefined : `line ${lineOf(received, bad)} is not a key=value line or a # comment (and the whole value is not strict base64)`;
      expect([text, decoded.ok ? undefined : decoded.reason]).toEqual([text, expected]);
    }
  });

  it('keeps UTF-8 text and CRLF line ends', () => {
    const bytes = Buffer.from('# Bericht\r\nhostname=höst\r\nwarning[]=X|ü|\r\n', 'utf8');
    expect(decodeReportData(asReceived(bytes))).toEqual({ ok: true, encoding: 'raw', bytes });
  });

  it.each([
    ['wrapped base64', `${fixture.toString('base64').slice(0, 76)}\n${fixture.toString('base64').slice(76, 152)}`],
    ['base64 without padding', 'aGVsbG8'],
    ['plain words', 'hello world'],
    ['a line without =', 'os=Linux\nthis is not a report\n'],
    ['only comments', '# nothing here\n'],
  ])('refuses %s', (_name, data) => {
    const decoded = decodeReportData(data);
    expect(decoded.ok).toBe(false);
  });

  it.each([
    ['URL-safe base64', 'aGk_-w=='],
    ['base64 with non-canonical last bits', 'aGVsbG9='],
  ])('never decodes %s leniently: it is kept as the text sent, which happens to be a key=value line', (_name, data) => {
    expect(decodeReportData(data)).toEqual({ ok: true, encoding: 'raw', bytes: Buffer.from(data) });
  });

  it('refuses bytes that are not UTF-8 and says so', () => {
    const decoded = decodeReportData(asReceived(Buffer.from([0x6f, 0x73, 0x3d, 0xff, 0xfe, 0x0a])));
    expect(decoded).toEqual({ ok: false, reason: 'neither strict base64 nor UTF-8 text' });
  });

  it('names the first bad line', () => {
    const decoded = decodeReportData('os=Linux\nkernel=6\nbroken line\n');
    expect(decoded.ok || decoded.reason).toMatch(/^line 3 /);
  });
});

describe('redactLicenseKeys', () => {
  it('replaces the value of every license_key line and nothing else', () => {
    const report = Buffer.from('a=1\nlicense_key=secret-1\nb=license_key=x\nlicense_key=secret-2\r\n');
    expect(redactLicenseKeys(report).toString()).toBe('a=1\nlicense_key=[redacted]\nb=license_key=x\nlicense_key=[redacted]\r\n');
  });

  it('redacts the key in the captured Lynis report and keeps every other byte', () => {
    const redacted = redactLicenseKeys(fixture).toString('latin1');
    expect(redacted).not.toContain('deadbeef-0000-0000-0000-000000000001');
    expect(redacted).toBe(fixture.toString('latin1').replace('license_key=deadbeef-0000-0000-0000-000000000001', 'license_key=[redacted]'));
  });

  it.each([
    ['upper case', 'LICENSE_KEY=secret-1\n', 'LICENSE_KEY=[redacted]\n'],
    ['mixed case', 'os=Linux\nLicense_Key=secret-1\n', 'os=Linux\nLicense_Key=[redacted]\n'],
    ['the list form', 'license_key[]=secret-1\nLICENSE_KEY[]=secret-2', 'license_key[]=[redacted]\nLICENSE_KEY[]=[redacted]'],
    ['the first line', 'license_key=secret-1\nos=Linux\n', 'license_key=[redacted]\nos=Linux\n'],
    ['the last line, without a line end', 'os=Linux\nlicense_key=secret-1', 'os=Linux\nlicense_key=[redacted]'],
    ['lines ended by CR alone', 'os=Linux\rlicense_key=secret-1\rb=2', 'os=Linux\rlicense_key=[redacted]\rb=2'],
    ['indented lines', '  license_key=secret-1\n\tLicense_key[]=secret-2\n', '  license_key=[redacted]\n\tLicense_key[]=[redacted]\n'],
    ['an empty value', 'license_key=\n', 'license_key=[redacted]\n'],
  ])('redacts %s', (_name, report, redacted) => {
    expect(redactLicenseKeys(Buffer.from(report)).toString()).toBe(redacted);
  });

  it.each([
    ['another key', 'license_keys=x\nlicense_key_id=y\nmy_license_key=z\n'],
    ['the text of another value', 'b=license_key=x\n'],
    ['a key without =', 'license_key\n'],
  ])('leaves %s alone', (_name, report) => {
    expect(redactLicenseKeys(Buffer.from(report)).toString()).toBe(report);
  });

  it('redacts in place when asked and every value is at least as long as the marker, else into a copy', () => {
    const long = Buffer.from('a=1\nlicense_key=0123456789abcdef\nb=2\nLICENSE_KEY[]=fedcba9876543210\n');
    const redacted = redactLicenseKeys(long, { inPlace: true });
    expect(redacted.toString()).toBe('a=1\nlicense_key=[redacted]\nb=2\nLICENSE_KEY[]=[redacted]\n');
    expect(redacted.buffer).toBe(long.buffer);
    const short = Buffer.from('license_key=abc\nb=2\n');
    const copied = redactLicenseKeys(short, { inPlace: true });
    expect([copied.toString(), short.toString()]).toEqual(['license_key=[redacted]\nb=2\n', 'license_key=abc\nb=2\n']);
    expect(redactLicenseKeys(Buffer.from(fixture), { inPlace: true }).toString('latin1')).toBe(redactLicenseKeys(fixture).toString('latin1'));
  });

  it('redacts the presented key wherever its bytes occur, not only on license_key lines', () => {
    const key = 'deadbeef-0000-0000-0000-000000000001';
    const report = Buffer.from(`license_key=${key}\nos=Linux\nconfig_data=key:${key}|x\nwarning[]=X-1|${key}${key}|-|\nlast=${key}`);
    const expected = 'license_key=[redacted]\nos=Linux\nconfig_data=key:[redacted]|x\nwarning[]=X-1|[redacted][redacted]|-|\nlast=[redacted]';
    expect(redactLicenseKeys(report, { key }).toString()).toBe(expected);
    expect(redactLicenseKeys(Buffer.from(report), { key, inPlace: true }).toString()).toBe(expected);
    // Without a license_key line too.
    expect(redactLicenseKeys(Buffer.from(`a=${key}\n`), { key }).toString()).toBe('a=[redacted]\n');
  });

  it('leaves the bytes of a key too short to be told from ordinary text alone, outside license_key lines', () => {
    const report = Buffer.from('license_key=abc\nfile=/abc/abcdef\n');
    expect(redactLicenseKeys(report, { key: 'abc' }).toString()).toBe('license_key=[redacted]\nfile=/abc/abcdef\n');
  });

  it('returns the same buffer when there is nothing to redact', () => {
    const report = Buffer.from('os=Linux\n');
    expect(redactLicenseKeys(report)).toBe(report);
  });
});
