import { describe, expect, it } from 'vitest';
import { parseServerConfig } from '../config.js';
import { redirectUrlFor, ssoSettingsOf } from './sso-settings.js';

const COMPLETE = { oidcIssuer: 'https://id.example.org/realms/ops', oidcClientId: 'audit', oidcClientSecret: 'top-secret-value' };

describe('single sign-on settings', () => {
  it('are off by default, with the documented defaults', () => {
    const config = parseServerConfig({});
    expect(ssoSettingsOf(config)).toBeUndefined();
    expect(config).toMatchObject({ oidcRoleClaim: 'groups', oidcDefaultRole: 'none', oidcScopes: 'openid email profile', oidcRoleMap: '' });
  });

  it('are on with an issuer, a client id and a secret', () => {
    const settings = ssoSettingsOf(
      parseServerConfig({
        ...COMPLETE,
        oidcRoleMap: 'sec-ops=operator',
        oidcDefaultRole: 'viewer',
        oidcLabel: ' Keycloak ',
        oidcScopes: 'openid  email groups',
      }),
    );
    expect(settings).toMatchObject({ clientId: 'audit', roleClaim: 'groups', defaultRole: 'viewer', label: 'Keycloak', scopes: 'openid email groups' });
    expect(settings!.issuer.href).toBe('https://id.example.org/realms/ops');
    expect(settings!.roleMap.get('sec-ops')).toBe('operator');
  });

  it('refuse half a configuration, naming what is missing and never the secret', () => {
    expect(() => parseServerConfig({ oidcIssuer: COMPLETE.oidcIssuer })).toThrow(
      'oidcClientId: single sign-on needs oidcIssuer, oidcClientId, oidcClientSecret together (given: oidcIssuer); missing: oidcClientId, oidcClientSecret',
    );
    let message = '';
    try {
      parseServerConfig({ oidcClientId: 'audit', oidcClientSecret: COMPLETE.oidcClientSecret, oidcLabel: 'Keycloak' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('missing: oidcIssuer');
    expect(message).not.toContain(COMPLETE.oidcClientSecret);
  });

  it('refuse a plain-http issuer, a bad role map, an unknown default role and scopes without openid', () => {
    expect(() => parseServerConfig({ ...COMPLETE, oidcIssuer: 'http://id.example.org' })).toThrow(
      'oidcIssuer: must be the https:// URL of the OpenID provider',
    );
    expect(() => parseServerConfig({ ...COMPLETE, oidcRoleMap: 'sec-ops=root' })).toThrow('oidcRoleMap: must be value=role pairs separated by commas');
    expect(() => parseServerConfig({ ...COMPLETE, oidcDefaultRole: 'root' })).toThrow('oidcDefaultRole: must be none or a role: viewer, operator, admin');
    expect(() => parseServerConfig({ ...COMPLETE, oidcScopes: 'email profile' })).toThrow('oidcScopes: must include openid');
  });

  it("redirect to the admin API's own origin unless a redirect URL is set", () => {
    const derived = ssoSettingsOf(parseServerConfig(COMPLETE))!;
    expect(redirectUrlFor(derived, 'https://audit.example.org:8444')).toBe('https://audit.example.org:8444/api/admin/session/sso/callback');
    const fixed = ssoSettingsOf(parseServerConfig({ ...COMPLETE, oidcRedirectUrl: 'https://audit.example.org/api/admin/session/sso/callback' }))!;
    expect(redirectUrlFor(fixed, 'http://10.0.0.5:8444')).toBe('https://audit.example.org/api/admin/session/sso/callback');
  });
});
