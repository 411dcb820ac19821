import { getAdminSession, signIn, signOut, type AdminSession } from '@org/audit-client/sdk';
import { adminClient } from './api.js';

// An admin token lives in this tab's session only: sessionStorage is per tab and gone when the tab closes. A person's
// session is the server's HttpOnly cookie, which no script here can read.
const TOKEN_KEY = 'audit-admin-token';

/** The token this tab signed in with, if any. */
export const storedToken = (): string | undefined => sessionStorage.getItem(TOKEN_KEY) ?? undefined;

/** Keeps the token for this tab. */
export const storeToken = (token: string): void => sessionStorage.setItem(TOKEN_KEY, token);

/** Forgets the token (sign-out, or a token the server refused). */
export const forgetToken = (): void => sessionStorage.removeItem(TOKEN_KEY);

/** Who the session cookie signs in, or undefined when there is none (or it has ended). */
export async function cookieSession(): Promise<AdminSession | undefined> {
  const { data: session, response } = await getAdminSession({ client: adminClient() });
  return response.ok ? session : undefined;
}

/** Signs in with email and password: undefined once the cookie is set, else what to tell the person. */
export async function signInWithPassword(email: string, password: string): Promise<string | undefined> {
  const { response } = await signIn({ client: adminClient(), body: { email, password } });
  if (response.ok) return undefined;
  if (response.status === 401) return 'Wrong email or password.';
  if (response.status === 429) return `Too many failed sign-ins. Try again in ${response.headers.get('retry-after') ?? 'a few'} seconds.`;
  return `Could not sign in (the server answered ${response.status}).`;
}

/** Ends the cookie's session on the server (which clears the cookie). */
export async function signOutOfSession(): Promise<void> {
  await signOut({ client: adminClient() });
}

/** The name to show for who is signed in: a person's name or email, a token's label or first characters. */
export const sessionName = (session: AdminSession): string | undefined =>
  session.kind === 'user' ? (session.displayName ?? session.email) : (session.label ?? session.prefix);
