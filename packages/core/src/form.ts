import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { FormLimits, FormRead, FormReadResult, FormReadWatch } from './form-types.js';
import { readMultipart } from './multipart-form.js';

export type { FormFields, FormLimits, FormRead, FormReadResult, FormReadWatch } from './form-types.js';

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
const URLENCODED_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * Reads an `application/x-www-form-urlencoded` body (as Lynis sends it) with {@link parseUrlencoded}, or a
 * `multipart/form-data` body with busboy.
 *
 * Stops reading as soon as the body passes `maxBodyBytes` (a declared `Content-Length` over the limit is refused
 * before a byte is read), so an oversized upload is never buffered whole.
 */
export function readForm(body: Readable, headers: IncomingHttpHeaders, limits: FormLimits, watch: FormReadWatch = {}): Promise<FormRead> {
  if (!isFormType(headers)) return Promise.resolve({ kind: 'unsupported-type', bytesReceived: 0 });
  const declaredLength = Number(headers['content-length']);
  if (declaredLength > limits.maxBodyBytes) return Promise.resolve({ kind: 'too-large', bytesReceived: 0 });
  // A stream that already ended would never feed the parser, and the request would hang.
  if (body.readableEnded) return Promise.resolve({ kind: 'malformed', reason: 'the request body was already read', bytesReceived: 0 });
  if (URLENCODED_TYPE.test(headers['content-type']!)) return readUrlencoded(body, limits, declaredLength, watch);

  return readMultipart(body, headers, limits, declaredLength, watch);
}

/** Whether the request declares one of the two form media types. */
export function isFormType(headers: IncomingHttpHeaders): boolean {
  return FORM_TYPES.test(headers['content-type'] ?? '');
}

/**
 * Takes fields a host framework already parsed (e.g. Express' `express.urlencoded`), which are UTF-8 strings,
 * into the form reader's byte-per-character form, so that they are checked exactly like fields read here.
 */
export function formFromParsedFields(parsed: Record<string, unknown>, headers: IncomingHttpHeaders, limits: FormLimits): FormRead {
  const bytesReceived = Number(headers['content-length']) || 0;
  if (!isFormType(headers)) return { kind: 'unsupported-type', bytesReceived };
  const entries = Object.entries(parsed);
  if (entries.length > limits.maxFields) return { kind: 'malformed', reason: `more than ${limits.maxFields} form fields`, bytesReceived };
  const toLatin1 = (value: unknown) => Buffer.from(String(value), 'utf8').toString('latin1');
  const fields = Object.fromEntries(entries.map(([name, value]) => [name, Array.isArray(value) ? value.map(toLatin1) : toLatin1(value)]));
  return { kind: 'fields', fields, bytesReceived };
}

/**
 * Collects an urlencoded body, never more than the limit, and parses it once it is complete. With a declared
 * `Content-Length` the body is copied into one buffer of that size as it arrives, so no list of chunks is kept.
 */
function readUrlencoded(body: Readable, limits: FormLimits, declaredLength: number, watch: FormReadWatch): Promise<FormRead> {
  return new Promise((resolve) => {
    let buffer = Number.isSafeInteger(declaredLength) && declaredLength >= 0 ? Buffer.allocUnsafe(declaredLength) : undefined;
    let chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const early = watch.onField ? new EarlyFieldScanner(watch.onField) : undefined;
    const settle = (result: FormReadResult) => {
      if (settled) return;
      settled = true;
      chunks = [];
      buffer = undefined;
      body.off('data', collect);
      // What is still arriving is discarded, never buffered, so the connection stays usable.
      if (result.kind !== 'fields') body.resume();
      resolve({ ...result, bytesReceived: received });
    };
    function collect(data: Buffer | string) {
      // Streams made from strings (tests, other adapters) deliver text; the wire delivers bytes.
      const chunk = typeof data === 'string' ? Buffer.from(data) : data;
      if (received + chunk.length > limits.maxBodyBytes) {
        received += chunk.length;
        return settle({ kind: 'too-large' });
      }
      if (watch.onBytes && !watch.onBytes(chunk.length)) {
        received += chunk.length;
        return settle({ kind: 'over-budget' });
      }
      if (buffer && received + chunk.length <= buffer.length) {
        chunk.copy(buffer, received);
        // Only while more is to come: a body that is here whole is checked whole.
        if (received + chunk.length < buffer.length) early?.scan(buffer.subarray(0, received + chunk.length));
      } else {
        // More than declared (Node's parser prevents it) or no length: fall back to keeping the chunks.
        if (buffer) chunks.push(buffer.subarray(0, received));
        buffer = undefined;
        chunks.push(chunk);
      }
      received += chunk.length;
    }
    watch.onStart?.((reason) => settle({ kind: 'aborted', reason }));
    body.on('data', collect);
    body.on('end', () => {
      // The buffer is this reader's own: values are decoded in it, in place, and the report is kept as a view of it.
      const whole = buffer ? buffer.subarray(0, received) : Buffer.concat(chunks, received);
      settle(parsePairs(whole, limits.maxFields, true));
    });
    const cutOff = () => settle({ kind: 'malformed', reason: 'the request body was cut off' });
    body.on('error', cutOff);
    body.on('close', () => {
      if (!body.readableEnded) cutOff();
    });
  });
}

/** How many leading fields of an urlencoded body are offered to `onField` before the body is complete. */
const EARLY_FIELDS = 8;

/**
 * Finds the complete `name=value` pairs at the start of an urlencoded body as it arrives (a pair is complete once
 * its `&` has arrived) and hands them to `onField`: a client that sends its key first can be refused before the
 * rest of its body is read. Each call searches only the bytes that arrived since the last.
 */
class EarlyFieldScanner {
  #pairStart = 0;
  #searchFrom = 0;
  #pairs = 0;

  constructor(private readonly onField: (name: string, value: string) => void) {}

  /** `received`: every byte of the body so far. */
  scan(received: Buffer): void {
    while (this.#pairs < EARLY_FIELDS) {
      const end = received.indexOf(AMPERSAND, Math.max(this.#pairStart, this.#searchFrom));
      if (end === -1) break;
      const pair = parseUrlencoded(received.subarray(this.#pairStart, end), 1);
      if (pair.kind === 'fields') for (const [name, value] of Object.entries(pair.fields)) this.onField(name, value as string);
      this.#pairStart = end + 1;
      this.#pairs++;
    }
    this.#searchFrom = received.length;
  }
}

const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PERCENT = 0x25;
const PLUS = 0x2b;

/**
 * Parses an `application/x-www-form-urlencoded` body into latin1 field values, with busboy's rules: `+` is a
 * space, `%XX` one byte, a `%` without two hex digits makes the form malformed, a name without `=` has an empty
 * value, empty pairs are skipped, and more than `maxFields` pairs are refused. Done here rather than by busboy
 * because busboy appends each escaped byte to a string one by one: a report of a few megabytes, where every
 * newline and `=` is escaped, becomes millions of string pieces and seconds of garbage collection.
 */
export function parseUrlencoded(body: Buffer, maxFields: number): FormReadResult {
  const { bytes: _bytes, ...result } = parsePairs(body, maxFields, false) as FormReadResult & { bytes?: unknown };
  return result;
}

/**
 * {@link parseUrlencoded}, also giving the decoded bytes of each field sent once. `inPlace`: decode into `body`
 * itself (decoding never lengthens a value), so that the values' bytes are views of it rather than copies.
 */
function parsePairs(body: Buffer, maxFields: number, inPlace: boolean): FormReadResult {
  const fields = new Map<string, string | string[]>();
  const bytes = new Map<string, Buffer>();
  let pairs = 0;
  for (let start = 0; start <= body.length; pairs++) {
    if (pairs === maxFields) return { kind: 'malformed', reason: `more than ${maxFields} form fields` };
    let end = body.indexOf(AMPERSAND, start);
    if (end === -1) end = body.length;
    if (end > start) {
      const equals = body.subarray(start, end).indexOf(EQUALS);
      const nameBytes = decodeComponent(body, start, equals === -1 ? end : start + equals, inPlace);
      const valueBytes = equals === -1 ? Buffer.alloc(0) : decodeComponent(body, start + equals + 1, end, inPlace);
      if (nameBytes === undefined || valueBytes === undefined) return { kind: 'malformed', reason: 'Malformed urlencoded form' };
      const name = nameBytes.toString('latin1');
      const value = valueBytes.toString('latin1');
      const previous = fields.get(name);
      fields.set(name, previous === undefined ? value : [previous, value].flat());
      if (previous === undefined) bytes.set(name, valueBytes);
      else bytes.delete(name);
    }
    start = end + 1;
  }
  // fromEntries makes own properties, so a field named `__proto__` cannot reach the prototype.
  return { kind: 'fields', fields: Object.fromEntries(fields), bytes };
}

/**
 * Decodes `body[from, to)` as one urlencoded name or value into its bytes (`inPlace`: written over the encoded
 * ones, and a view of `body` returned); `undefined` if malformed.
 */
function decodeComponent(body: Buffer, from: number, to: number, inPlace: boolean): Buffer | undefined {
  const part = body.subarray(from, to);
  if (part.indexOf(PERCENT) === -1 && part.indexOf(PLUS) === -1) return part;
  // Writing never overtakes reading: each escape is three bytes read for one written.
  const out = inPlace ? part : Buffer.allocUnsafe(part.length);
  let length = 0;
  for (let i = 0; i < part.length; i++) {
    const byte = part[i]!;
    if (byte === PLUS) out[length++] = 0x20;
    else if (byte !== PERCENT) out[length++] = byte;
    else {
      const high = hexValue(part[i + 1]);
      const low = hexValue(part[i + 2]);
      if (high < 0 || low < 0) return undefined;
      out[length++] = (high << 4) | low;
      i += 2;
    }
  }
  return out.subarray(0, length);
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
