import type { ReactNode } from 'react';
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
import type { Page, Route, RouteOf } from './route.js';

/** What every page is given: the API client, its route, and what to do when the server refuses the token. */
interface PageProps<P extends Page> {
  client: Client;
  route: RouteOf<P>;
  onUnauthorized(): void;
}

/** The component each page of the route table renders; a page without one does not compile. */
const PAGES: { [P in Page]: (props: PageProps<P>) => ReactNode } = {
  overview: (props) => <OverviewPage {...props} />,
  hosts: (props) => <HostsPage {...props} />,
  findings: (props) => <FindingsPage {...props} />,
  policies: (props) => <PoliciesPage {...props} />,
  webhooks: (props) => <WebhooksPage {...props} />,
  keys: (props) => <KeysPage {...props} />,
  refused: (props) => <RefusedPage {...props} />,
  host: ({ route, ...props }) => <HostPage id={route.id} {...props} />,
  'host-report': ({ route, ...props }) => <HostReportPage id={route.id} {...props} />,
  'raw-report': ({ route, ...props }) => <RawReportPage id={route.id} {...props} />,
  'report-diff': (props) => <ReportDiffPage {...props} />,
  // A new webhook is a new page: its forms start from its own settings.
  webhook: (props) => <WebhookPage key={props.route.id} {...props} />,
};

/** The page of a route. */
export function PageOf({ route, ...props }: { route: Route; client: Client; onUnauthorized(): void }) {
  // TypeScript does not tie `PAGES[route.page]` to the route's own type; the table's types do.
  const render = PAGES[route.page] as (props: PageProps<Page>) => ReactNode;
  return render({ ...props, route });
}
