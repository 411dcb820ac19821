import type * as Oidc from 'openid-client';
import type { SsoAttempt } from './sso-attempts.js';
import type { SsoSettings } from './sso-settings.js';

/** openid-client, loaded on the first sign-in: a server that never sees one does not load it at start. */
const openidClient = (): Promise<typeof Oidc> => import('openid-client');

/** Seconds each request to the provider (discovery, keys, token, userinfo) may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** Who the provider says signed in: its issuer, the person's subject there, and the claims read. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  /** The ID token's claims, completed from the userinfo endpoint when it lacks the email or the role claim. */
  claims: Record<string, unknown>;
}

/** What an attempt sends the browser to the provider with: fresh secrets, and the URL that carries their public part. */
export interface StartedAttempt {
  attempt: SsoAttempt;
  authorizationUrl: URL;
}

/** The provider could not be reached (or answered no usable metadata): nothing this browser did wrong. */
export class ProviderUnreachableError extends Error {
  override name = 'ProviderUnreachableError';
}

/** The provider refused, or answered something that failed a check (signature, issuer, audience, nonce, state). */
export class ProviderRefusedError extends Error {
  override name = 'ProviderRefusedError';
}

/** The steps of the authorization code flow that talk to the provider; a stub stands in for it in tests. */
export interface IdentityProvider {
  start(redirectUrl: string): Promise<StartedAttempt>;
  /** Checks the provider's answer (`callbackParameters`) against `attempt` and exchanges the code. */
  finish(callbackParameters: URLSearchParams, attempt: SsoAttempt): Promise<ProviderIdentity>;
}

/**
 * The OpenID provider through openid-client: its metadata discovered on first use and kept (discovery is tried again
 * after a failure); authorization code flow with PKCE (S256), `state` and `nonce`. openid-client checks the ID
 * token's signature, issuer, audience and nonce. Neither the code nor a token nor the client secret leaves here.
 */
export class OidcIdentityProvider implements IdentityProvider {
  private configuration?: Promise<Oidc.Configuration>;

  constructor(private readonly settings: SsoSettings) {}

  async start(redirectUrl: string): Promise<StartedAttempt> {
    const oidc = await openidClient();
    const configuration = await this.discovered();
    const attempt = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier(), redirectUrl };
    const authorizationUrl = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUrl,
      scope: this.settings.scopes,
      state: attempt.state,
      nonce: attempt.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(attempt.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { attempt, authorizationUrl };
  }

  async finish(callbackParameters: URLSearchParams, attempt: SsoAttempt): Promise<ProviderIdentity> {
    const oidc = await openidClient();
    const configuration = await this.discovered();
    const currentUrl = new URL(attempt.redirectUrl);
    currentUrl.search = callbackParameters.toString();
    const tokens = await asProviderFailure(() =>
      oidc.authorizationCodeGrant(
        configuration,
        currentUrl,
        { pkceCodeVerifier: attempt.codeVerifier, expectedState: attempt.state, expectedNonce: attempt.nonce, idTokenExpected: true },
        { redirect_uri: attempt.redirectUrl },
      ),
    );
    const idToken = tokens.claims();
    if (!idToken) throw new ProviderRefusedError('the provider answered no ID token');
    let claims: Record<string, unknown> = { ...idToken };
    if (claims['email'] === undefined || claims[this.settings.roleClaim] === undefined) {
      const userInfo = await asProviderFailure(() => oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub));
      // The ID token's claims win: they are signed.
      claims = { ...userInfo, ...claims };
    }
    return { issuer: idToken.iss, subject: idToken.sub, claims };
  }

  /** The provider's configuration, discovered once; a failed discovery is forgotten, so the next request tries again. */
  private discovered(): Promise<Oidc.Configuration> {
    this.configuration ??= openidClient()
      .then((oidc) =>
        oidc.discovery(this.settings.issuer, this.settings.clientId, undefined, oidc.ClientSecretPost(this.settings.clientSecret), {
          timeout: PROVIDER_TIMEOUT_SECONDS,
        }),
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw new ProviderUnreachableError(`cannot discover the OpenID provider ${this.settings.issuer.href}: ${describeProviderError(error)}`);
      });
    return this.configuration;
  }
}

/** Runs a request to the provider: a network failure becomes {@link ProviderUnreachableError}, any other {@link ProviderRefusedError}. */
async function asProviderFailure<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (isNetworkFailure(error)) throw new ProviderUnreachableError(`the OpenID provider cannot be reached: ${describeProviderError(error)}`);
    throw new ProviderRefusedError(`the OpenID provider's answer was refused: ${describeProviderError(error)}`);
  }
}

/** fetch fails with a TypeError (its cause the socket's error) and times out with an abort. */
const isNetworkFailure = (error: unknown): boolean =>
  error instanceof TypeError || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'));

/**
 * What went wrong, for the log: the error's name, code and message, and the provider's error code when it sent
 * one. Never the request or response bodies, which carry the code and tokens.
 */
export function describeProviderError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // AuthorizationResponseError, ResponseBodyError: the provider's OAuth error code.
  const oauthError = (error as { error?: unknown }).error;
  if (typeof oauthError === 'string') return `${error.name}: ${oauthError}`;
  const code = (error as { code?: unknown }).code;
  const causeCode = (error.cause as { code?: unknown } | undefined)?.code;
  const cause = error.cause instanceof Error ? ` (${typeof causeCode === 'string' ? causeCode : error.cause.message})` : '';
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}${cause}`;
}
