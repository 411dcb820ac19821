import { hrefOf, type Route } from '../route.js';

/** Where a paged list is, how long its pages are, how many items it has, and what its links are called. */
export interface PagerProps {
  route: Extract<Route, { offset: number }>;
  pageSize: number;
  total: number;
  label: string;
  /** Page sizes to choose from, and the address of the list with another size; none: the size is fixed. */
  sizes?: { choices: readonly number[]; hrefOf(size: number): string };
}

/** Previous and next links of a list the server pages through with `limit` and `offset`, and its page size if it may be chosen. */
export function Pager({ route, pageSize, total, label, sizes }: PagerProps) {
  return (
    <nav className="pager" aria-label={label}>
      {route.offset > 0 && <a href={hrefOf({ ...route, offset: Math.max(0, route.offset - pageSize) })}>Previous page</a>}
      {route.offset + pageSize < total && <a href={hrefOf({ ...route, offset: route.offset + pageSize })}>Next page</a>}
      {sizes && (
        <label className="page-size">
          Per page{' '}
          <select value={pageSize} onChange={(event) => (window.location.hash = sizes.hrefOf(Number(event.target.value)))}>
            {sizes.choices.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      )}
    </nav>
  );
}
