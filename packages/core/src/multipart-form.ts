import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { FormLimits, FormRead, FormReadResult, FormReadWatch } from './form-types.js';

/**
 * Reads a `multipart/form-data` body with busboy, under the same limits and watch as the urlencoded reader
 * (`form.ts`): at most `maxBodyBytes`, `maxFields` parts, and whatever the watch stops.
 */
export function readMultipart(
  body: Readable,
  headers: IncomingHttpHeaders,
  limits: FormLimits,
  declaredLength: number,
  watch: FormReadWatch,
): Promise<FormRead> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers,
      defCharset: 'latin1',
      defParamCharset: 'latin1',
      limits: { fieldSize: limits.maxBodyBytes, fileSize: limits.maxBodyBytes, fields: limits.maxFields, files: limits.maxFields, parts: limits.maxFields },
    });
  } catch (error) {
    return Promise.resolve({ kind: 'malformed', reason: (error as Error).message, bytesReceived: 0 });
  }
  return new Promise((resolve) => new MultipartRead(body, parser, limits, declaredLength, watch, resolve).start());
}

/** One multipart body being read: its fields so far, and how it settles (once). */
class MultipartRead {
  private readonly fields = new Map<string, string | string[]>();
  private readonly bytes = new Map<string, Buffer>();
  private received = 0;
  private openFiles = 0;
  private parsed = false;
  private settled = false;

  constructor(
    private readonly body: Readable,
    private readonly parser: busboy.Busboy,
    private readonly limits: FormLimits,
    private readonly declaredLength: number,
    private readonly watch: FormReadWatch,
    private readonly resolve: (read: FormRead) => void,
  ) {}

  start(): void {
    const { body, parser, limits } = this;
    this.watch.onStart?.((reason) => this.settle({ kind: 'aborted', reason }));
    parser.on('field', (name, value, info) => this.takeField(name, value, info.valueTruncated));
    parser.on('file', (name, stream) => this.takeFile(name, stream));
    const tooMany = () => this.settle({ kind: 'malformed', reason: `more than ${limits.maxFields} form fields` });
    parser.on('fieldsLimit', tooMany);
    parser.on('filesLimit', tooMany);
    parser.on('partsLimit', tooMany);
    parser.on('error', (error: Error) => this.settle({ kind: 'malformed', reason: error.message }));
    parser.on('close', () => {
      this.parsed = true;
      this.finishIfDone();
    });
    body.on('data', this.countBytes);
    const cutOff = () => this.settle({ kind: 'malformed', reason: 'the request body was cut off' });
    body.on('error', cutOff);
    body.on('close', () => {
      if (!body.readableEnded) cutOff();
    });
    body.pipe(parser);
  }

  private settle(result: FormReadResult): void {
    if (this.settled) return;
    this.settled = true;
    this.body.off('data', this.countBytes);
    if (result.kind !== 'fields') {
      // Stop parsing; what is still arriving is discarded, never buffered, so the connection stays usable.
      this.body.unpipe(this.parser);
      this.body.resume();
    }
    this.resolve({ ...result, bytesReceived: this.received });
  }

  private finishIfDone(): void {
    // fromEntries makes own properties, so a field named `__proto__` cannot reach the prototype.
    if (this.parsed && this.openFiles === 0) this.settle({ kind: 'fields', fields: Object.fromEntries(this.fields), bytes: this.bytes });
  }

  private add(name: string, value: string, valueBytes?: Buffer): void {
    const previous = this.fields.get(name);
    this.fields.set(name, previous === undefined ? value : [previous, value].flat());
    if (previous === undefined && valueBytes) this.bytes.set(name, valueBytes);
    else this.bytes.delete(name);
  }

  private readonly countBytes = (chunk: Buffer): void => {
    this.received += chunk.length;
    if (this.received > this.limits.maxBodyBytes) this.settle({ kind: 'too-large' });
    else if (this.watch.onBytes && !this.watch.onBytes(chunk.length)) this.settle({ kind: 'over-budget' });
  };

  private takeField(name: string, value: string, truncated: boolean): void {
    if (truncated) return this.settle({ kind: 'too-large' });
    this.add(name, value);
    // Only while more is to come (as far as a declared length tells): a body that is here whole is checked whole.
    if (!(this.received >= this.declaredLength)) this.watch.onField?.(name, value);
  }

  private takeFile(name: string, stream: Readable): void {
    this.openFiles++;
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => this.settle({ kind: 'too-large' }));
    // A body cut off inside a file part fails the part's stream too; unheard, that error would end the process.
    stream.on('error', (error: Error) => this.settle({ kind: 'malformed', reason: error.message }));
    stream.on('close', () => {
      this.openFiles--;
      const value = Buffer.concat(chunks);
      this.add(name, value.toString('latin1'), value);
      this.finishIfDone();
    });
  }
}
