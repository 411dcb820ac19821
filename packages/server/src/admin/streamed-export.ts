import type { ExportStream } from '../exports/export-body.js';
import type { RawReply } from './operation.js';

/** A streamed export as the answer: its content type, a file name to save it under, never cached. */
export function streamedExport(stream: ExportStream): RawReply {
  return {
    raw: {
      status: 200,
      headers: { 'content-type': stream.contentType, 'content-disposition': `attachment; filename="${stream.fileName}"`, 'cache-control': 'no-store' },
      body: stream.body,
    },
  };
}
