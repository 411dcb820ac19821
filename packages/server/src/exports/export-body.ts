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

/** What a spreadsheet reads as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A formula start right after a separator a spreadsheet may split a cell on: a file written with `,` can be
 * opened with `;` as the separator (and the other way round), and list cells are joined with `;`.
 */
const FORMULA_AFTER_SEPARATOR = /([,;])(?=[=+\-@\t\r])/g;

/**
 * Host text made inert for spreadsheets: `'` before a formula start at the cell's beginning and after every
 * separator, so no piece of the cell, however the file is split, reads as a formula.
 */
export function neutralisedCell(text: string): string {
  return (FORMULA_START.test(text) ? `'${text}` : text).replace(FORMULA_AFTER_SEPARATOR, "$1'");
}

/**
 * Writes rows as they come, never holding more than one page: CSV through csv-stringify (a header row; text cells
 * and each element of a list cell through {@link neutralisedCell}, since host text is hostile), or a JSON array.
 * Lists become `;`-separated cells in CSV.
 */
export function exportStream(format: ExportFormat, name: string, columns: string[], rows: AsyncIterable<Record<string, unknown>>): ExportStream {
  if (format === 'json') return { contentType: 'application/json; charset=utf-8', fileName: `${name}.json`, body: Readable.from(jsonArray(rows)) };
  const csv = stringify({
    header: true,
    columns,
    cast: {
      string: neutralisedCell,
      boolean: (value) => String(value),
      date: (value) => value.toISOString(),
      object: (value) => neutralisedCell(Array.isArray(value) ? value.map((item) => neutralisedCell(String(item))).join(';') : JSON.stringify(value)),
    },
  });
  const source = Readable.from(rows);
  source.on('error', (error) => csv.destroy(error));
  return { contentType: 'text/csv; charset=utf-8', fileName: `${name}.csv`, body: source.pipe(csv) };
}

/** JSON Lines, one object per line, written a page at a time as the pages come. */
export function jsonLinesStream(name: string, pages: AsyncIterable<readonly unknown[]>): ExportStream {
  return { contentType: 'application/jsonl; charset=utf-8', fileName: `${name}.jsonl`, body: Readable.from(jsonLines(pages)) };
}

async function* jsonLines(pages: AsyncIterable<readonly unknown[]>): AsyncGenerator<string> {
  for await (const page of pages) yield page.map((item) => `${JSON.stringify(item)}\n`).join('');
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
export async function* pagesOf<Row, Key>(
  readPage: (after: Key | undefined) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  pageSize: number,
): AsyncGenerator<Row[]> {
  let after: Key | undefined;
  for (;;) {
    const page = await readPage(after);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = keyOf(page.at(-1)!);
  }
}
