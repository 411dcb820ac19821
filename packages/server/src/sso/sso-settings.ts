import type { ServerConfig } from '../config.js';
import { parseRoleMap, type DefaultRole, type RoleMap } from './role-mapping.js';

/** Where the provider sends the browser back, under the admin API. */
export const SSO_CALLBACK_PATH = '/api/admin/session/sso/callback';

/** Single sign-on's settings, once the configuration has been validated (config.ts). */
export interface SsoSettings {
  issuer: URL;
  clientId: string;
  /** Never logged, never answered. */
  clientSecret: string;
  /** Fixed by `--oidc-redirect-url`; else the admin listener's own origin (as the browser addressed it) + the callback path. */
  redirectUrl?: string;
  /** The claim whose value (a string or strings) gives the role. */
  roleClaim: string;
  roleMap: RoleMap;
  defaultRole: DefaultRole;
  /** The button's text, e.g. the provider's name. */
  label?: string;
  scopes: string;
}

/** The single sign-on settings of a configuration, or undefined when it has none (no issuer). */
export function ssoSettingsOf(config: ServerConfig): SsoSettings | undefined {
  const { oidcIssuer, oidcClientId, oidcClientSecret } = config;
  if (oidcIssuer === undefined || oidcClientId === undefined || oidcClientSecret === undefined) return undefined;
  return {
    issuer: new URL(oidcIssuer),
    clientId: oidcClientId,
    clientSecret: oidcClientSecret,
    redirectUrl: config.oidcRedirectUrl,
    roleClaim: config.oidcRoleClaim,
    roleMap: parseRoleMap(config.oidcRoleMap),
    defaultRole: config.oidcDefaultRole,
    label: config.oidcLabel,
    scopes: config.oidcScopes.trim().split(/\s+/).join(' '),
  };
}

/** The redirect URL of a request that reached the admin API at `origin` (`https://host:port`). */
export const redirectUrlFor = (settings: SsoSettings, origin: string | undefined): string | undefined =>
  settings.redirectUrl ?? (origin === undefined ? undefined : `${origin}${SSO_CALLBACK_PATH}`);
