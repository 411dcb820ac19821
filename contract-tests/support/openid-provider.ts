// A real OpenID provider for the single sign-on tests: oidc-provider (its development sign-in and consent pages,
// where any login signs in as that account) over HTTPS on loopback, with a self-signed certificate made here that
// the server under test is told to trust (NODE_EXTRA_CA_CERTS), as it would trust a company's CA.
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Provider from 'oidc-provider';
import selfsigned from 'selfsigned';

/** What the provider says of an account: its claims, which a test may change between sign-ins. */
export type AccountClaims = Record<string, unknown>;

export interface OpenIdProvider {
  issuer: string;
  /** The PEM file of the provider's certificate, for NODE_EXTRA_CA_CERTS. */
  certificateFile: string;
  close(): Promise<void>;
}

/**
 * Starts a provider on https://localhost:<free port> with one confidential client (`clientId`, `clientSecret`,
 * `redirectUri`); `claimsOf(login)` gives the claims of whoever signs in with `login`, read at each sign-in.
 */
export async function startOpenIdProvider(options: {
  directory: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  claimsOf(login: string): AccountClaims;
}): Promise<OpenIdProvider> {
  const { cert, key } = await certificateForLocalhost();
  const certificateFile = join(options.directory, 'provider-ca.pem');
  await writeFile(certificateFile, cert);
  // Answered once the provider exists, which needs the port (its issuer) first.
  const server: Server = createServer({ cert, key });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `https://localhost:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    cookies: { keys: ['single-sign-on-test-cookie-key'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    pkce: { required: () => true, methods: ['S256'] },
    findAccount: async (_context: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id, ...options.claimsOf(id) }) }),
  });
  server.on('request', provider.callback());
  return {
    issuer,
    certificateFile,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A self-signed certificate for localhost and 127.0.0.1, a day long. */
async function certificateForLocalhost(): Promise<{ cert: string; key: string }> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 24 * 3600_000);
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
