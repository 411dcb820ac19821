import type { ServerConfig } from '../config.js';
import type { Database } from '../database/dialect.js';
import type { UserSummary } from '../people/user-records.js';
import { OidcIdentityProvider, ProviderRefusedError, ProviderUnreachableError, type IdentityProvider } from './identity-provider.js';
import { accountForIdentity, type AccountRefusal } from './sso-accounts.js';
import { SsoAttemptStore } from './sso-attempts.js';
import { redirectUrlFor, ssoSettingsOf, type SsoSettings } from './sso-settings.js';

/**
 * Why a sign-in through the provider ended without a session: the `sso_error` the dashboard explains.
 * `state`: no attempt of this browser matches (tampered, replayed, expired, or another browser's);
 * `provider`: the provider refused or its answer failed a check; `unreachable`: it could not be reached.
 */
export type SsoFailureReason = 'state' | 'provider' | 'unreachable' | AccountRefusal;

export type SsoOutcome =
  | { ok: true; user: UserSummary; created: boolean; roleChanged: boolean }
  | {
      ok: false;
      reason: SsoFailureReason;
      /** The email tried, when known, for the log and the audit trail. */
      email?: string;
      /** For the log: what the provider said or what failed (never a code, token or secret). */
      detail?: string;
    };

/** What the provider sent the browser back with: `code`, `state`, `error`, and whatever else it adds (`iss`, `session_state`). */
export type CallbackParameters = Record<string, unknown>;

/** Single sign-on's two steps: send the browser to the provider, and sign in the person it sends back. */
export class SingleSignOn {
  private readonly provider: IdentityProvider;
  private readonly attempts: SsoAttemptStore;

  constructor(
    private readonly settings: SsoSettings,
    private readonly database: Database,
    parts: { provider?: IdentityProvider; attempts?: SsoAttemptStore } = {},
  ) {
    this.provider = parts.provider ?? new OidcIdentityProvider(settings);
    this.attempts = parts.attempts ?? new SsoAttemptStore(database);
  }

  /** The button's text, when configured. */
  get label(): string | undefined {
    return this.settings.label;
  }

  /**
   * Starts an attempt for a request that reached the admin API at `origin`: answers where to send the browser and
   * the id its cookie carries. Throws {@link ProviderUnreachableError} when the provider cannot be discovered.
   */
  async start(origin: string | undefined): Promise<{ authorizationUrl: URL; attemptId: string }> {
    const redirectUrl = redirectUrlFor(this.settings, origin);
    if (redirectUrl === undefined) throw new Error("the admin API's origin is unknown: set the redirect URL (--oidc-redirect-url)");
    const { attempt, authorizationUrl } = await this.provider.start(redirectUrl);
    return { authorizationUrl, attemptId: await this.attempts.begin(attempt) };
  }

  /**
   * Finishes the attempt of `attemptId` (the cookie's) with the provider's answer. The attempt is used up whatever
   * the outcome, so a callback can never be replayed.
   */
  async finish(parameters: CallbackParameters, attemptId: string | undefined): Promise<SsoOutcome> {
    const attempt = await this.attempts.take(attemptId);
    if (!attempt || typeof parameters['state'] !== 'string' || parameters['state'] !== attempt.state) {
      return { ok: false, reason: 'state', detail: attempt ? 'the state differs from the attempt' : 'no attempt for this browser' };
    }
    const providerError = parameters['error'];
    if (providerError !== undefined) return { ok: false, reason: 'provider', detail: `the provider answered ${JSON.stringify(providerError).slice(0, 200)}` };
    try {
      const identity = await this.provider.finish(searchParameters(parameters), attempt);
      const account = await accountForIdentity(this.database, identity, this.settings);
      return account.ok ? { ok: true, user: account.user, created: account.created, roleChanged: account.roleChanged } : account;
    } catch (error) {
      if (error instanceof ProviderUnreachableError) return { ok: false, reason: 'unreachable', detail: error.message };
      if (error instanceof ProviderRefusedError) return { ok: false, reason: 'provider', detail: error.message };
      throw error;
    }
  }
}

/** The callback's query as the provider sent it (every parameter, for openid-client checks `iss` when the provider sends it). */
function searchParameters(parameters: CallbackParameters): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') search.append(name, item);
  }
  return search;
}

/** Single sign-on as the configuration sets it up, or undefined when it has no issuer. Nothing reaches the provider before the first sign-in. */
export function singleSignOnOf(config: ServerConfig, database: Database): SingleSignOn | undefined {
  const settings = ssoSettingsOf(config);
  return settings && new SingleSignOn(settings, database);
}
