import { useEffect, useState } from 'react';
import { getAdminSession, type AdminRole, type Client } from '@org/audit-client/sdk';
import { data } from './api.js';
import { SignIn } from './pages/SignIn.js';
import { PageOf } from './pages.js';
import { focusById, useFocusHeadingOnNavigation } from './focus.js';
import { useDocumentTitle } from './page-title.js';
import { entryOf, hrefOf, ROUTES, type Page, type Route } from './route.js';
import { can, RoleContext, SignedInContext, type AdminOperationId, type SignedIn } from './permissions.js';
import { sessionName } from './session.js';
import { useSignIn } from './use-sign-in.js';
import { useRoute } from './use-route.js';

/** The dashboard: sign-in until a person signs in or a token is given, then the pages, each reading the admin API. */
export function App() {
  const { checking, client, byCookie, notice, tokenFirst, signOut, passwordSignIn, tokenSignIn } = useSignIn();
  const route = useRoute();
  const session = useSession(client);
  useDocumentTitle(route);
  // The page without its parameters: a new order or offset of the same list is no move to another page.
  useFocusHeadingOnNavigation(hrefOf(route).split('?')[0]!);
  if (checking) return null;
  if (!client) return <SignIn notice={notice} tokenFirst={tokenFirst} onPasswordSignIn={passwordSignIn} onTokenSignIn={tokenSignIn} />;
  const refused = () =>
    signOut(byCookie ? 'Your session has ended. Sign in again.' : 'The server refused the admin token (unknown or revoked). Sign in again.');
  return (
    <>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // The fragment is the route: the link moves focus rather than going to `#main`.
          event.preventDefault();
          focusById('main');
        }}
      >
        Skip to content
      </a>
      <header className="top">
        <a className="brand" href={hrefOf({ page: 'overview' })}>
          Audit collector
        </a>
        <nav aria-label="Pages">
          {NAV.filter(([page]) => mayOpen(page, session?.role)).map(([page, params]) => (
            // Each page's `nav` holds its own parameters.
            <NavLink key={page} route={{ page, ...params } as Route} current={route} label={navLabelOf(page)} />
          ))}
        </nav>
        <span className="session">
          <span className="session-words">Signed in as</span> <strong title={session?.name}>{session?.name ?? '…'}</strong>
          {session?.role && <span className="role"> ({session.role})</span>}{' '}
          <a href={hrefOf({ page: 'tokens' })} aria-current={route.page === 'tokens' ? 'page' : undefined}>
            Tokens
          </a>{' '}
          <button type="button" onClick={() => signOut()}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        <RoleContext.Provider value={session?.role}>
          <SignedInContext.Provider value={session?.signedIn}>
            <PageOf client={client} route={route} onUnauthorized={refused} />
          </SignedInContext.Provider>
        </RoleContext.Provider>
      </main>
    </>
  );
}

/**
 * Who is signed in with `client`: the person's name or email, or the token's label (or its first characters), never
 * the token; the role; and whether a person or a token, with the person's id. None until known.
 */
function useSession(client: Client | undefined): { name?: string; role?: AdminRole; signedIn?: SignedIn } | undefined {
  const [session, setSession] = useState<{ client: Client; name?: string; role?: AdminRole; signedIn?: SignedIn }>();
  useEffect(() => {
    if (!client) return;
    data(getAdminSession({ client })).then(
      (found) => setSession({ client, name: sessionName(found), role: found.role, signedIn: { kind: found.kind, userId: found.userId } }),
      () => setSession({ client }),
    );
  }, [client]);
  return session && session.client === client ? session : undefined;
}

/** The pages with a navigation link, in the table's order, each with the parameters its link opens it with. */
const NAV = (Object.entries(ROUTES) as Array<[Page, { nav?: object }]>).flatMap(([page, entry]) => (entry.nav ? [[page, entry.nav] as const] : []));

/** A page's words in the navigation: its short label, else its title. */
function navLabelOf(page: Page): string {
  const entry: { title: string; navLabel?: string } = ROUTES[page];
  return entry.navLabel ?? entry.title;
}

/** Whether `role` may open a page: one that reads an operation not every role may call is linked only for those who may. */
function mayOpen(page: Page, role: AdminRole | undefined): boolean {
  const entry: { requires?: AdminOperationId } = ROUTES[page];
  return entry.requires === undefined || can(role, entry.requires);
}

/** A link of the navigation; it is current on its page and on the pages under it (a host's pages under Hosts). */
function NavLink({ route, current, label }: { route: Route; current: Route; label: string }) {
  const active = current.page === route.page || entryOf(current).under === route.page;
  return (
    <a href={hrefOf(route)} aria-current={active ? 'page' : undefined}>
      {label}
    </a>
  );
}
