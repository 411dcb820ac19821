import { hrefOf, type Route } from '../route.js';

/** Where a paged list is, how long its pages are, how many items it has, and what its links are called. */
export interface PagerProps {
  route: Extract<Route, { offset: number }>;
  pageSize: number;
  total: number;
  label: string;
}

/** Previous and next links of a list the server pages through with `limit` and `offset`. */
export function Pager({ route, pageSize, total, label }: PagerProps) {
  return (
    <nav className="pager" aria-label={label}>
      {route.offset > 0 && <a href={hrefOf({ ...route, offset: Math.max(0, route.offset - pageSize) })}>Previous page</a>}
      {route.offset + pageSize < total && <a href={hrefOf({ ...route, offset: route.offset + pageSize })}>Next page</a>}
    </nav>
  );
}
