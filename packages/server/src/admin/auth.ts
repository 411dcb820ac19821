import type { Database } from '../database/dialect.js';
import { ADMIN_TOKEN_PATTERN, AdminTokenVerifier, type AdminTokenIdentity } from '../secrets/admin-tokens.js';

/**
 * Checks the bearer tokens of admin requests (`Authorization: Bearer <token>`) against the stored admin tokens;
 * `onWriteFailure` hears of a last-use time that could not be written.
 */
export class AdminTokenAuthenticator {
  readonly #verifier: AdminTokenVerifier;

  constructor(database: Database, onWriteFailure: (error: unknown) => void = () => {}) {
    this.#verifier = new AdminTokenVerifier(database, onWriteFailure);
  }

  /** The id and role of the token an `Authorization` header carries, or undefined when it carries no valid token. */
  async authenticate(authorization: string | undefined): Promise<AdminTokenIdentity | undefined> {
    const token = bearerToken(authorization);
    return token ? this.#verifier.verify(token) : undefined;
  }
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), if it has an admin token's shape. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  return match && ADMIN_TOKEN_PATTERN.test(match[1]!) ? match[1] : undefined;
}
