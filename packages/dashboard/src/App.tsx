import { useEffect, useMemo, useState } from 'react';
import { getAdminSession } from '@org/audit-client/sdk';
import { adminClient, data } from './api.js';
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
import { SignIn } from './pages/SignIn.js';
import { WebhookPage } from './pages/WebhookPage.js';
import { WebhooksPage } from './pages/WebhooksPage.js';
import { hrefOf, useRoute, type Route } from './route.js';
import { forgetToken, storeToken, storedToken } from './session.js';

/** The dashboard: sign-in until a token is given, then the pages, each reading the admin API. */
export function App() {
  const [token, setToken] = useState(storedToken);
  const [notice, setNotice] = useState<string>();
  const route = useRoute();
  const [signedInAs, setSignedInAs] = useState<string>();
  // One client per token, not one per render.
  const client = useMemo(() => (token ? adminClient(token) : undefined), [token]);
  useEffect(() => {
    if (!client) return setSignedInAs(undefined);
    // Who is signed in: the token's label (or its first characters), never the token.
    data(getAdminSession({ client })).then(
      (session) => setSignedInAs(session.label ?? session.prefix),
      () => setSignedInAs(undefined),
    );
  }, [client]);
  const signOut = (message?: string) => {
    forgetToken();
    setToken(undefined);
    setNotice(message);
  };
  if (!token || !client) {
    return (
      <SignIn
        notice={notice}
        onSignIn={(given) => {
          storeToken(given);
          setToken(given);
          setNotice(undefined);
        }}
      />
    );
  }
  const refused = () => signOut('The server refused the admin token (unknown or revoked). Sign in again.');
  return (
    <>
      <header className="top">
        <a className="brand" href={hrefOf({ page: 'overview' })}>Audit collector</a>
        <nav aria-label="Pages">
          <NavLink route={{ page: 'overview' }} current={route} label="Overview" />
          <NavLink route={{ page: 'hosts', offset: 0 }} current={route} label="Hosts" />
          <NavLink route={{ page: 'findings', offset: 0 }} current={route} label="Findings" />
          <NavLink route={{ page: 'policies' }} current={route} label="Policies" />
          <NavLink route={{ page: 'webhooks' }} current={route} label="Webhooks" />
          <NavLink route={{ page: 'keys' }} current={route} label="Keys" />
          <NavLink route={{ page: 'refused', offset: 0 }} current={route} label="Refused uploads" />
        </nav>
        <span className="session">
          Signed in as <strong>{signedInAs ?? '…'}</strong> <button type="button" onClick={() => signOut()}>Sign out</button>
        </span>
      </header>
      <main>
        {route.page === 'overview' && <OverviewPage client={client} route={route} onUnauthorized={refused} />}
        {route.page === 'findings' && <FindingsPage client={client} route={route} onUnauthorized={refused} />}
        {route.page === 'hosts' && <HostsPage client={client} route={route} onUnauthorized={refused} />}
        {route.page === 'host' && <HostPage client={client} id={route.id} onUnauthorized={refused} />}
        {route.page === 'host-report' && <HostReportPage client={client} id={route.id} onUnauthorized={refused} />}
        {route.page === 'raw-report' && <RawReportPage client={client} id={route.id} onUnauthorized={refused} />}
        {route.page === 'report-diff' && <ReportDiffPage client={client} route={route} onUnauthorized={refused} />}
        {route.page === 'keys' && <KeysPage client={client} onUnauthorized={refused} />}
        {route.page === 'policies' && <PoliciesPage client={client} onUnauthorized={refused} />}
        {route.page === 'webhooks' && <WebhooksPage client={client} onUnauthorized={refused} />}
        {route.page === 'webhook' && <WebhookPage key={route.id} client={client} route={route} onUnauthorized={refused} />}
        {route.page === 'refused' && <RefusedPage client={client} route={route} onUnauthorized={refused} />}
      </main>
    </>
  );
}

/** The pages a navigation link stands for besides its own: a host's pages are under Hosts, a webhook's under Webhooks. */
const SUBPAGES: Partial<Record<Route['page'], Route['page'][]>> = { hosts: ['host', 'host-report', 'raw-report', 'report-diff'], webhooks: ['webhook'] };

function NavLink({ route, current, label }: { route: Route; current: Route; label: string }) {
  const active = current.page === route.page || (SUBPAGES[route.page]?.includes(current.page) ?? false);
  return (
    <a href={hrefOf(route)} aria-current={active ? 'page' : undefined}>
      {label}
    </a>
  );
}
