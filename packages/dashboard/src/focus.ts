import { useEffect, useRef } from 'react';

/** How long a new page may take to show its heading (its chunk and its data) before focus is left where it is. */
const HEADING_WAIT_MS = 10_000;

/**
 * After a move to another page (`page` changes; not on first load, and not when only the page's parameters change,
 * such as its order or offset), moves focus to the new page's main heading, so keyboard and screen-reader users
 * start at the page they opened instead of on the link they left. Focus is only moved while it is still where the
 * move left it (the link followed, or nowhere): someone who has moved on meanwhile keeps their place.
 */
export function useFocusHeadingOnNavigation(page: string): void {
  const shown = useRef(page);
  useEffect(() => {
    if (shown.current === page) return;
    shown.current = page;
    const left = document.activeElement;
    return whenShown(
      () => document.querySelector<HTMLElement>('main h1'),
      (heading) => {
        const active = document.activeElement;
        if (active === left || active === null || active === document.body) heading.focus();
      },
    );
  }, [page]);
}

/** Calls `then` with what `find` finds, now or as soon as the page shows it (for a while); the result stops waiting. */
function whenShown<T>(find: () => T | null, then: (found: T) => void): () => void {
  const now = find();
  if (now) {
    then(now);
    return () => {};
  }
  const observer = new MutationObserver(() => {
    const found = find();
    if (!found) return;
    stop();
    then(found);
  });
  const timer = setTimeout(() => stop(), HEADING_WAIT_MS);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
  };
  observer.observe(document.body, { childList: true, subtree: true });
  return stop;
}

/** Moves focus to the element with this id (the skip link's target). */
export function focusById(id: string): void {
  document.getElementById(id)?.focus();
}

/**
 * The control last used to load another view of the same list (a sort heading, a pager link, the page size): its id
 * and the address it went to. The list is shown afresh once loaded, so the control that had focus is gone.
 */
let followed: { id: string; hash: string } | undefined;

/**
 * Keeps keyboard focus on a control that reloads the list it is part of (sorting, paging): once the list is back, the
 * control with the same `id` takes focus again, if the page is still where it went (not when the operator has moved
 * on meanwhile). `follow(hash)` records the move when the control is used; `href` is the control's current target.
 */
export function useFocusKept<T extends HTMLElement>(id: string, href?: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (followed?.id !== id) return;
    if (followed.hash === window.location.hash) ref.current?.focus();
    followed = undefined;
  }, [id, href]);
  return { ref, follow: (hash: string) => (followed = { id, hash }) };
}
