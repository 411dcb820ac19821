import busboy from 'busboy';
import { describe, expect, it } from 'vitest';
import { parseUrlencoded, type FormReadResult } from './form.js';

/** What busboy makes of an urlencoded body, in the same shape: the reference for {@link parseUrlencoded}. */
function busboyParse(body: Buffer, maxFields: number): Promise<FormReadResult> {
  return new Promise((resolve) => {
    const fields = new Map<string, string | string[]>();
    let done = false;
    const finish = (result: FormReadResult) => {
      if (!done) resolve(result);
      done = true;
    };
    const parser = busboy({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      defCharset: 'latin1',
      limits: { fields: maxFields, fieldSize: 1 << 24 },
    });
    parser.on('field', (name, value) => {
      const previous = fields.get(name);
      fields.set(name, previous === undefined ? value : [previous, value].flat());
    });
    parser.on('fieldsLimit', () => finish({ kind: 'malformed', reason: `more than ${maxFields} form fields` }));
    parser.on('error', (error: Error) => finish({ kind: 'malformed', reason: error.message }));
    parser.on('close', () => finish({ kind: 'fields', fields: Object.fromEntries(fields) }));
    parser.end(body);
  });
}

const bodies = [
  '',
  'a=1',
  'a=1&b=2&a=3',
  'data=%23+Lynis+Report%0Alicense_key%3Ddead-beef%0A&licensekey=dead-beef&hostid=0123',
  'a=%41%4a%4A%ff%00+%2B+',
  'flag&a=&=x&&b=2&',
  'a=%zz',
  'a=%4',
  'a=1&b=%',
  '%61%62=c',
  'a=é',
  '__proto__=x&constructor=y',
  Array.from({ length: 4 }, (_, i) => `f${i}=${i}`).join('&'),
  Array.from({ length: 5 }, (_, i) => `f${i}=${i}`).join('&'),
  `${Array.from({ length: 4 }, (_, i) => `f${i}=${i}`).join('&')}&`,
];

describe('parseUrlencoded', () => {
  it.each(bodies)('reads %j exactly as busboy does', async (text) => {
    const body = Buffer.from(text, 'utf8');
    expect(parseUrlencoded(body, 4)).toEqual(await busboyParse(body, 4));
  });

  it('keeps every byte value of a field as one latin1 character', () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const encoded = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    const result = parseUrlencoded(Buffer.from(`data=${encoded}`), 4);
    expect(result.kind === 'fields' && Buffer.from(result.fields['data'] as string, 'latin1')).toEqual(bytes);
  });
});
