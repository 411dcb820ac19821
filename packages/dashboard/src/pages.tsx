import { Component, lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import type { Client } from '@org/audit-client/sdk';
import { Status } from './components/Status.js';
import { ROUTES, type Page, type PageProps, type Route } from './route.js';

/**
 * The page modules, each loaded when first asked for, so that each page is a chunk of its own. Found by their file's
 * name rather than imported by `ROUTES`, which the pages link through (that would be an import cycle).
 */
const PAGE_MODULES = import.meta.glob<Record<string, unknown>>('./pages/*Page.tsx');

/**
 * One lazy component per page, made once when the app loads (one made per render would be a new component each
 * time, mounting the page afresh): React.lazy loads the page's chunk the first time the page is shown, and keeps it.
 */
const LAZY_PAGES = Object.fromEntries(
  (Object.keys(ROUTES) as Page[]).map((page) => [page, lazy(() => loadPage(ROUTES[page].page).then((component) => ({ default: component })))]),
) as Record<Page, LazyExoticComponent<ComponentType<PageProps<Page>>>>;

/**
 * The component `pages/<name>.tsx` exports as `<name>`. One missing (which `pages.test.ts` rules out) fails the page,
 * shown by `PageFailed`, not the whole app.
 */
async function loadPage(name: string): Promise<ComponentType<PageProps<Page>>> {
  const loaded = await PAGE_MODULES[`./pages/${name}.tsx`]?.();
  const component = loaded?.[name];
  if (typeof component !== 'function') throw new Error(`pages/${name}.tsx does not export ${name}`);
  // Which route's props the component takes is the page's own declaration; the name is all that ties it to its route.
  return component as ComponentType<PageProps<Page>>;
}

/** The page of a route: its component, loaded on first use, with "Loading…" until its chunk has arrived. */
export function PageOf({ route, ...props }: { route: Route; client: Client; onUnauthorized(): void }) {
  const Page = LAZY_PAGES[route.page];
  return (
    <PageFailed key={route.page}>
      <Suspense fallback={<Status loaded={{ state: 'loading' }} />}>
        <Page {...props} route={route} />
      </Suspense>
    </PageFailed>
  );
}

/**
 * What is shown instead of a page that could not be loaded or shown, rather than an empty window: most likely its
 * chunk is gone because the server now serves a newer build, which a reload fetches.
 */
class PageFailed extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return <Status loaded={{ state: 'failed', message: 'This page could not be shown. Reload the page to try again.' }} />;
  }
}
