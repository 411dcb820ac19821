import { useFocusKept } from '../focus.js';
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

/**
 * Previous and next links of a list the server pages through with `limit` and `offset`, and its page size if it may be
 * chosen. The list is shown afresh once the other page has loaded: the link or size used takes focus back.
 */
export function Pager({ route, pageSize, total, label, sizes }: PagerProps) {
  const previous = route.offset > 0 ? hrefOf({ ...route, offset: Math.max(0, route.offset - pageSize) }) : undefined;
  const next = route.offset + pageSize < total ? hrefOf({ ...route, offset: route.offset + pageSize }) : undefined;
  const { ref: previousRef, follow: followPrevious } = useFocusKept<HTMLAnchorElement>(`${label} previous`, previous);
  const { ref: nextRef, follow: followNext } = useFocusKept<HTMLAnchorElement>(`${label} next`, next);
  const { ref: sizeRef, follow: followSize } = useFocusKept<HTMLSelectElement>(`${label} size`, String(pageSize));
  return (
    <nav className="pager" aria-label={label}>
      {previous && (
        <a href={previous} ref={previousRef} onClick={() => followPrevious(previous)}>
          Previous page
        </a>
      )}
      {next && (
        <a href={next} ref={nextRef} onClick={() => followNext(next)}>
          Next page
        </a>
      )}
      {sizes && (
        <label className="page-size">
          Per page{' '}
          <select
            ref={sizeRef}
            value={pageSize}
            onChange={(event) => {
              const hash = sizes.hrefOf(Number(event.target.value));
              followSize(hash);
              window.location.hash = hash;
            }}
          >
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
