import { getSignInOptions, type SignInOptions } from '@org/audit-client/sdk';
import { adminClient } from './api.js';

/** Where "Sign in with SSO" goes: the server sends the browser on to the identity provider. */
export const SSO_START_PATH = '/api/admin/session/sso';

/** The query parameter the server sends the browser back with when single sign-on ended without a session. */
const SSO_ERROR_PARAMETER = 'sso_error';

/** What to tell the person for each reason the server gives (`sso_error`). */
const SSO_ERROR_MESSAGES: Record<string, string> = {
  state: 'The sign-in was interrupted or tampered with; try again.',
  provider: 'The identity provider refused the sign-in or answered something that did not check out; try again, or ask your administrator.',
  unreachable: 'The identity provider could not be reached; try again later.',
  no_role: 'Your account at the identity provider gives you no role here; ask your administrator for access.',
  disabled: 'Your account here is disabled; ask your administrator.',
  email: 'The identity provider gave no verified email address for your account.',
  linked: 'The account of your email here is linked to another identity at the provider; ask your administrator.',
};

/** The sentence for an `sso_error` reason; an unknown one (this page is older or newer than the server) still says something. */
export const ssoErrorMessage = (reason: string): string => SSO_ERROR_MESSAGES[reason] ?? 'Single sign-on did not complete; try again.';

/**
 * The message for the `sso_error` the page was opened with, if any, taken out of the address bar, so that a reload
 * or a bookmark does not show it again.
 */
export function takeSsoError(location: Location = window.location, history: History = window.history): string | undefined {
  const search = new URLSearchParams(location.search);
  const reason = search.get(SSO_ERROR_PARAMETER);
  if (reason === null) return undefined;
  search.delete(SSO_ERROR_PARAMETER);
  const rest = search.toString();
  history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
  return ssoErrorMessage(reason);
}

/** How one may sign in here; single sign-on counted off when the server cannot say. */
export async function signInOptions(): Promise<SignInOptions['sso']> {
  const { data, response } = await getSignInOptions({ client: adminClient() });
  return response.ok && data ? data.sso : { enabled: false, label: null };
}
