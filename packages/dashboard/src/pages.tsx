import type { ComponentType } from 'react';
import type { Client } from '@org/audit-client/sdk';
import { FindingsPage } from './pages/FindingsPage.js';
import { HostPage } from './pages/HostPage.js';
import { HostReportPage } from './pages/HostReportPage.js';
import { HostsPage } from './pages/HostsPage.js';
import { KeysPage } from './pages/KeysPage.js';
import { OverviewPage } from './pages/OverviewPage.js';
import { PoliciesPage } from './pages/PoliciesPage.js';
import { RawReportPage } from './pages/RawReportPage.js';
import { RefusedPage } from './pages/RefusedPage.js';
import { ReportDiffPage } from './pages/ReportDiffPage.js';
import { WebhookPage } from './pages/WebhookPage.js';
import { WebhooksPage } from './pages/WebhooksPage.js';
import type { Page, PageProps, Route } from './route.js';

/** The component each page of the route table renders; a page without one does not compile. */
const PAGES: { [P in Page]: ComponentType<PageProps<P>> } = {
  overview: OverviewPage,
  hosts: HostsPage,
  findings: FindingsPage,
  policies: PoliciesPage,
  webhooks: WebhooksPage,
  keys: KeysPage,
  refused: RefusedPage,
  host: HostPage,
  'host-report': HostReportPage,
  'raw-report': RawReportPage,
  'report-diff': ReportDiffPage,
  webhook: WebhookPage,
};

/** The page of a route. */
export function PageOf({ route, ...props }: { route: Route; client: Client; onUnauthorized(): void }) {
  // TypeScript does not tie `PAGES[route.page]` to the route's own type; the table's types do.
  const Component = PAGES[route.page] as ComponentType<PageProps<Page>>;
  return <Component {...props} route={route} />;
}
