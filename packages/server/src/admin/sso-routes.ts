import { anonymousActor, userActor } from '../audit/audit-entry.js';
import { DomainError } from '../errors/domain-error.js';
import { cookieValue } from '../people/sessions.js';
import { recordSignIn } from '../people/user-records.js';
import { ProviderUnreachableError } from '../sso/identity-provider.js';
import { CLEARED_SSO_COOKIE, SSO_COOKIE, ssoAttemptCookie } from '../sso/sso-attempts.js';
import type { SsoFailureReason } from '../sso/single-sign-on.js';
import type { AdminHandler, AdminHandlers } from './operation.js';
import { problemResponse, type AdminResponse } from './responses.js';

/** How long a browser waits before trying again a provider that could not be reached. */
const UNREACHABLE_RETRY_AFTER_SECONDS = 30;

/** `GET /api/admin/session/options`: whether "Sign in with SSO" works here, and its button's text. */
const getSignInOptions: AdminHandler<'getSignInOptions'> = async (_input, { sso }) => ({
  status: 200,
  body: { sso: { enabled: sso !== undefined, label: sso?.label ?? null } },
});

/** `GET /api/admin/session/sso`: on to the provider, the attempt bound to this browser by its cookie. */
const startSsoSignIn: AdminHandler<'startSsoSignIn'> = async ({ client }, { sso, logger }) => {
  if (!sso) throw new DomainError('not_found', 'Single sign-on is not configured on this server');
  try {
    const { authorizationUrl, attemptId } = await sso.start(client.origin);
    return { raw: redirect(authorizationUrl.href, ssoAttemptCookie(attemptId)) };
  } catch (error) {
    if (!(error instanceof ProviderUnreachableError)) throw error;
    logger.error({ remoteAddress: client.address, reason: error.message }, 'single sign-on unavailable: the provider cannot be reached');
    return {
      raw: problemResponse(503, 'The identity provider cannot be reached; try again later', { 'retry-after': String(UNREACHABLE_RETRY_AFTER_SECONDS) }),
    };
  }
};

/**
 * `GET /api/admin/session/sso/callback`: signs in the person the provider sends back and goes on to the dashboard;
 * any failure goes there with `?sso_error=<reason>` and no session. The attempt's cookie is cleared either way.
 */
const finishSsoSignIn: AdminHandler<'finishSsoSignIn'> = async ({ query, client, audit }, { database, sso, sessions, logger }) => {
  if (!sso) return { raw: redirect('/?sso_error=provider', CLEARED_SSO_COOKIE) };
  // Every parameter the provider sent, not only the contract's: openid-client checks `iss` when the provider adds it.
  const outcome = await sso.finish(query, cookieValue(client.cookies, SSO_COOKIE));
  if (!outcome.ok) {
    const { reason, email, detail } = outcome;
    logger.warn({ remoteAddress: client.address, reason, email, detail }, 'single sign-on refused');
    // The answer is a redirect either way: the audit trail learns the refusal and its reason from the note.
    audit.actor = anonymousActor(email ?? null);
    audit.changes = { ssoError: reason };
    audit.outcome = 'failure';
    return { raw: redirect(`/?sso_error=${encodeURIComponent(reason satisfies SsoFailureReason)}`, CLEARED_SSO_COOKIE) };
  }
  const { user, created, roleChanged } = outcome;
  audit.actor = userActor(user);
  if (created || roleChanged) audit.changes = created ? { accountCreated: true, role: user.role } : { role: { after: user.role } };
  const sessionId = await sessions.start(user.id);
  await recordSignIn(database, user.id);
  logger.info({ userId: user.id, role: user.role, created, roleChanged, remoteAddress: client.address }, 'signed in through single sign-on');
  return { raw: redirect('/', [sessions.setCookie(sessionId), CLEARED_SSO_COOKIE]) };
};

const redirect = (location: string, cookies: string | string[]): AdminResponse => ({
  status: 302,
  headers: { location, 'set-cookie': cookies },
  body: '',
});

export const ssoRoutes = { getSignInOptions, startSsoSignIn, finishSsoSignIn } satisfies AdminHandlers<
  'getSignInOptions' | 'startSsoSignIn' | 'finishSsoSignIn'
>;
