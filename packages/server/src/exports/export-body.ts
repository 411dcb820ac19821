import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/** The formats an export is written in. */
export type ExportFormat = 'csv' | 'json';

/** A streamed export: its content type and file name, and its body. */
export interface ExportStream {
  contentType: string;
  fileName: string;
  body: Readable;
}

/**
 * Writes rows as they come, never holding more than one page: CSV through csv-stringify (a header row; every
 * cell a spreadsheet would read as a formula, `=`, `+`, `-`, `@`, prefixed with `'`, since host text is hostile),
 * or a JSON array. Lists become `;`-separated cells in CSV.
 */
export function exportStream(format: ExportFormat, name: string, columns: string[], rows: AsyncIterable<Record<string, unknown>>): ExportStream {
  if (format === 'json') return { contentType: 'application/json; charset=utf-8', fileName: `${name}.json`, body: Readable.from(jsonArray(rows)) };
  const csv = stringify({
    header: true,
    columns,
    escape_formulas: true,
    cast: { boolean: (value) => String(value), date: (value) => value.toISOString(), object: (value) => (Array.isArray(value) ? value.join(';') : JSON.stringify(value)) },
  });
  const source = Readable.from(rows);
  source.on('error', (error) => csv.destroy(error));
  return { contentType: 'text/csv; charset=utf-8', fileName: `${name}.csv`, body: source.pipe(csv) };
}

async function* jsonArray(rows: AsyncIterable<Record<string, unknown>>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const row of rows) {
    yield `${first ? '' : ','}\n${JSON.stringify(row)}`;
    first = false;
  }
  yield '\n]\n';
}

/** Rows of a table a page at a time, each page after the last key of the one before (keyset paging: flat memory, no offsets). */
export async function* pagesOf<Row, Key>(readPage: (after: Key | undefined) => Promise<Row[]>, keyOf: (row: Row) => Key, pageSize: number): AsyncGenerator<Row[]> {
  let after: Key | undefined;
  for (;;) {
    const page = await readPage(after);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = keyOf(page.at(-1)!);
  }
}
