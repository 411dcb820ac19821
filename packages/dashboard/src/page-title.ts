import { useEffect } from 'react';
import { entryOf, type Route } from './route.js';

/** The name every window title ends with, so a tab or a history entry says whose page it is. */
export const APP_NAME = 'Audit collector';

/** The window title of a route: its page's title (after `detail`, such as a host's name, when given) and the app's name. */
export function documentTitle(route: Route, detail?: string): string {
  return [detail, entryOf(route).title, APP_NAME].filter(Boolean).join(' · ');
}

/**
 * Keeps `document.title` on the route's page, so tabs, history and screen readers name the page shown; a page that
 * knows more once loaded (a host's name) passes it as `detail`.
 */
export function useDocumentTitle(route: Route, detail?: string): void {
  const title = documentTitle(route, detail);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
