import { Fragment, type ReactNode } from 'react';
import { useFocusKept } from '../focus.js';
import type { SortOrder } from '../route.js';
import type { Loaded } from '../use-load.js';
import { Pager, type PagerProps } from './Pager.js';
import { Status } from './Status.js';

/** One column of a table: its heading, the cell of each row, and how it looks and sorts. */
export interface Column<T> {
  /** The heading (text, or content such as a visually hidden label). */
  header: ReactNode;
  /** The content of a row's cell. */
  cell(row: T): ReactNode;
  /** Class of the heading and of every cell, e.g. `number` (right-aligned) or `optional` (hidden on narrow screens). */
  className?: string;
  /** Class of a row's cell when it differs from the heading's (it replaces `className` on the cells). */
  cellClassName?: string | ((row: T) => string);
  /** The link that sorts the list by this column, and the order it is sorted in now (none: not sorted by it). */
  sort?: { href: string; current?: SortOrder };
  /** A control in the heading before its text or sort link (the checkbox that selects a page of rows). */
  headerControl?: ReactNode;
}

/** What a table shows: its columns, its rows, and what to say around them. */
export interface TableProps<T> {
  columns: Column<T>[];
  rows: readonly T[];
  /** A key that tells the rows apart (React's `key`). */
  rowKey(row: T, index: number): string | number;
  caption?: ReactNode;
  className?: string;
  /** Wrap the table in a box that scrolls sideways, for wide tables on narrow screens. */
  scroll?: boolean;
  /** Shown instead of the table when there is no row (without it, an empty table shows, its caption saying why). */
  empty?: ReactNode;
  /** Previous and next links under the table, for lists the server pages. */
  paging?: PagerProps;
  /** What to show under a row, across every column (a form opened for it); nothing when it gives nothing. */
  below?(row: T): ReactNode;
}

/** Every list of the dashboard: headings with `scope`, an optional caption, sortable headings, an empty state and paging. */
export function Table<T>({ columns, rows, rowKey, caption, className, scroll, empty, paging, below }: TableProps<T>) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const table = (
    <table className={className}>
      {caption !== undefined && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column, index) => (
            <Heading key={index} column={column} id={`${className ?? 'table'} ${index}`} />
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => {
          const under = below?.(row);
          return (
            <Fragment key={rowKey(row, index)}>
              <tr>
                {columns.map((column, i) => (
                  <td key={i} className={cellClass(column, row)}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
              {under && (
                <tr className="row-below">
                  <td colSpan={columns.length}>{under}</td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
  return (
    <>
      {scroll ? <div className="table-scroll">{table}</div> : table}
      {paging && <Pager {...paging} />}
    </>
  );
}

/** A table of data that may still be loading or have failed: the status until it is there, then the table. */
export function LoadedTable<T>({ loaded, ...table }: Omit<TableProps<T>, 'rows'> & { loaded: Loaded<readonly T[]> }) {
  if (loaded.state !== 'ready') return <Status loaded={loaded} />;
  return <Table {...table} rows={loaded.value} />;
}

function cellClass<T>(column: Column<T>, row: T): string | undefined {
  const { cellClassName, className } = column;
  if (cellClassName === undefined) return className;
  return typeof cellClassName === 'function' ? cellClassName(row) : cellClassName;
}

/** A column heading; a sortable one is a link that sorts by it (selecting the sorted column again reverses the order). */
function Heading<T>({ column, id }: { column: Column<T>; id: string }) {
  const { header, className, sort, headerControl } = column;
  // The sorted list is shown afresh once loaded: the heading followed takes focus back.
  const { ref, follow } = useFocusKept<HTMLAnchorElement>(`sort ${id}`, sort?.href);
  if (!sort)
    return (
      <th scope="col" className={className}>
        {headerControl}
        {header}
      </th>
    );
  const mark = sort.current === 'asc' ? '\u00a0▲' : sort.current === 'desc' ? '\u00a0▼' : '\u00a0↕';
  return (
    <th scope="col" className={className} aria-sort={sort.current === 'asc' ? 'ascending' : sort.current === 'desc' ? 'descending' : undefined}>
      {headerControl}
      <a className="sort" href={sort.href} ref={ref} onClick={() => follow(sort.href)}>
        {header}
        <span aria-hidden="true" className="sort-mark">
          {mark}
        </span>
      </a>
    </th>
  );
}
