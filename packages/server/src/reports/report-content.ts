import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants } from 'node:zlib';

/**
 * How a report's bytes sit in its `content` column: as received and waiting for the compaction pass (`pending`: how
 * uploads store them, so that no upload waits for a compression), as they are for good (`identity`: rows stored
 * before compression, and reports compression would not shrink) or compressed with brotli (`br`).
 */
export type ContentEncoding = 'pending' | 'identity' | 'br';

/** A report's bytes as the `report` row keeps them. */
export interface StoredContent {
  contentEncoding: ContentEncoding;
  content: Buffer;
  /** SHA-256 (hex) of the bytes before compression, checked on every read. */
  contentSha256: string;
}

/** What {@link reportBytesOf} reads of a `report` row: the entity's properties, or {@link CONTENT_COLUMNS} through knex. */
export interface ContentColumns {
  id: string;
  contentEncoding: string;
  content: Uint8Array;
  /** Null (or absent from the entity) on rows stored before it was kept. */
  contentSha256?: string | null;
}

/** The columns to select through knex for {@link reportBytesOf}. */
export const CONTENT_COLUMNS = ['id', 'content', 'content_encoding as contentEncoding', 'content_sha256 as contentSha256'];

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);

/**
 * Brotli quality 4 in text mode: measured on the captured Lynis report it stores 0.29 × the report in 0.6 ms, where
 * gzip level 6 stores 0.29 × in 0.8–1.1 ms and brotli 5 stores 0.28 × in 0.9 ms (see docs/performance.md, "What made the upload path fast").
 */
const QUALITY = 4;

/** A new report's bytes as an upload stores them: as received, with their SHA-256; the compaction pass compresses them later. */
export function pendingContent(bytes: Buffer): StoredContent {
  return { contentEncoding: 'pending', content: bytes, contentSha256: sha256Hex(bytes) };
}

/**
 * The report's bytes as the database keeps them for good, compressed on libuv's threadpool so that the event loop
 * goes on serving while it runs.
 */
export async function packReport(bytes: Buffer, contentSha256 = sha256Hex(bytes)): Promise<StoredContent> {
  const compressed = await oneOfFewCompressions(() =>
    compress(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  );
  return compressed.length < bytes.length
    ? { contentEncoding: 'br', content: compressed, contentSha256 }
    : { contentEncoding: 'identity', content: bytes, contentSha256 };
}

/**
 * Most compressions under way at once. Each holds an encoder of several MiB from the moment it is asked for, not
 * from when a threadpool thread takes it up: 32 large uploads at once held 32 encoders (about 0.5 GiB more peak RSS).
 */
const MAX_COMPRESSIONS = 2;
let compressing = 0;
const waitingCompressions: (() => void)[] = [];

async function oneOfFewCompressions<T>(run: () => Promise<T>): Promise<T> {
  if (compressing >= MAX_COMPRESSIONS) await new Promise<void>((resolve) => waitingCompressions.push(resolve));
  else compressing++;
  try {
    return await run();
  } finally {
    // The slot passes straight to the next waiting compression, if any.
    const next = waitingCompressions.shift();
    if (next) next();
    else compressing--;
  }
}

/** A stored report whose bytes no longer match their SHA-256, or that cannot be decoded: never shown as if it were the report. */
export class DamagedReportError extends Error {
  constructor(
    readonly reportId: string,
    detail: string,
  ) {
    super(`Report ${reportId} is damaged in the database (${detail}); its bytes are not served`);
    this.name = 'DamagedReportError';
  }
}

/**
 * The one way to read a report's bytes from its row: decoded, and checked against the SHA-256 taken when it was
 * stored. Rejects with {@link DamagedReportError} rather than return other bytes. Rows stored before the digest
 * was kept (no `contentSha256`, always `identity`) are returned as they are.
 */
export async function reportBytesOf(row: ContentColumns): Promise<Buffer> {
  const stored = Buffer.from(row.content.buffer, row.content.byteOffset, row.content.byteLength);
  let bytes: Buffer;
  if (row.contentEncoding === 'identity' || row.contentEncoding === 'pending') bytes = stored;
  else if (row.contentEncoding === 'br')
    bytes = await decompress(stored).catch(() => Promise.reject(new DamagedReportError(row.id, 'its compressed bytes do not decode')));
  else throw new DamagedReportError(row.id, `unknown content encoding ${JSON.stringify(row.contentEncoding)}`);
  if (row.contentSha256 != null && sha256Hex(bytes) !== row.contentSha256) throw new DamagedReportError(row.id, 'its bytes do not match their SHA-256');
  return bytes;
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
