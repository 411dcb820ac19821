import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * Form fields by name. Values are latin1 strings, one character per byte received, so that binary-exact
 * content (the report) can be recovered with `Buffer.from(value, 'latin1')`. A repeated field becomes an array.
 */
export type FormFields = Record<string, string | string[]>;

/** The outcome of reading a form body. */
export type FormReadResult =
  | { kind: 'fields'; fields: FormFields }
  | { kind: 'too-large' }
  | { kind: 'unsupported-type' }
  | { kind: 'malformed'; reason: string };

/** A {@link FormReadResult} with the number of body bytes read to reach it. */
export type FormRead = FormReadResult & { bytesReceived: number };

/** Bounds on what one request body may hold. */
export interface FormLimits {
  /** Largest body accepted, in bytes. */
  maxBodyBytes: number;
  /** Most fields (and file parts) accepted in one body. */
  maxFields: number;
}

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * Reads an `application/x-www-form-urlencoded` or `multipart/form-data` body with busboy.
 *
 * Stops reading as soon as the body passes `maxBodyBytes` (a declared `Content-Length` over the limit is refused
 * before a byte is read), so an oversized upload is never buffered whole.
 */
export function readForm(body: Readable, headers: IncomingHttpHeaders, limits: FormLimits): Promise<FormRead> {
  if (!isFormType(headers)) return Promise.resolve({ kind: 'unsupported-type', bytesReceived: 0 });
  const declaredLength = Number(headers['content-length']);
  if (declaredLength > limits.maxBodyBytes) return Promise.resolve({ kind: 'too-large', bytesReceived: 0 });
  // A stream that already ended would never feed the parser, and the request would hang.
  if (body.readableEnded) return Promise.resolve({ kind: 'malformed', reason: 'the request body was already read', bytesReceived: 0 });

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers,
      defCharset: 'latin1',
      defParamCharset: 'latin1',
      limits: {
        fieldSize: limits.maxBodyBytes,
        fileSize: limits.maxBodyBytes,
        fields: limits.maxFields,
        files: limits.maxFields,
        parts: limits.maxFields,
      },
    });
  } catch (error) {
    return Promise.resolve({ kind: 'malformed', reason: (error as Error).message, bytesReceived: 0 });
  }

  return new Promise((resolve) => {
    const fields = new Map<string, string | string[]>();
    let received = 0;
    let openFiles = 0;
    let parsed = false;
    let settled = false;

    const settle = (result: FormReadResult) => {
      if (settled) return;
      settled = true;
      body.off('data', countBytes);
      if (result.kind !== 'fields') {
        // Stop parsing; what is still arriving is discarded, never buffered, so the connection stays usable.
        body.unpipe(parser);
        body.resume();
      }
      resolve({ ...result, bytesReceived: received });
    };
    const finishIfDone = () => {
      // fromEntries makes own properties, so a field named `__proto__` cannot reach the prototype.
      if (parsed && openFiles === 0) settle({ kind: 'fields', fields: Object.fromEntries(fields) });
    };
    const add = (name: string, value: string) => {
      const previous = fields.get(name);
      fields.set(name, previous === undefined ? value : [previous, value].flat());
    };
    function countBytes(chunk: Buffer) {
      received += chunk.length;
      if (received > limits.maxBodyBytes) settle({ kind: 'too-large' });
    }

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) settle({ kind: 'too-large' });
      else add(name, value);
    });
    parser.on('file', (name, stream) => {
      openFiles++;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => settle({ kind: 'too-large' }));
      stream.on('close', () => {
        openFiles--;
        add(name, Buffer.concat(chunks).toString('latin1'));
        finishIfDone();
      });
    });
    const tooMany = () => settle({ kind: 'malformed', reason: `more than ${limits.maxFields} form fields` });
    parser.on('fieldsLimit', tooMany);
    parser.on('filesLimit', tooMany);
    parser.on('partsLimit', tooMany);
    parser.on('error', (error: Error) => settle({ kind: 'malformed', reason: error.message }));
    parser.on('close', () => {
      parsed = true;
      finishIfDone();
    });
    body.on('data', countBytes);
    const cutOff = () => settle({ kind: 'malformed', reason: 'the request body was cut off' });
    body.on('error', cutOff);
    body.on('close', () => {
      if (!body.readableEnded) cutOff();
    });
    body.pipe(parser);
  });
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
  const fields = Object.fromEntries(
    entries.map(([name, value]) => [name, Array.isArray(value) ? value.map(toLatin1) : toLatin1(value)]),
  );
  return { kind: 'fields', fields, bytesReceived };
}
