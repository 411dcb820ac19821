import { hrefOf, type Route } from '../route.js';

/** Previous and next links of a list the server pages through with `limit` and `offset`. */
export function Pager({ route, pageSize, total, label }: { route: Extract<Route, { offset: number }>; pageSize: number; total: number; label: string }) {
  return (
    <nav className="pager" aria-label={label}>
      {route.offset > 0 && <a href={hrefOf({ ...route, offset: Math.max(0, route.offset - pageSize) })}>Previous page</a>}
      {route.offset + pageSize < total && <a href={hrefOf({ ...route, offset: route.offset + pageSize })}>Next page</a>}
    </nav>
  );
}
