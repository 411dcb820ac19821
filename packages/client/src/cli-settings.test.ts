import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveAdminConnection, resolveConnection, UsageError, type AdminFlags, type ConnectionFlags, type SettingsSources } from './cli-settings.js';

const KEY = 'deadbeef-0000-0000-0000-000000000001';
const FILES: Record<string, string> = {
  'custom.prf': readFileSync(new URL('../fixtures/custom.prf', import.meta.url), 'utf8'),
  '/etc/lynis/collector.pem': '-----BEGIN CERTIFICATE-----\nprofile CA\n-----END CERTIFICATE-----\n',
  'flag-ca.pem': 'flag CA',
  'key.txt': 'deadbeef-0000-0000-0000-0000000000f1\n',
  'admin-token.txt': ' adm_from_file\n',
  'insecure.prf': 'upload-server=10.0.0.1:8443/api/audit\nupload-options=-k\nlicense-key=test-key-0001\n',
};

function sources(env: Record<string, string> = {}, stdin = ''): SettingsSources {
  return {
    env,
    readText: async (file) => {
      if (!(file in FILES)) throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
      return FILES[file]!;
    },
    readStdin: async () => stdin,
  };
}
const resolve = (flags: ConnectionFlags, env?: Record<string, string>, stdin?: string) => resolveConnection(flags, sources(env, stdin));

describe('resolveConnection', () => {
  it('takes everything from a Lynis profile: the URL Lynis builds, the key, and the CA of --cacert', async () => {
    const connection = await resolve({ lynisProfile: ['custom.prf'] });
    expect(connection.location).toEqual({ baseUrl: 'https://127.0.0.1:8443', toolSegment: 'audit', legacyPaths: true });
    expect(connection.licenseKey).toBe(KEY);
    expect(connection.tls).toEqual({ insecure: false, ca: FILES['/etc/lynis/collector.pem'] });
    expect(connection.profile.hostId).toBe('0123456789abcdef0123456789abcdef01234567');
    expect(connection.warnings).toEqual(['upload-options: ignoring --fail (only -k, --insecure and --cacert apply)']);
  });

  it('sends the profile key as Lynis sends it, and honours -k', async () => {
    const connection = await resolve({ lynisProfile: ['insecure.prf'] });
    expect(connection.licenseKey).toBe('e-e-0001');
    expect(connection.tls).toEqual({ insecure: true });
  });

  it('lets flags and the environment override the profile; TLS flags replace the profile TLS options as a whole', async () => {
    const connection = await resolve(
      { lynisProfile: ['custom.prf'], url: 'https://other:9443/api/lynis', ca: 'flag-ca.pem' },
      { AUDIT_LICENSE_KEY: 'deadbeef-0000-0000-0000-0000000000e1' },
    );
    expect(connection.location).toEqual({ baseUrl: 'https://other:9443', toolSegment: 'lynis', legacyPaths: false });
    expect(connection.tls).toEqual({ insecure: false, ca: 'flag CA' });
    expect(connection.licenseKey).toBe('deadbeef-0000-0000-0000-0000000000e1');
    expect(connection.warnings).toEqual([]);
  });

  it.each([
    [{ keyFile: 'key.txt' }, { AUDIT_LICENSE_KEY: 'from-env' }, '', 'deadbeef-0000-0000-0000-0000000000f1'],
    [{ keyStdin: true }, { AUDIT_LICENSE_KEY: 'from-env' }, 'from-stdin\n', 'from-stdin'],
    [{}, { AUDIT_LICENSE_KEY_FILE: 'key.txt', AUDIT_LICENSE_KEY: 'from-env' }, '', 'deadbeef-0000-0000-0000-0000000000f1'],
    [{}, { AUDIT_LICENSE_KEY: 'from-env' }, '', 'from-env'],
  ])('takes the key from %j (env %j), trimmed', async (flags, env, stdin, key) => {
    const connection = await resolve({ lynisProfile: ['custom.prf'], ...flags }, env, stdin);
    expect(connection.licenseKey).toBe(key);
  });

  it.each([
    [{ url: 'https://c:1/api/audit' }, /No license key: use --key-file/],
    [{ lynisProfile: ['custom.prf'], keyFile: 'key.txt', keyStdin: true }, /not both/],
    [{ keyFile: 'key.txt' }, /No server: give --url/],
    [{ url: 'https://c:1/upload', keyFile: 'key.txt' }, /must end in \/api\/<tool>/],
    [{ url: 'https://c:1/api/audit', keyFile: 'missing.txt' }, 'Cannot read the key file missing.txt: ENOENT'],
    [{ lynisProfile: ['missing.prf'] }, 'Cannot read the Lynis profile missing.prf: ENOENT'],
  ])('refuses %j with a clear message', async (flags, message) => {
    await expect(resolve(flags)).rejects.toThrow(UsageError);
    await expect(resolve(flags)).rejects.toThrow(message);
  });

  it('never puts a key into its messages', async () => {
    const error = (await resolve({ url: 'https://c:1/upload' }, { AUDIT_LICENSE_KEY: KEY }).catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain(KEY);
  });
});

describe('resolveAdminConnection', () => {
  const resolveAdmin = (flags: AdminFlags, env: Record<string, string> = {}) => resolveAdminConnection(flags, sources(env));

  it('takes the server and its TLS trust as the audit commands do, but no license key, and the base URL as it is', async () => {
    const fromProfile = await resolveAdmin({ lynisProfile: ['custom.prf'] }, { AUDIT_ADMIN_TOKEN: 'adm_env' });
    expect(fromProfile).toMatchObject({ location: 'https://127.0.0.1:8443', tls: { ca: FILES['/etc/lynis/collector.pem'] }, adminToken: 'adm_env' });
    const fromFlag = await resolveAdmin({ url: 'https://other:9443/collector', insecure: true }, { AUDIT_ADMIN_TOKEN: 'adm_env' });
    expect(fromFlag).toMatchObject({ location: 'https://other:9443/collector', tls: { insecure: true } });
  });

  it.each([
    [{ adminTokenFile: 'admin-token.txt' }, { AUDIT_ADMIN_TOKEN_FILE: 'missing', AUDIT_ADMIN_TOKEN: 'adm_env' }, 'adm_from_file'],
    [{}, { AUDIT_ADMIN_TOKEN_FILE: 'admin-token.txt', AUDIT_ADMIN_TOKEN: 'adm_env' }, 'adm_from_file'],
    [{}, { AUDIT_ADMIN_TOKEN: ' adm_env ' }, 'adm_env'],
  ])('takes the token from %j (env %j), trimmed', async (flags, env, token) => {
    expect((await resolveAdmin({ url: 'https://c:1', ...flags }, env)).adminToken).toBe(token);
  });

  it.each([
    [{ url: 'https://c:1' }, {}, 'No admin token: use --admin-token-file FILE, AUDIT_ADMIN_TOKEN_FILE or AUDIT_ADMIN_TOKEN'],
    [{ url: 'https://c:1' }, { AUDIT_ADMIN_TOKEN: '  \n' }, 'No admin token'],
    [{ url: 'https://c:1', adminTokenFile: 'missing.txt' }, {}, 'Cannot read the admin token file missing.txt: ENOENT'],
    [{}, { AUDIT_ADMIN_TOKEN: 'adm_env' }, 'No server: give --url'],
  ])('refuses %j (env %j) with a clear message', async (flags, env, message) => {
    await expect(resolveAdmin(flags, env)).rejects.toThrow(UsageError);
    await expect(resolveAdmin(flags, env)).rejects.toThrow(message);
  });
});
